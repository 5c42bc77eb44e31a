//===- PtxJit.cpp - PTX text to a cucpu module image ----------------------===//

#include "PtxJit.h"
#include "Error.h"
#include "LibdeviceSignatures.h"

#include "Parser.h"
#include "PtxError.h"
#include "Translator.h"
#include "cucpu/loader/ModuleImage.h"
#include "cucpu/modules/CompilerIdentity.h"
#include "cucpu/modules/ComputeCache.h"
#include "cucpu/modules/ImageLinker.h"
#include "cucpu/modules/image/ImageBuilder.h"

#include "PtxType.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"

#include "llvm/Support/SHA256.h"

#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>

namespace cucpu {

namespace {
/// The SM number of a .target name ("sm_90a" is 90); 0 if it has none.
unsigned smNumber(llvm::StringRef Target) {
  unsigned N = 0;
  if (!Target.consume_front("sm_"))
    return 0;
  Target = Target.take_while([](char C) { return C >= '0' && C <= '9'; });
  return Target.getAsInteger(10, N) ? 0 : N;
}

/// The front end's error as the driver answers it.
llvm::Error ptxFailure(llvm::Error E) {
  CUresult Code = CUDA_ERROR_INVALID_PTX;
  std::string Message;
  llvm::handleAllErrors(
      std::move(E),
      [&](const ptx::PtxError &PE) {
        if (PE.kind() == ptx::PtxErrorKind::UnsupportedVersion)
          Code = CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
        Message = PE.message();
      },
      [&](const llvm::ErrorInfoBase &Other) { Message = Other.message(); });
  return makeError(Code,
                   llvm::formatv("PTX JIT compilation failed: {0}.", Message));
}

/// The C type clang gives a .func parameter or return value \p P: its
/// scalar's type; null for arrays and vectors, which keep PTX's convention.
llvm::Type *cType(const ptx::Variable &P, llvm::LLVMContext &C) {
  if (!P.Dims.empty() || P.IsArray || P.VectorWidth)
    return nullptr;
  auto T = ptx::PtxType::parse(P.Type);
  if (!T || T->Lanes != 1 || T->K == ptx::PtxType::Kind::Pred)
    return nullptr;
  return T->irType(C);
}

/// Gives every .visible, .weak or .extern .func of \p Ptx, translated into
/// \p IR with PTX's convention (pointers to .param memory, the return value
/// first), the C convention under its own name: a definition becomes an
/// internal function with a C wrapper, a declaration an internal thunk that
/// calls the C declaration. Functions with array or vector parameters keep
/// PTX's convention (they link with PTX only).
void exposeCConvention(llvm::Module &IR, const ptx::Module &Ptx) {
  llvm::LLVMContext &C = IR.getContext();
  for (const ptx::Function &F : Ptx.Functions) {
    if (F.IsEntry || !(F.Visible || F.Extern || F.Weak) ||
        F.Returns.size() > 1 || ptx::isRuntimeFunction(F.Name))
      continue;
    llvm::Function *Fn = IR.getFunction(F.Name);
    // A declaration nothing calls needs no thunk (which would call it).
    if (!Fn || (Fn->isDeclaration() && Fn->use_empty()))
      continue;
    // PTX's arguments: the return value's slot, then the parameters.
    std::vector<const ptx::Variable *> Slots;
    for (const auto *List : {&F.Returns, &F.Params})
      for (const ptx::Variable &P : *List)
        Slots.push_back(&P);
    if (Slots.size() != Fn->arg_size())
      continue;
    std::vector<llvm::Type *> Types;
    bool Scalar = true;
    for (const ptx::Variable *P : Slots) {
      llvm::Type *T = cType(*P, C);
      Scalar = Scalar && T;
      Types.push_back(T);
    }
    if (!Scalar)
      continue;
    // libdevice's functions take their C types (a float in a floating-point
    // register), which PTX's .b32 parameters do not tell.
    if (llvm::FunctionType *Known = libdeviceSignature(F.Name, C);
        Known && Fn->isDeclaration() &&
        Known->getNumParams() == F.Params.size() &&
        Known->getReturnType()->isVoidTy() == F.Returns.empty()) {
      if (!F.Returns.empty())
        Types[0] = Known->getReturnType();
      for (size_t I = 0; I < F.Params.size(); ++I)
        Types[F.Returns.size() + I] = Known->getParamType(I);
    }
    llvm::Type *Ret = F.Returns.empty() ? llvm::Type::getVoidTy(C) : Types[0];
    std::vector<llvm::Type *> Params(Types.begin() + F.Returns.size(),
                                     Types.end());
    auto *CTy = llvm::FunctionType::get(Ret, Params, false);
    auto Linkage = Fn->getLinkage();
    Fn->setName(F.Name + ".ptx");
    auto *CFn = llvm::Function::Create(CTy, Linkage, F.Name, IR);
    CFn->addFnAttr(llvm::Attribute::NoUnwind);
    bool Defined = !Fn->isDeclaration();
    Fn->setLinkage(llvm::GlobalValue::InternalLinkage);
    // The side with the body receives the other convention's arguments.
    llvm::Function *Body = Defined ? CFn : Fn;
    llvm::IRBuilder<> B(llvm::BasicBlock::Create(C, "entry", Body));
    std::vector<llvm::Value *> Args;
    llvm::Value *RetSlot = nullptr;
    for (size_t I = 0; I < Slots.size(); ++I) {
      bool IsRet = I < F.Returns.size();
      bool ByValue = Slots[I]->StateSpace == ptx::Space::Reg;
      if (Defined) {
        // C wrapper: PTX wants each .param in memory.
        if (ByValue) {
          Args.push_back(CFn->getArg(I - F.Returns.size()));
          continue;
        }
        llvm::Value *Slot = B.CreateAlloca(Types[I]);
        if (IsRet)
          RetSlot = Slot;
        else
          B.CreateStore(CFn->getArg(I - F.Returns.size()), Slot);
        Args.push_back(Slot);
      } else {
        // Thunk: C wants values.
        llvm::Value *Arg = Fn->getArg(I);
        if (IsRet)
          RetSlot = Arg;
        else
          Args.push_back(ByValue ? Arg : B.CreateLoad(Types[I], Arg));
      }
    }
    llvm::Value *Result = B.CreateCall(Defined ? Fn : CFn, Args);
    if (Defined)
      RetSlot ? (void)B.CreateRet(B.CreateLoad(Ret, RetSlot))
              : (void)B.CreateRetVoid();
    else {
      if (RetSlot)
        B.CreateStore(Result, RetSlot);
      B.CreateRetVoid();
    }
  }
}

bool envIsOne(const char *Name) {
  const char *V = std::getenv(Name);
  return V && std::strcmp(V, "1") == 0;
}
} // namespace

namespace {
/// Images already compiled in this process, by the hash of the PTX text and
/// the options that change the image: loading the same PTX again skips the
/// front end (the compute cache then has its object code). Bounded: the
/// oldest entries go first.
class ImageMemo {
public:
  static ImageMemo &get() {
    static ImageMemo M;
    return M;
  }
  static std::string key(llvm::StringRef Text, const PtxJitOptions &O) {
    llvm::SHA256 Hash;
    Hash.update(Text);
    std::string Opts = std::to_string(O.TargetArch) + "," +
                       std::to_string(O.Relocatable) + "," +
                       std::to_string(O.DebugInfo) + "," +
                       std::to_string(O.ExplicitOptLevel);
    Hash.update(Opts);
    auto Digest = Hash.final();
    return std::string(Digest.begin(), Digest.end());
  }
  std::optional<std::vector<uint8_t>> find(const std::string &Key) {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Images.find(Key);
    if (It == Images.end())
      return std::nullopt;
    return It->second;
  }
  void store(const std::string &Key, const std::vector<uint8_t> &Image) {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Image.size() > MaxBytes || Images.count(Key))
      return;
    Order.push_back(Key);
    Bytes += Image.size();
    Images[Key] = Image;
    while (Bytes > MaxBytes || Order.size() > MaxEntries) {
      Bytes -= Images[Order.front()].size();
      Images.erase(Order.front());
      Order.pop_front();
    }
  }

private:
  static constexpr size_t MaxBytes = 64u << 20;
  static constexpr size_t MaxEntries = 256;
  std::mutex Mutex;
  std::map<std::string, std::vector<uint8_t>> Images;
  std::deque<std::string> Order;
  size_t Bytes = 0;
};
} // namespace

