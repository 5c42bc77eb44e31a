//===- Translator.cpp - PTX to NVVM-style LLVM IR -------------------------===//

#include "Translator.h"

#include "FunctionTranslator.h"
#include "IntegerAddresses.h"
#include "ModuleContext.h"
#include "NaNCanonicalization.h"
#include "Parser.h"
#include "PtxError.h"
#include "PtxType.h"
#include "ThreadExit.h"
#include "ops/TexSurf.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

namespace cucpu::ptx {

namespace {

/// clang 19's data layout for nvptx64.
constexpr const char *NvptxDataLayout =
    "e-i64:64-i128:128-v16:16-v32:32-n16:32:64";
/// Largest module-scope variable accepted (bytes).
constexpr uint64_t MaxVariableBytes = uint64_t(1) << 32;

unsigned addressSpaceOf(Space S) {
  switch (S) {
  case Space::Global:
    return GlobalAS;
  case Space::Const:
    return ConstAS;
  case Space::Shared:
    return SharedAS;
  default:
    return GenericAS;
  }
}

class ModuleTranslator {
public:
  ModuleTranslator(const Module &Ptx, llvm::LLVMContext &C, ThreadExits Exits)
      : C(C), IR(std::make_unique<llvm::Module>("ptx", C)), Context(*IR, Ptx),
        Exits(Exits) {}

  llvm::Expected<std::unique_ptr<llvm::Module>> run();

private:
  llvm::Error variable(const Variable &V);
  llvm::Expected<llvm::Constant *> initializer(const Variable &V,
                                               uint64_t Bytes,
                                               uint64_t ElementBytes,
                                               PtxType T);
  llvm::Error declareFunction(const Function &F);
  void annotate(const Function &F, llvm::Function &Fn);
  llvm::Error cleanUp();

