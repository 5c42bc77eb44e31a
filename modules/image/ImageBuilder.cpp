//===- ImageBuilder.cpp - Fill a ModuleImage from device IR ---------------===//

#include "cucpu/modules/image/ImageBuilder.h"
#include "TextureRefs.h"
#include "Translator.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

#ifndef CUCPU_VERSION
#define CUCPU_VERSION "0.0.0"
#endif

using namespace llvm;

namespace cucpu::image {

static Error imageError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

std::string producerString() {
  return "cucc " CUCPU_VERSION " (LLVM " LLVM_VERSION_STRING ")";
}

namespace {

/// What !nvvm.annotations says about one function.
struct Annotations {
  bool Kernel = false;
  uint64_t MaxNTid[3] = {0, 0, 0}; ///< maxntidx/y/z; 0 if absent.
};

/// Reads !nvvm.annotations: `!{ptr @f, !"kernel", i32 1}`,
/// `!{ptr @f, !"maxntidx", i32 256}`, ... (several key/value pairs may share
/// one node).
DenseMap<const Function *, Annotations> readAnnotations(const Module &M) {
  DenseMap<const Function *, Annotations> Result;
  const NamedMDNode *MD = M.getNamedMetadata("nvvm.annotations");
  if (!MD)
    return Result;
  for (const MDNode *Node : MD->operands()) {
    if (Node->getNumOperands() < 3)
      continue;
    auto *FnMD = dyn_cast_or_null<ValueAsMetadata>(Node->getOperand(0).get());
    const auto *F = FnMD ? dyn_cast<Function>(FnMD->getValue()) : nullptr;
    if (!F)
      continue;
    Annotations &A = Result[F];
    for (unsigned I = 1; I + 1 < Node->getNumOperands(); I += 2) {
      auto *Key = dyn_cast_or_null<MDString>(Node->getOperand(I).get());
      auto *Val =
          dyn_cast_or_null<ConstantAsMetadata>(Node->getOperand(I + 1).get());
      auto *Int = Val ? dyn_cast<ConstantInt>(Val->getValue()) : nullptr;
      if (!Key || !Int)
        continue;
      StringRef K = Key->getString();
      uint64_t V = Int->getZExtValue();
      if (K == "kernel")
        A.Kernel = V != 0;
      else if (K == "maxntidx")
        A.MaxNTid[0] = V;
      else if (K == "maxntidy")
        A.MaxNTid[1] = V;
      else if (K == "maxntidz")
        A.MaxNTid[2] = V;
    }
  }
  return Result;
}

/// The global variables \p V refers to, looking through constant
/// expressions (clang reaches shared variables through addrspacecast and
/// getelementptr constants).
void collectGlobals(const Value *V,
                    SmallPtrSetImpl<const GlobalVariable *> &Out,
                    SmallPtrSetImpl<const Constant *> &Seen) {
  if (const auto *GV = dyn_cast<GlobalVariable>(V)) {
    Out.insert(GV);
    return;
  }
  const auto *C = dyn_cast<Constant>(V);
  if (!C || isa<GlobalValue>(C) || !Seen.insert(C).second)
    return;
  for (const Use &Op : C->operands())
    collectGlobals(Op.get(), Out, Seen);
}

/// The KernelUse bit a call of \p Name implies, or 0.
uint32_t usesOfCallee(StringRef Name) {
  if (Name == "vprintf")
    return loader::UsesPrintf;
  if (Name == "__assertfail" || Name == "__assert_fail")
    return loader::UsesAssert;
  if (Name.starts_with("__cucpu_tex"))
    return loader::UsesTextures; // The kernel headers' fetches.
  if (!Name.consume_front("llvm.nvvm."))
    return 0;
  if (Name.starts_with("bar.warp.sync") || Name.starts_with("shfl.") ||
      Name.starts_with("vote.") || Name.starts_with("match.") ||
      Name.starts_with("activemask") || Name.starts_with("redux.sync"))
    return loader::UsesWarpFunctions;
  if (Name.starts_with("barrier") || Name.starts_with("bar.sync"))
    return loader::UsesBarrier;
  if (Name.starts_with("atomic.") || Name.starts_with("atom."))
    return loader::UsesAtomics;
  if (Name.starts_with("tex.") || Name.starts_with("tld4.") ||
      Name.starts_with("texsurf.handle") || Name.starts_with("suld.") ||
      Name.starts_with("sust.") || Name.starts_with("txq.") ||
      Name.starts_with("suq."))
    return loader::UsesTextures;
  return 0;
}

/// The KernelUse bits of the instructions of inline PTX assembly \p Text
/// (the JIT translates it with the PTX front end): each opcode is the first
/// word of a statement, after its labels and guard.
uint32_t usesOfAsm(StringRef Text) {
  uint32_t Uses = 0;
  SmallVector<StringRef, 8> Statements;
  Text.split(Statements, ';');
  for (StringRef S : Statements) {
    for (;;) {
      S = S.ltrim(" \t\r\n{}");
      if (S.starts_with("//")) {
        S = S.drop_until([](char C) { return C == '\n'; });
        continue;
      }
      if (S.starts_with("@")) { // A guard: @p, @!p.
        S = S.drop_until([](char C) { return C == ' ' || C == '\t'; });
        continue;
      }
      size_t Colon = S.find(':');
      size_t Space = S.find_first_of(" \t\r\n");
      if (Colon != StringRef::npos && Colon < Space) { // A label.
        S = S.drop_front(Colon + 1);
        continue;
      }
      break;
    }
    StringRef Opcode = S.take_until(
        [](char C) { return C == ' ' || C == '\t' || C == '\r' || C == '\n'; });
    StringRef Base = Opcode.split('.').first;
    if (Opcode.starts_with("bar.warp.sync") || Base == "shfl" ||
        Base == "vote" || Base == "match" || Base == "activemask" ||
        Base == "redux")
      Uses |= loader::UsesWarpFunctions;
    else if (Base == "bar" || Base == "barrier")
      Uses |= loader::UsesBarrier;
    else if (Base == "atom" || Base == "red")
      Uses |= loader::UsesAtomics;
    else if (Base == "tex" || Base == "tld4" || Base == "txq" ||
             Base == "suld" || Base == "sust" || Base == "suq")
      Uses |= loader::UsesTextures;
  }
  return Uses;
}

/// The facts about one kernel that come from the code it can run.
struct Reach {
  uint32_t Uses = 0;
  SmallPtrSet<const GlobalVariable *, 16> Globals;
};

/// Walks every function \p Kernel can call. An indirect call may reach any
/// function whose address is taken.
Reach scanReachable(const Function &Kernel) {
  Reach R;
  SmallVector<const Function *, 16> Work{&Kernel};
  SmallPtrSet<const Function *, 16> Visited{&Kernel};
  SmallPtrSet<const Constant *, 32> SeenConstants;
  bool AddedAddressTaken = false;
  auto Visit = [&](const Function *F) {
    if (F && Visited.insert(F).second)
      Work.push_back(F);
  };
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    for (const Instruction &I : instructions(*F)) {
      if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
        R.Uses |= loader::UsesAtomics;
      for (const Use &Op : I.operands())
        if (!isa<Function>(Op.get()))
          collectGlobals(Op.get(), R.Globals, SeenConstants);
      const auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      if (const auto *Asm = dyn_cast<InlineAsm>(Call->getCalledOperand())) {
        R.Uses |= usesOfAsm(Asm->getAsmString());
        continue;
      }
      if (const Function *Callee = Call->getCalledFunction()) {
        R.Uses |= usesOfCallee(Callee->getName());
        if (!Callee->isDeclaration())
          Visit(Callee);
        continue;
      }
      if (!AddedAddressTaken) {
        AddedAddressTaken = true;
        for (const Function &Other : F->getParent()->functions())
          if (!Other.isDeclaration() && Other.hasAddressTaken())
            Visit(&Other);
      }
    }
  }
  return R;
}

/// Computes the parameter layout of \p F in the CUDA parameter buffer: each
/// parameter at the next multiple of its alignment; a struct passed by value
/// (byval) with its own size and alignment.
Error layoutParams(const Function &F, const DataLayout &DL,
                   loader::KernelInfo &K) {
  uint64_t Offset = 0;
  for (const Argument &A : F.args()) {
    Type *T = A.hasByValAttr() ? A.getParamByValType() : A.getType();
    if (!T->isSized())
      return imageError(formatv("Parameter {0} of kernel '{1}' has no size.",
                                A.getArgNo(), F.getName()));
    uint64_t Size = DL.getTypeAllocSize(T);
    Align Al = DL.getABITypeAlign(T);
    if (A.hasByValAttr())
      if (MaybeAlign Given = A.getParamAlign())
        Al = std::max(Al, *Given);
    Offset = alignTo(Offset, Al);
    if (Offset + Size > UINT32_MAX)
      return imageError(formatv("The parameters of kernel '{0}' take more than "
                                "4 GiB.",
                                F.getName()));
    K.Params.push_back({static_cast<uint32_t>(Offset),
                        static_cast<uint32_t>(Size),
                        static_cast<uint32_t>(Al.value())});
    Offset += Size;
  }
  K.ParamBytes = static_cast<uint32_t>(Offset);
  return Error::success();
}

Align globalAlign(const GlobalVariable &GV, const DataLayout &DL) {
  return GV.getAlign().value_or(DL.getPreferredAlign(&GV));
}

/// True for `extern __shared__ T x[]`: dynamic shared memory, sized at launch.
bool isDynamicShared(const GlobalVariable &GV, const DataLayout &DL) {
  return !GV.hasInitializer() || DL.getTypeAllocSize(GV.getValueType()) == 0;
}

Expected<loader::KernelInfo>
describeKernel(const Function &F, const Annotations *A, const DataLayout &DL) {
  loader::KernelInfo K;
  K.Name = F.getName().str();
  if (Error E = layoutParams(F, DL, K))
    return E;

  uint64_t MaxThreads = 0;
  if (A && A->MaxNTid[0]) {
    MaxThreads = A->MaxNTid[0];
    for (uint64_t D : {A->MaxNTid[1], A->MaxNTid[2]})
      MaxThreads *= D ? D : 1;
  }
  // Newer LLVM records __launch_bounds__ as a function attribute ("256,1,1").
  if (Attribute Attr = F.getFnAttribute("nvvm.maxntid"); Attr.isValid()) {
    SmallVector<StringRef, 3> Dims;
    Attr.getValueAsString().split(Dims, ',');
    MaxThreads = 1;
    for (StringRef D : Dims) {
      uint64_t V = 1;
      D.trim().getAsInteger(10, V);
      MaxThreads *= V;
    }
  }
  K.MaxThreadsPerBlock =
      static_cast<uint32_t>(std::min<uint64_t>(MaxThreads, UINT32_MAX));

  Reach R = scanReachable(F);
  K.Uses = R.Uses;
  // Static shared memory: the __shared__ variables the kernel can reach, laid
  // out in module order, each at a multiple of its alignment.
  uint64_t Shared = 0;
  for (const GlobalVariable &GV : F.getParent()->globals()) {
    if (GV.getAddressSpace() != 3 || !R.Globals.contains(&GV) ||
        GV.getName() == ptx::SharedWindowName)
      continue;
    if (isDynamicShared(GV, DL)) {
      K.Uses |= loader::UsesDynamicShared;
      continue;
    }
    Shared = alignTo(Shared, globalAlign(GV, DL));
    Shared += DL.getTypeAllocSize(GV.getValueType());
  }
  if (Shared > UINT32_MAX)
    return imageError(formatv("Kernel '{0}' uses {1} bytes of shared memory.",
                              F.getName(), Shared));
  K.StaticShared = static_cast<uint32_t>(Shared);
  return K;
}

/// Stores the little-endian bytes of \p V (\p Bytes of them) at \p Out.
void storeInt(const APInt &V, uint64_t Bytes, uint8_t *Out) {
  APInt Wide = V.zextOrTrunc(Bytes * 8);
  for (uint64_t I = 0; I < Bytes; ++I)
    Out[I] = static_cast<uint8_t>(Wide.extractBitsAsZExtValue(8, I * 8));
}

/// Writes the bytes of initializer \p C at \p Offset of \p Buf (already
/// zero-filled and large enough), following the NVPTX data layout.
Error flatten(const Constant *C, uint64_t Offset, const DataLayout &DL,
              std::vector<uint8_t> &Buf, StringRef Global) {
  if (isa<UndefValue>(C) || C->isNullValue())
    return Error::success(); // Zeros (undef: any value, zero is one).
  Type *T = C->getType();
  if (const auto *CI = dyn_cast<ConstantInt>(C)) {
    storeInt(CI->getValue(), DL.getTypeStoreSize(T), &Buf[Offset]);
    return Error::success();
  }
  if (const auto *CF = dyn_cast<ConstantFP>(C)) {
    storeInt(CF->getValueAPF().bitcastToAPInt(), DL.getTypeStoreSize(T),
             &Buf[Offset]);
    return Error::success();
  }
  if (const auto *CDS = dyn_cast<ConstantDataSequential>(C)) {
    uint64_t Stride = DL.getTypeAllocSize(CDS->getElementType());
    StringRef Raw = CDS->getRawDataValues();
    // The raw data is in the host's byte order; NVPTX is little-endian.
    if (sys::IsLittleEndianHost && Stride == CDS->getElementByteSize() &&
        Raw.size() == Stride * CDS->getNumElements()) {
      std::memcpy(&Buf[Offset], Raw.data(), Raw.size());
      return Error::success();
    }
    for (unsigned I = 0, E = CDS->getNumElements(); I < E; ++I)
      if (Error Err = flatten(CDS->getElementAsConstant(I), Offset + I * Stride,
                              DL, Buf, Global))
        return Err;
    return Error::success();
  }
  if (isa<ConstantArray>(C) || isa<ConstantVector>(C)) {
    Type *Elem = isa<ConstantArray>(C) ? cast<ArrayType>(T)->getElementType()
                                       : cast<VectorType>(T)->getElementType();
    uint64_t Stride = DL.getTypeAllocSize(Elem);
    for (unsigned I = 0, E = C->getNumOperands(); I < E; ++I)
      if (Error Err = flatten(cast<Constant>(C->getOperand(I)),
                              Offset + I * Stride, DL, Buf, Global))
        return Err;
    return Error::success();
  }
  if (const auto *CS = dyn_cast<ConstantStruct>(C)) {
    const StructLayout *SL = DL.getStructLayout(CS->getType());
    for (unsigned I = 0, E = CS->getNumOperands(); I < E; ++I)
      if (Error Err =
              flatten(CS->getOperand(I), Offset + SL->getElementOffset(I), DL,
                      Buf, Global))
        return Err;
    return Error::success();
  }
  std::string Text;
  raw_string_ostream OS(Text);
  C->printAsOperand(OS, /*PrintType=*/true);
  return imageError(formatv(
      "The initializer of global '{0}' contains '{1}', which is not plain "
      "data (an address of another variable or function, or a constant "
      "expression); cucc cannot store it in a module image yet.",
      Global, Text));
}

Expected<loader::GlobalInfo> describeGlobal(const GlobalVariable &GV,
                                            const DataLayout &DL) {
  loader::GlobalInfo G;
  G.Name = GV.getName().str();
  G.Space = GV.getAddressSpace() == 4 ? loader::GlobalSpace::Constant
                                      : loader::GlobalSpace::Device;
  G.Size = DL.getTypeAllocSize(GV.getValueType());
  G.Align = static_cast<uint32_t>(globalAlign(GV, DL).value());
  const Constant *Init = GV.getInitializer();
  if (isa<UndefValue>(Init) || Init->isNullValue())
    return G;
  G.Initializer.assign(G.Size, 0);
  if (Error E = flatten(Init, 0, DL, G.Initializer, G.Name))
    return E;
  if (llvm::all_of(G.Initializer, [](uint8_t B) { return B == 0; }))
    G.Initializer.clear();
  return G;
}

} // namespace