namespace {
/// The compute cache's key of the image of \p Text under \p Options. The
/// compiler's identity names the front end, so a rebuilt driver never reads
/// an image an older one made.
std::string diskKey(llvm::StringRef Text, const PtxJitOptions &Options) {
  std::string Memo = ImageMemo::key(Text, Options);
  llvm::SHA256 Hash;
  Hash.update(modules::compilerIdentity());
  Hash.update(Memo);
  auto Digest = Hash.final();
  return "ptx-" + llvm::toHex(Digest, /*LowerCase=*/true);
}

/// The payload tag of the compute cache's entries that hold images.
constexpr llvm::StringLiteral ImagePayload = "cucpu PTX JIT image";
} // namespace

bool ptxJitDisabled() { return envIsOne("CUDA_DISABLE_PTX_JIT"); }
bool ptxJitForced() { return envIsOne("CUDA_FORCE_PTX_JIT"); }

namespace {
/// The image of \p Text, compiled by the front end.
llvm::Expected<std::vector<uint8_t>>
compileImage(llvm::StringRef Text, const PtxJitOptions &Options) {
  // PTX text ends at its first NUL, as NVIDIA's driver reads it.
  Text = Text.substr(0, Text.find('\0'));
  auto Parsed = ptx::parse(Text);
  if (!Parsed)
    return ptxFailure(Parsed.takeError());
  unsigned PtxArch = smNumber(Parsed->Target);
  CU_INVALID_IF(Options.TargetArch && PtxArch > Options.TargetArch,
                CUDA_ERROR_INVALID_PTX,
                "PTX JIT compilation failed: the PTX's .target {0} is newer "
                "than the CU_JIT_TARGET asked for (sm_{1}).",
                Parsed->Target, Options.TargetArch);
  // ptxas: "Optimized debugging not supported" (H200: CU_JIT_GENERATE_DEBUG_
  // INFO with CU_JIT_OPTIMIZATION_LEVEL 4; without the level it loads).
  CU_INVALID_IF(Options.DebugInfo && Options.ExplicitOptLevel > 0,
                CUDA_ERROR_INVALID_PTX,
                "PTX JIT compilation failed: optimized debugging is not "
                "supported: CU_JIT_GENERATE_DEBUG_INFO needs "
                "CU_JIT_OPTIMIZATION_LEVEL 0 (it is {0}).",
                Options.ExplicitOptLevel);
  llvm::LLVMContext Context;
  auto M = ptx::translate(*Parsed, Context);
  if (!M)
    return ptxFailure(M.takeError());
  // Also for a module loaded alone: its .extern functions may be the
  // runtime's (libdevice's __nv_*, which clang's PTX calls), defined in C.
  exposeCConvention(**M, *Parsed);
  // A module loaded on its own must define what it uses; ptxas refuses an
  // .extern function or variable that nothing defines.
  if (!Options.Relocatable)
    for (const llvm::GlobalValue &GV : (*M)->global_values())
      CU_INVALID_IF(GV.isDeclaration() && !GV.use_empty() &&
                        !modules::isProvidedAtLoad(GV),
                    CUDA_ERROR_INVALID_PTX,
                    "PTX JIT compilation failed: the .extern {0} '{1}' is used "
                    "but not defined; link the PTX that defines it "
                    "(cuLinkCreate, cuLinkAddData with CU_JIT_INPUT_PTX).",
                    llvm::isa<llvm::Function>(GV) ? "function" : "variable",
                    GV.getName());
  // The image is for the target the caller asked for, else the PTX's own.
  std::string Arch =
      Options.TargetArch
          ? "sm_" + std::to_string(Options.TargetArch)
          : (PtxArch ? "sm_" + std::to_string(PtxArch) : std::string("sm_75"));
  auto Image =
      image::buildImage(**M, Arch, "cucpu PTX JIT", Options.Relocatable);
  if (!Image)
    return makeError(CUDA_ERROR_INVALID_PTX,
                     llvm::formatv("PTX JIT compilation failed: {0}",
                                   llvm::toString(Image.takeError())));
  if (Options.Verbose && Options.InfoLog)
    for (const loader::KernelInfo &K : Image->Kernels)
      *Options.InfoLog += llvm::formatv(
          "info    : Compiling entry function '{0}' for '{1}': {2} bytes of "
          "parameters, {3} bytes of static shared memory\n",
          K.Name, Arch, K.ParamBytes, K.StaticShared);
  auto Bytes = loader::writeImage(*Image);
  if (!Bytes)
    return makeError(CUDA_ERROR_INVALID_PTX,
                     llvm::formatv("PTX JIT compilation failed: {0}",
                                   llvm::toString(Bytes.takeError())));
  return std::move(*Bytes);
}
} // namespace

