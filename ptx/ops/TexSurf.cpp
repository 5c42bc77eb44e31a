//===- TexSurf.cpp - Texture and surface references and handles -----------===//

#include "TexSurf.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

namespace cucpu::ptx {

namespace {

/// Whether \p V declares a surface reference; else it is a texture one.
bool isSurfaceReference(const Variable &V) { return V.Type == "surfref"; }

/// Whether the module-scope variable \p V is a texture or surface reference.
bool isReference(const Variable &V) {
  return V.Type == "texref" || V.Type == "surfref" || V.Type == "samplerref" ||
         V.StateSpace == Space::Tex;
}

} // namespace

llvm::Error declareTextureReference(ModuleContext &Module, const Variable &V) {
  if (V.Type == "samplerref")
    return ptxError(V.Line,
                    "sampler references (" + V.Name +
                        ", independent texture mode) are not supported by "
                        "this driver's PTX JIT");
  if (V.StateSpace != Space::Global && V.StateSpace != Space::Tex)
    return ptxError(V.Line, "texture and surface references (" + V.Name +
                                ") are declared in the .global state space");
  if (!V.Dims.empty() || V.VectorWidth)
    return ptxError(V.Line, "arrays and vectors of texture or surface "
                            "references (" +
                                V.Name +
                                ") are not supported by this driver's PTX JIT");
  if (!V.Init.empty())
    return ptxError(V.Line, "texture reference " + V.Name +
                                " cannot have an initializer");
  if (V.Extern)
    return ptxError(V.Line, "external texture and surface references (" +
                                V.Name +
                                ") are not supported by this driver's PTX JIT");
  llvm::LLVMContext &C = Module.IR.getContext();
  auto *I64 = llvm::Type::getInt64Ty(C);
  // As clang declares a texture<> or surface<> variable: an i64 the host
  // initializes, kept alive, and marked for the image builder.
  auto *GV = new llvm::GlobalVariable(
      Module.IR, I64, /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage,
      llvm::UndefValue::get(I64), V.Name, nullptr,
      llvm::GlobalValue::NotThreadLocal, GlobalAS);
  if (GV->getName() != V.Name)
    return ptxError(V.Line, "symbol " + V.Name + " defined twice");
  GV->setExternallyInitialized(true);
  GV->setAlignment(llvm::Align(8));
  llvm::Metadata *Ops[] = {
      llvm::ValueAsMetadata::get(GV),
      llvm::MDString::get(C, isSurfaceReference(V) ? "surface" : "texture"),
      llvm::ValueAsMetadata::get(
          llvm::ConstantInt::get(llvm::Type::getInt32Ty(C), 1))};
  Module.IR.getOrInsertNamedMetadata("nvvm.annotations")
      ->addOperand(llvm::MDNode::get(C, Ops));
  llvm::appendToCompilerUsed(Module.IR, {GV});
  ModuleSymbol Sym;
  Sym.Value = GV;
  Sym.StateSpace = V.StateSpace;
  Sym.Var = &V;
  Module.Symbols[V.Name] = Sym;
  return llvm::Error::success();
}

llvm::Expected<llvm::Value *> textureHandle(FunctionTranslator &F,
                                            const Instruction &I,
                                            const Operand &Base,
                                            HandleKind Kind) {
  const char *What = Kind == HandleKind::Texture ? "texture" : "surface";
  if (Base.K != Operand::Kind::Register)
    return F.error(I, llvm::Twine("the ") + What +
                          " operand must be a reference or a register");
  if (const LocalSymbol *L = F.lookup(Base.Name)) {
    // A texture or surface object: its handle, in a 64-bit register or a
    // kernel parameter.
    const Variable *D = L->Decl;
    auto T = D ? PtxType::parse(D->Type) : std::nullopt;
    if ((L->StateSpace != Space::Reg && L->StateSpace != Space::Param) || !T ||
        T->width() != 64 || D->VectorWidth || !D->Dims.empty())
      return F.error(I, llvm::Twine("the ") + What + " handle " + Base.Name +
                            " is not a 64-bit register or parameter");
    if (L->StateSpace == Space::Param)
      return F.B.CreateLoad(F.B.getInt64Ty(), L->Storage, Base.Name);
    return F.readAs(I, Base, F.B.getInt64Ty(), false);
  }
  auto It = F.Module.Symbols.find(Base.Name);
  if (It == F.Module.Symbols.end())
    return F.error(I, "no register or " + llvm::Twine(What) +
                          " reference named " + Base.Name);
  const Variable *V = It->second.Var;
  if (!V || !isReference(*V) || V->Type == "samplerref" ||
      isSurfaceReference(*V) != (Kind == HandleKind::Surface))
    return F.error(I, Base.Name + " is not a " + What + " reference");
  auto *GV = llvm::cast<llvm::GlobalVariable>(It->second.Value);
  llvm::Function *Handle = llvm::Intrinsic::getDeclaration(
      &F.Module.IR, llvm::Intrinsic::nvvm_texsurf_handle_internal,
      {GV->getType()});
  return F.B.CreateCall(Handle, {GV});
}

std::optional<Geometry> geometryNamed(llvm::StringRef Modifier) {
  return llvm::StringSwitch<std::optional<Geometry>>(Modifier)
      .Case("1d", Geometry{0x01, 1, false})
      .Case("2d", Geometry{0x02, 2, false})
      .Case("3d", Geometry{0x03, 3, false})
      .Case("a1d", Geometry{0xF1, 1, true})
      .Case("a2d", Geometry{0xF2, 2, true})
      .Case("cube", Geometry{0x0C, 3, false})
      .Case("acube", Geometry{0xFC, 3, true})
      .Default(std::nullopt);
}

std::optional<Geometry> geometryOf(const Instruction &I) {
  for (const std::string &M : I.Modifiers)
    if (auto G = geometryNamed(M))
      return G;
  return std::nullopt;
}

std::vector<const Operand *> elementsOf(const Operand &Op) {
  std::vector<const Operand *> Result;
  if (Op.K == Operand::Kind::Vector)
    for (const Operand &E : Op.Elements)
      Result.push_back(&E);
  else
    Result.push_back(&Op);
  return Result;
}

void markRuntimeCall(llvm::CallInst *Call) {
  Call->addFnAttr(llvm::Attribute::NoUnwind);
  Call->addFnAttr(llvm::Attribute::Convergent);
  if (llvm::Function *Callee = Call->getCalledFunction()) {
    Callee->addFnAttr(llvm::Attribute::NoUnwind);
    Callee->addFnAttr(llvm::Attribute::Convergent);
  }
}

} // namespace cucpu::ptx