bool isKernel(const Function &F) {
  if (F.getCallingConv() == CallingConv::PTX_Kernel)
    return true;
  auto Annots = readAnnotations(*F.getParent());
  auto It = Annots.find(&F);
  return It != Annots.end() && It->second.Kernel;
}

Expected<loader::ModuleImage> buildImage(const Module &M, StringRef Arch,
                                         StringRef Producer, bool Relocatable) {
  loader::ModuleImage Image;
  Image.Relocatable = Relocatable;
  Image.Producer = Producer.str();
  Image.TargetArch = Arch.str();
  const DataLayout &DL = M.getDataLayout();
  auto Annots = readAnnotations(M);

  for (const Function &F : M) {
    auto It = Annots.find(&F);
    const Annotations *A = It == Annots.end() ? nullptr : &It->second;
    bool Kernel =
        F.getCallingConv() == CallingConv::PTX_Kernel || (A && A->Kernel);
    if (!Kernel || F.isDeclaration())
      continue;
    Expected<loader::KernelInfo> K = describeKernel(F, A, DL);
    if (!K)
      return K.takeError();
    Image.Kernels.push_back(std::move(*K));
  }

  for (const GlobalVariable &GV : M.globals()) {
    unsigned AS = GV.getAddressSpace();
    if ((AS != 1 && AS != 4) || !GV.hasName() ||
        GV.getName().starts_with("llvm.") || isTextureVariable(GV))
      continue;
    if (GV.isDeclaration()) {
      // An extern __device__ variable of relocatable device code is defined
      // by another image; the linker resolves it.
      if (!GV.use_empty() && !Relocatable)
        return imageError(formatv(
            "'{0}' is declared extern but not defined in this file; cucc "
            "compiles whole programs unless -rdc=true (or -dc) asks for "
            "relocatable device code, so define it here or compile with "
            "-rdc=true and link the images with cuLinkCreate.",
            GV.getName()));
      continue;
    }
    Expected<loader::GlobalInfo> G = describeGlobal(GV, DL);
    if (!G)
      return G.takeError();
    Image.Globals.push_back(std::move(*G));
  }

  Image.TexRefs = describeTextures(M);

  SmallVector<char, 0> Buffer;
  raw_svector_ostream OS(Buffer);
  WriteBitcodeToFile(M, OS);
  Image.Bitcode.assign(Buffer.begin(), Buffer.end());
  return Image;
}

} // namespace cucpu::image