llvm::Expected<std::vector<uint8_t>>
imageFromPtx(llvm::StringRef Text, const PtxJitOptions &Options) {
  // PTX text ends at its first NUL, as NVIDIA's driver reads it.
  Text = Text.substr(0, Text.find('\0'));
  // The verbose log describes a compilation: with it, compile again.
  bool Memo = !Options.Verbose;
  std::string Key = ImageMemo::key(Text, Options);
  if (Memo)
    if (auto Known = ImageMemo::get().find(Key))
      return std::move(*Known);
  std::string OnDisk =
      Memo && Options.CacheEnabled ? diskKey(Text, Options) : std::string();
  modules::ComputeCache Cache(Options.CachePath.empty()
                                  ? modules::ComputeCache::defaultDirectory()
                                  : Options.CachePath,
                              Options.CacheMaxBytes);
  if (!OnDisk.empty())
    if (auto Entry = Cache.lookup(OnDisk);
        Entry && Entry->Payload == ImagePayload) {
      std::vector<uint8_t> Image(Entry->Object->getBufferStart(),
                                 Entry->Object->getBufferEnd());
      ImageMemo::get().store(Key, Image);
      return Image;
    }
  auto Image = compileImage(Text, Options);
  if (Image && Memo) {
    ImageMemo::get().store(Key, *Image);
    if (!OnDisk.empty())
      Cache.store(
          OnDisk, ImagePayload,
          llvm::MemoryBufferRef(
              llvm::StringRef(reinterpret_cast<const char *>(Image->data()),
                              Image->size()),
              OnDisk));
  }
  return Image;
}

} // namespace cucpu