  llvm::LLVMContext &C;
  std::unique_ptr<llvm::Module> IR;
  ModuleContext Context;
  std::vector<std::pair<const Function *, llvm::Function *>> Bodies;
  ThreadExits Exits;
};

llvm::Expected<llvm::Constant *>
ModuleTranslator::initializer(const Variable &V, uint64_t Bytes,
                              uint64_t ElementBytes, PtxType T) {
  auto *I8 = llvm::Type::getInt8Ty(C);
  if (V.Init.empty())
    return llvm::Constant::getNullValue(llvm::ArrayType::get(I8, Bytes));
  if (V.Init.size() * ElementBytes > Bytes)
    return ptxError(V.Line,
                    llvm::formatv("the initializer of {0} has {1} "
                                  "elements; the variable holds {2}",
                                  V.Name, V.Init.size(), Bytes / ElementBytes));
  std::vector<llvm::Constant *> Pieces;
  std::vector<uint8_t> Pending;
  auto Flush = [&] {
    if (!Pending.empty())
      Pieces.push_back(llvm::ConstantDataArray::get(C, Pending));
    Pending.clear();
  };
  for (const Operand &E : V.Init) {
    if (E.K == Operand::Kind::Register) {
      auto It = Context.Symbols.find(E.Name);
      if (It == Context.Symbols.end())
        return ptxError(V.Line, "the initializer of " + V.Name +
                                    " names an unknown symbol " + E.Name);
      if (ElementBytes != 8)
        return ptxError(V.Line, "the address of " + E.Name + " initializes a " +
                                    std::to_string(ElementBytes * 8) +
                                    "-bit element of " + V.Name);
      Flush();
      llvm::Constant *P = It->second.Value;
      if (P->getType()->getPointerAddressSpace() != GenericAS)
        P = llvm::ConstantExpr::getAddrSpaceCast(P,
                                                 llvm::PointerType::get(C, 0));
      if (E.Value)
        P = llvm::ConstantExpr::getGetElementPtr(
            I8, P, llvm::ConstantInt::get(llvm::Type::getInt64Ty(C), E.Value));
      Pieces.push_back(P);
      continue;
    }
    uint64_t Bits = E.Value;
    if (T.K == PtxType::Kind::Float && T.Bits == 32 &&
        E.K == Operand::Kind::Double) {
      double D;
      std::memcpy(&D, &Bits, 8);
      float F = static_cast<float>(D);
      uint32_t FB;
      std::memcpy(&FB, &F, 4);
      Bits = FB;
    } else if (T.K == PtxType::Kind::Float && T.Bits == 64 &&
               E.K == Operand::Kind::Float) {
      float F;
      uint32_t FB = static_cast<uint32_t>(Bits);
      std::memcpy(&F, &FB, 4);
      double D = F;
      std::memcpy(&Bits, &D, 8);
    } else if (T.isFloat() && E.K == Operand::Kind::Integer) {
      double D = static_cast<double>(static_cast<int64_t>(Bits));
      if (T.Bits == 32) {
        float F = static_cast<float>(D);
        uint32_t FB;
        std::memcpy(&FB, &F, 4);
        Bits = FB;
      } else {
        std::memcpy(&Bits, &D, 8);
      }
    }
    for (uint64_t B = 0; B < ElementBytes; ++B)
      Pending.push_back(B < 8 ? static_cast<uint8_t>(Bits >> (8 * B)) : 0);
  }
  uint64_t Written = V.Init.size() * ElementBytes;
  Pending.resize(Pending.size() + (Bytes - Written), 0);
  Flush();
  if (Pieces.size() == 1)
    return Pieces[0];
  return llvm::ConstantStruct::getAnon(C, Pieces, /*Packed=*/true);
}

llvm::Error ModuleTranslator::variable(const Variable &V) {
  if (V.Type == "texref" || V.Type == "surfref" || V.Type == "samplerref" ||
      V.StateSpace == Space::Tex)
    return declareTextureReference(Context, V);
  auto T = PtxType::parse(V.Type);
  if (!T || T->K == PtxType::Kind::Pred)
    return ptxError(V.Line, "variable type ." + V.Type + " is not supported");
  uint64_t ElementBytes =
      std::max(1u, T->width() / 8) * (V.VectorWidth ? V.VectorWidth : 1);
  uint64_t Bytes = ElementBytes;
  bool Unsized = false;
  for (size_t I = 0; I < V.Dims.size(); ++I) {
    uint64_t D = V.Dims[I];
    if (D == 0) {
      // var[] = {...} takes its size from the initializer; an extern or
      // dynamic .shared array has none.
      if (I != 0)
        return ptxError(V.Line, "only the first dimension of " + V.Name +
                                    " may be unsized");
      if (!V.Init.empty()) {
        uint64_t Inner = 1;
        for (size_t J = 1; J < V.Dims.size(); ++J)
          Inner *= V.Dims[J];
        D = (V.Init.size() + Inner - 1) / Inner;
      } else {
        Unsized = true;
        continue;
      }
    }
    if (Bytes > MaxVariableBytes / D)
      return ptxError(V.Line, "variable " + V.Name + " is larger than 4 GiB");
    Bytes *= D;
  }
  unsigned AS = addressSpaceOf(V.StateSpace);
  unsigned Align =
      V.Align ? V.Align
              : static_cast<unsigned>(std::min<uint64_t>(ElementBytes, 16));
  auto *I8 = llvm::Type::getInt8Ty(C);
  llvm::GlobalVariable *GV;
  if (Unsized || V.Extern) {
    if (V.StateSpace != Space::Shared && !V.Extern)
      return ptxError(V.Line, "variable " + V.Name + " has no size");
    GV = new llvm::GlobalVariable(
        *IR, llvm::ArrayType::get(I8, Unsized ? 0 : Bytes), false,
        llvm::GlobalValue::ExternalLinkage, nullptr, V.Name, nullptr,
        llvm::GlobalValue::NotThreadLocal, AS);
  } else {
    llvm::Constant *Init;
    if (V.StateSpace == Space::Shared) {
      if (!V.Init.empty())
        return ptxError(V.Line, ".shared variable " + V.Name +
                                    " cannot have an initializer");
      Init = llvm::UndefValue::get(llvm::ArrayType::get(I8, Bytes));
    } else {
      auto I = initializer(V, Bytes, ElementBytes, *T);
      if (!I)
        return I.takeError();
      Init = *I;
    }
    auto Linkage = V.StateSpace == Space::Shared
                       ? llvm::GlobalValue::InternalLinkage
                   : V.Weak    ? llvm::GlobalValue::WeakODRLinkage
                   : V.Visible ? llvm::GlobalValue::ExternalLinkage
                               : llvm::GlobalValue::InternalLinkage;
    GV = new llvm::GlobalVariable(*IR, Init->getType(), false, Linkage, Init,
                                  V.Name, nullptr,
                                  llvm::GlobalValue::NotThreadLocal, AS);
    if (V.StateSpace == Space::Global)
      GV->setExternallyInitialized(true);
  }
  GV->setAlignment(llvm::Align(Align));
  if (GV->getName() != V.Name)
    return ptxError(V.Line, "symbol " + V.Name + " defined twice");
  ModuleSymbol Sym;
  Sym.Value = GV;
  Sym.StateSpace = V.StateSpace;
  Sym.Var = &V;
  Context.Symbols[V.Name] = Sym;
  return llvm::Error::success();
}

/// The IR type of an .entry parameter: its value, or a byval pointer for
/// an array (a struct passed by value).
llvm::Expected<llvm::Type *> entryParamType(llvm::LLVMContext &C,
                                            const Variable &P) {
  auto T = PtxType::parse(P.Type);
  if (!T || T->K == PtxType::Kind::Pred)
    return ptxError(P.Line, "parameter type ." + P.Type + " is not supported");
  if (P.IsArray || P.VectorWidth)
    return llvm::PointerType::get(C, 0);
  return T->irType(C);
}

llvm::Error ModuleTranslator::declareFunction(const Function &F) {
  std::vector<llvm::Type *> Params;
  std::vector<std::pair<unsigned, llvm::Type *>> ByVal;
  std::vector<unsigned> ByValAlign;
  if (F.IsEntry) {
    for (const Variable &P : F.Params) {
      auto Ty = entryParamType(C, P);
      if (!Ty)
        return Ty.takeError();
      if ((*Ty)->isPointerTy()) {
        auto T = PtxType::parse(P.Type);
        uint64_t Bytes = T->width() / 8 * (P.VectorWidth ? P.VectorWidth : 1);
        for (uint64_t D : P.Dims)
          Bytes *= D ? D : 1;
        ByVal.push_back(
            {static_cast<unsigned>(Params.size()),
             llvm::ArrayType::get(llvm::Type::getInt8Ty(C), Bytes)});
        ByValAlign.push_back(P.Align ? P.Align : T->width() / 8);
      }
      Params.push_back(*Ty);
    }
  } else {
    // .func: parameters live in the caller's .param memory; each is passed
    // as a pointer to it (return values too), .reg parameters by value.
    for (const auto *List : {&F.Returns, &F.Params})
      for (const Variable &P : *List) {
        if (P.StateSpace == Space::Reg) {
          auto T = PtxType::parse(P.Type);
          if (!T)
            return ptxError(P.Line,
                            "parameter type ." + P.Type + " is not supported");
          if (List == &F.Returns)
            return ptxError(P.Line, ".reg return values are not supported");
          Params.push_back(T->irType(C));
        } else {
          Params.push_back(llvm::PointerType::get(C, 0));
        }
      }
  }
  auto *Ty = llvm::FunctionType::get(llvm::Type::getVoidTy(C), Params, false);
  // The runtime's functions are declared as their callers call them: with
  // their C signatures (ops/Control.cpp).
  if (F.Extern && !F.Body)
    if (llvm::FunctionType *Sig = runtimeSignature(C, F.Name))
      Ty = Sig;
  auto Linkage = F.Weak                  ? llvm::GlobalValue::WeakODRLinkage
                 : F.Visible || F.Extern ? llvm::GlobalValue::ExternalLinkage
                 : F.IsEntry             ? llvm::GlobalValue::ExternalLinkage
                                         : llvm::GlobalValue::InternalLinkage;
  if (auto It = Context.Symbols.find(F.Name); It != Context.Symbols.end()) {
    // A declaration followed by the definition: the same function.
    if (!It->second.Func || It->second.Func->Body || !F.Body ||
        It->second.Func->IsEntry != F.IsEntry)
      return ptxError(F.Line, "symbol " + F.Name + " defined twice");
    auto *Fn = llvm::cast<llvm::Function>(It->second.Value);
    if (Fn->getFunctionType() != Ty)
      return ptxError(F.Line, "the definition of " + F.Name +
                                  " does not match its declaration");
    It->second.Func = &F;
    Fn->setLinkage(Linkage);
    Bodies.push_back({&F, Fn});
    return llvm::Error::success();
  }
  auto *Fn = llvm::Function::Create(Ty, Linkage, F.Name, *IR);
  if (Fn->getName() != F.Name)
    return ptxError(F.Line, "symbol " + F.Name + " defined twice");
  for (size_t I = 0; I < ByVal.size(); ++I) {
    Fn->addParamAttr(ByVal[I].first,
                     llvm::Attribute::getWithByValType(C, ByVal[I].second));
    Fn->addParamAttr(ByVal[I].first,
                     llvm::Attribute::getWithAlignment(
                         C, llvm::Align(std::max(1u, ByValAlign[I]))));
  }
  Fn->addFnAttr(llvm::Attribute::NoUnwind);
  ModuleSymbol Sym;
  Sym.Value = Fn;
  Sym.StateSpace = Space::None;
  Sym.Func = &F;
  Context.Symbols[F.Name] = Sym;
  if (F.Body)
    Bodies.push_back({&F, Fn});
  if (F.IsEntry)
    annotate(F, *Fn);
  return llvm::Error::success();
}

void ModuleTranslator::annotate(const Function &F, llvm::Function &Fn) {
  llvm::NamedMDNode *MD = IR->getOrInsertNamedMetadata("nvvm.annotations");
  auto *I32 = llvm::Type::getInt32Ty(C);
  auto Add = [&](llvm::StringRef Key, unsigned Value) {
    llvm::Metadata *Ops[] = {
        llvm::ValueAsMetadata::get(&Fn), llvm::MDString::get(C, Key),
        llvm::ValueAsMetadata::get(llvm::ConstantInt::get(I32, Value))};
    MD->addOperand(llvm::MDNode::get(C, Ops));
  };
  Add("kernel", 1);
  const unsigned *Bounds = F.ReqNTid[0] ? F.ReqNTid : F.MaxNTid;
  if (Bounds[0]) {
    Add("maxntidx", Bounds[0]);
    Add("maxntidy", Bounds[1]);
    Add("maxntidz", Bounds[2]);
  }
}

llvm::Error ModuleTranslator::cleanUp() {
  // Registers were allocas: SROA makes them SSA values, and the rest gives
  // the lowering passes IR shaped like clang's.
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  llvm::PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  llvm::ModulePassManager MPM;
  if (auto E = PB.parsePassPipeline(MPM, "function(sroa,early-cse)"))
    return E;
  // Addresses as pointers, and only the NaN canonicalizations someone can
  // see, before InstCombine folds what the rewrites look for.
  llvm::FunctionPassManager Rewrites;
  Rewrites.addPass(IntegerAddressesPass());
  Rewrites.addPass(NaNCanonicalizationPass());
  MPM.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(Rewrites)));
  if (auto E = PB.parsePassPipeline(
          MPM, "function(instcombine<no-verify-fixpoint>,simplifycfg)"))
    return E;
  MPM.run(*IR, MAM);
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<llvm::Module>> ModuleTranslator::run() {
  IR->setTargetTriple("nvptx64-nvidia-cuda");
  IR->setDataLayout(NvptxDataLayout);
  const Module &Ptx = Context.Ptx;
  // Symbols first (in source order, so initializers may name earlier
  // variables and functions), then bodies, which may use any of them.
  for (auto [IsFunction, Index] : Ptx.Order) {
    llvm::Error E = IsFunction ? declareFunction(Ptx.Functions[Index])
                               : variable(Ptx.Globals[Index]);
    if (E)
      return E;
  }
  for (auto [F, Fn] : Bodies) {
    FunctionTranslator T(Context, *F, *Fn);
    if (auto E = T.run())
      return E;
  }
  if (Exits == ThreadExits::Lower)
    if (auto E = lowerThreadExits(*IR))
      return E;
  std::string Broken;
  llvm::raw_string_ostream OS(Broken);
  if (llvm::verifyModule(*IR, &OS))
    return ptxError(0, "the translated module is not valid IR (a bug in the "
                       "PTX front end): " +
                           Broken);
  if (auto E = cleanUp())
    return E;
  return std::move(IR);
}

} // namespace

llvm::Expected<std::unique_ptr<llvm::Module>>
translate(const Module &Ptx, llvm::LLVMContext &C, ThreadExits Exits) {
  ModuleTranslator T(Ptx, C, Exits);
  return T.run();
}

llvm::Expected<std::unique_ptr<llvm::Module>>
compile(llvm::StringRef Text, llvm::LLVMContext &C, ThreadExits Exits) {
  auto Parsed = parse(Text);
  if (!Parsed)
    return Parsed.takeError();
  return translate(*Parsed, C, Exits);
}

} // namespace cucpu::ptx
