//===- Module.cpp - A loaded module (CUmodule) ----------------------------===//
#include "core/Module.h"

#include "core/BlockRunner.h"
#include "core/Context.h"
#include "core/Device.h"
#include "core/Error.h"
#include "core/ExecutionEngine.h"
#include "core/HandleRegistry.h"
#include "core/Launcher.h"

#include "PtxJit.h"
#include "cucpu/loader/FatBinary.h"
#include "cucpu/loader/ImageKind.h"
#include "cucpu/loader/LoaderError.h"
#include "cucpu/loader/ModuleImage.h"
#include "cucpu/loader/PtxImage.h"
#include "cucpu/loader/SizelessImage.h"
#include "cucpu/modules/JitError.h"
#include "cucpu/modules/Lowering.h"

#include <algorithm>
#include <cstdlib>

using namespace cucpu;

llvm::Error cucpu::toCuError(llvm::Error E) {
  return llvm::handleErrors(
      std::move(E),
      [](const loader::ImageError &IE) {
        return makeError(IE.kind() == loader::ImageErrorKind::NoBinaryForGpu
                             ? CUDA_ERROR_NO_BINARY_FOR_GPU
                             : CUDA_ERROR_INVALID_IMAGE,
                         IE.text());
      },
      [](const modules::JitError &JE) {
        switch (JE.kind()) {
        case modules::JitErrorKind::InvalidImage:
          return makeError(CUDA_ERROR_INVALID_IMAGE, JE.text());
        case modules::JitErrorKind::Unsupported:
          return makeError(CUDA_ERROR_NOT_SUPPORTED, JE.text());
        case modules::JitErrorKind::NotFound:
          return makeError(CUDA_ERROR_NOT_FOUND, JE.text());
        case modules::JitErrorKind::Internal:
          break;
        }
        return makeError(CUDA_ERROR_UNKNOWN,
                         "The JIT compiler failed: " + JE.text());
      });
}

namespace {
/// JIT options from the environment (CUDA_CACHE_*), as NVIDIA reads them,
/// at CU_JIT_OPTIMIZATION_LEVEL \p OptLevel (0-4; LLVM's levels stop at 3).
modules::JitOptions jitOptions(std::string *InfoLog, unsigned OptLevel) {
  modules::JitOptions O;
  O.OptLevel = std::min(OptLevel, 3u);
  // Under a debugger every variable keeps its place (docs/debugging.md).
  if (modules::debugKnob("gdb"))
    O.OptLevel = 0;
  O.RuntimeSymbols = ExecutionEngine::runtimeSymbols();
  O.InfoLog = InfoLog;
  if (const char *V = std::getenv("CUDA_CACHE_DISABLE"))
    O.CacheEnabled = std::string(V) != "1";
  if (const char *V = std::getenv("CUCPU_MEMCHECK"))
    O.Memcheck = std::string(V) == "1";
  // The sync checker sees shared-memory accesses through memcheck's calls.
  O.Memcheck |= BlockRunner::syncCheckEnabled();
  O.ThreadEntriesOnly = fallbackForced();
  if (const char *V = std::getenv("CUDA_CACHE_PATH"))
    O.CachePath = V;
  if (const char *V = std::getenv("CUDA_CACHE_MAXSIZE")) {
    char *End = nullptr;
    unsigned long long Bytes = std::strtoull(V, &End, 10);
    if (End != V && *End == '\0')
      O.CacheMaxBytes = Bytes;
  }
  return O;
}
} // namespace

llvm::Expected<std::shared_ptr<Module>>
Module::load(const std::shared_ptr<Context> &Ctx, llvm::ArrayRef<uint8_t> Image,
             std::string *InfoLog, unsigned OptLevel) {
  auto Read = loader::readImage(Image);
  if (!Read)
    return toCuError(Read.takeError());
  uint64_t ConstantBytes = loader::constantBytes(*Read);
  auto Jit =
      modules::JitModule::load(std::move(*Read), jitOptions(InfoLog, OptLevel));
  if (!Jit)
    return toCuError(Jit.takeError());

  std::shared_ptr<Module> M(new Module());
  M->Owner = Ctx;
  M->Jit = std::move(*Jit);
  const loader::ModuleImage &Img = M->Jit->image();
  for (const loader::KernelInfo &K : Img.Kernels) {
    auto Entry = M->Jit->kernel(K.Name);
    if (!Entry)
      return toCuError(Entry.takeError());
    M->Functions.push_back(
        std::make_shared<Function>(M, Ctx, K.Name, *Entry, ConstantBytes));
  }
  // The variables' addresses are device pointers the application copies to
  // and from: the context's memory registry must know them.
  for (const loader::GlobalInfo &G : Img.Globals) {
    if (G.Size == 0)
      continue;
    auto Entry = M->Jit->global(G.Name);
    if (!Entry)
      return toCuError(Entry.takeError());
    auto Base = reinterpret_cast<uintptr_t>(Entry->Address);
    if (!Base || Ctx->memory().overlaps(Base, Entry->Size))
      continue;
    Allocation A;
    A.Base = Base;
    A.Size = Entry->Size;
    A.Charged = 0;
    A.Kind = MemoryKind::ModuleGlobal;
    Ctx->memory().insert(A);
    M->GlobalBases.push_back(Base);
  }
  for (const loader::TexRefInfo &Info : Img.TexRefs) {
    bool Surface = loader::isSurfaceReference(Info);
    M->TexRefs.push_back(
        Surface ? nullptr : std::make_shared<TexRef>(Ctx, /*FromModule=*/true));
    M->SurfRefs.push_back(Surface ? std::make_shared<SurfRef>(Ctx) : nullptr);
  }
  HandleRegistry &Registry = HandleRegistry::get();
  for (const auto &F : M->Functions)
    Registry.add(F);
  for (const auto &T : M->TexRefs)
    if (T)
      Registry.add(T);
  for (const auto &S : M->SurfRefs)
    if (S)
      Registry.add(S);
  Registry.add(M);
  Ctx->own(M);
  return M;
}

Module::~Module() {
  HandleRegistry &Registry = HandleRegistry::get();
  for (const auto &F : Functions)
    Registry.remove(F.get());
  for (const auto &T : TexRefs)
    if (T)
      Registry.remove(T.get());
  for (const auto &S : SurfRefs)
    if (S)
      Registry.remove(S.get());
  if (std::shared_ptr<Context> Ctx = Owner.lock())
    for (uintptr_t Base : GlobalBases)
      (void)Ctx->memory().eraseAt(Base, {MemoryKind::ModuleGlobal});
}

void Module::unload() {
  HandleRegistry &Registry = HandleRegistry::get();
  for (const auto &F : Functions)
    Registry.remove(F.get());
  for (const auto &T : TexRefs)
    if (T)
      Registry.remove(T.get());
  for (const auto &S : SurfRefs)
    if (S)
      Registry.remove(S.get());
  Registry.remove(this);
  if (std::shared_ptr<Context> Ctx = Owner.lock()) {
    // NVIDIA writes pending device printf output when a module is unloaded.
    ExecutionEngine::flushOutput(Ctx->id());
    Ctx->disown(this); // May destroy this module: nothing may follow.
  }
}

llvm::Expected<std::shared_ptr<Function>>
Module::function(llvm::StringRef Name) const {
  for (const auto &F : Functions)
    if (F->name() == Name)
      return F;
  return makeError(
      CUDA_ERROR_NOT_FOUND,
      llvm::formatv("The module has no kernel named \"{0}\".", Name));
}

llvm::Expected<modules::GlobalEntry>
Module::global(llvm::StringRef Name) const {
  for (const loader::GlobalInfo &G : Jit->image().Globals)
    if (G.Name == Name) {
      auto Entry = Jit->global(Name);
      if (!Entry)
        return toCuError(Entry.takeError());
      return *Entry;
    }
  return makeError(CUDA_ERROR_NOT_FOUND,
                   llvm::formatv("The module has no global variable named "
                                 "\"{0}\".",
                                 Name));
}

llvm::Expected<std::shared_ptr<TexRef>>
Module::texRef(llvm::StringRef Name) const {
  const auto &Infos = Jit->image().TexRefs;
  for (size_t I = 0; I < Infos.size(); ++I)
    if (Infos[I].Name == Name && TexRefs[I])
      return TexRefs[I];
  return makeError(CUDA_ERROR_NOT_FOUND,
                   llvm::formatv("The module has no texture reference named "
                                 "\"{0}\".",
                                 Name));
}

llvm::Expected<std::shared_ptr<SurfRef>>
Module::surfRef(llvm::StringRef Name) const {
  const auto &Infos = Jit->image().TexRefs;
  for (size_t I = 0; I < Infos.size(); ++I)
    if (Infos[I].Name == Name && SurfRefs[I])
      return SurfRefs[I];
  return makeError(CUDA_ERROR_NOT_FOUND,
                   llvm::formatv("The module has no surface reference named "
                                 "\"{0}\".",
                                 Name));
}

bool Module::ownsTexRef(const TexRef &T) const {
  for (const auto &Own : TexRefs)
    if (Own.get() == &T)
      return true;
  return false;
}

std::vector<CucpuTexture>
Module::textureTable(std::vector<std::shared_ptr<const void>> &Keep) const {
  std::vector<CucpuTexture> Table;
  Table.reserve(TexRefs.size());
  for (size_t I = 0; I < TexRefs.size(); ++I) {
    std::shared_ptr<const void> Held;
    if (TexRefs[I]) {
      Table.push_back(TexRefs[I]->describe(Held));
    } else {
      std::shared_ptr<Array> A;
      Table.push_back(SurfRefs[I]->describe(A));
      Held = std::move(A);
    }
    if (Held)
      Keep.push_back(std::move(Held));
  }
  return Table;
}

namespace {
/// A copy of an image whose caller gave no size: what its header claims,
/// once that is known to be readable memory.
llvm::Expected<std::vector<uint8_t>> sizelessImage(const void *Data) {
  auto Image = loader::sizelessImage(Data);
  if (!Image)
    return toCuError(Image.takeError());
  return std::move(*Image);
}

/// The answer for PTX when CUDA_DISABLE_PTX_JIT=1 (\p What: where it is).
llvm::Error jitDisabled(llvm::StringRef What) {
  return makeError(
      CUDA_ERROR_JIT_COMPILATION_DISABLED,
      llvm::formatv("The module holds {0} and no binary for the device, and "
                    "PTX JIT compilation is disabled (CUDA_DISABLE_PTX_JIT=1).",
                    What));
}

/// The image of PTX text \p Text: the cucpu image cucc's PTX carries, or
/// (with none, or with CUDA_FORCE_PTX_JIT=1) the PTX JIT's.
llvm::Expected<std::vector<uint8_t>>
imageOfPtx(llvm::StringRef Text, llvm::StringRef What, const JitOptions &Jit,
           std::string *InfoLog, bool Relocatable) {
  auto Carried = loader::imageInPtx(Text);
  if (!Carried)
    return toCuError(Carried.takeError());
  if (*Carried && !ptxJitForced()) {
    std::string CarriedWhy;
    CU_INVALID_IF(loader::classifyImage((*Carried)->data(), (*Carried)->size(),
                                        CarriedWhy) !=
                      loader::ImageKind::CucpuImage,
                  CUDA_ERROR_INVALID_IMAGE,
                  "The image carried by the PTX is not a cucpu module image: "
                  "{0}",
                  CarriedWhy);
    return std::move(**Carried);
  }
  if (ptxJitDisabled())
    return jitDisabled(What);
  PtxJitOptions Options;
  Options.TargetArch = Jit.TargetArch;
  Options.Relocatable = Relocatable;
  Options.Verbose = Jit.Verbose;
  Options.DebugInfo = Jit.DebugInfo;
  Options.ExplicitOptLevel = Jit.OptLevelGiven ? Jit.OptLevel : 0;
  Options.InfoLog = InfoLog;
  modules::JitOptions Cache = jitOptions(nullptr, 0);
  Options.CacheEnabled = Cache.CacheEnabled;
  Options.CachePath = Cache.CachePath;
  Options.CacheMaxBytes = Cache.CacheMaxBytes;
  return imageFromPtx(Text, Options);
}

/// The image to load from a fat binary of \p Size bytes at \p Data.
llvm::Expected<std::vector<uint8_t>>
imageOfFatBinary(const uint8_t *Data, size_t Size, const JitOptions &Jit,
                 std::string *InfoLog, bool Relocatable) {
  auto Entries = loader::readFatBinary({Data, Size});
  if (!Entries)
    return toCuError(Entries.takeError());
  loader::EntryPolicy Policy;
  Policy.DeviceArch = ComputeCapabilityMajor * 10 + ComputeCapabilityMinor;
  Policy.PreferPtx = ptxJitForced();
  auto Chosen = loader::chooseEntry(*Entries, Policy);
  if (!Chosen)
    return toCuError(Chosen.takeError());
  const loader::FatBinaryEntry &Entry = **Chosen;
  if (Entry.PayloadKind == loader::ImageKind::CucpuImage)
    return std::vector<uint8_t>(Entry.Payload.begin(), Entry.Payload.end());
  std::string What = llvm::formatv("PTX for sm_{0}", Entry.Arch).str();
  auto Text = loader::entryPayload(Entry);
  if (!Text)
    return toCuError(Text.takeError());
  if (Jit.Verbose && InfoLog)
    *InfoLog += llvm::formatv(
        "info    : Compiling the fat binary's PTX for "
        "sm_{0} (entry at offset {1}{2}).\n",
        Entry.Arch, Entry.Offset,
        (Entry.Flags & loader::FatFlagCompressed) ? ", compressed" : "");
  return imageOfPtx(
      llvm::StringRef(reinterpret_cast<const char *>(Text->data()),
                      Text->size()),
      What, Jit, InfoLog, Relocatable);
}
} // namespace

llvm::Expected<std::vector<uint8_t>>
Module::imageBytes(const void *Data, size_t Size, const JitOptions &Jit,
                   std::string *InfoLog, bool Relocatable) {
  std::vector<uint8_t> Copy; // Of an image given without its size.
  if (Size == 0 && Data) {
    CU_TRY_ASSIGN(Copy, sizelessImage(Data));
    Data = Copy.data();
    Size = Copy.size();
  }
  std::string Why;
  loader::ImageKind Kind = loader::classifyImage(Data, Size, Why);
  switch (Kind) {
  case loader::ImageKind::Ptx:
    return imageOfPtx(llvm::StringRef(static_cast<const char *>(Data), Size),
                      "PTX text", Jit, InfoLog, Relocatable);
  case loader::ImageKind::NvidiaCubin:
    return makeError(
        CUDA_ERROR_NO_BINARY_FOR_GPU,
        llvm::formatv("The module is {0}, which only NVIDIA GPUs run: build "
                      "it with PTX (nvcc -gencode "
                      "arch=compute_75,code=compute_75, or -ptx) for cucpu's "
                      "PTX JIT, or compile the kernel source with cucc (cucc "
                      "-cubin -o k.cubin k.cu).",
                      loader::describe(Kind)));
  case loader::ImageKind::CucpuImage:
    if (!Copy.empty())
      return Copy;
    return std::vector<uint8_t>(static_cast<const uint8_t *>(Data),
                                static_cast<const uint8_t *>(Data) + Size);
  case loader::ImageKind::FatBinaryWrapper:
  case loader::ImageKind::FatBinary: {
    if (Kind == loader::ImageKind::FatBinaryWrapper) {
      constexpr size_t WrapperBytes = 16; // magic, version, data pointer.
      if (Size < WrapperBytes)
        return makeError(CUDA_ERROR_INVALID_IMAGE,
                         llvm::formatv("A fat-binary wrapper takes {0} bytes; "
                                       "the image has {1}.",
                                       WrapperBytes, Size));
      auto Inner = loader::unwrapFatBinary(Data);
      if (!Inner)
        return toCuError(Inner.takeError());
      CU_TRY_ASSIGN(Copy, sizelessImage(*Inner));
      Data = Copy.data();
      Size = Copy.size();
    }
    return imageOfFatBinary(static_cast<const uint8_t *>(Data), Size, Jit,
                            InfoLog, Relocatable);
  }
  default:
    return makeError(
        CUDA_ERROR_INVALID_IMAGE,
        llvm::formatv("The module is {0}: {1}", loader::describe(Kind), Why));
  }
}

llvm::Expected<std::shared_ptr<Module>>
Module::loadBytes(const std::shared_ptr<Context> &Ctx, const void *Data,
                  size_t Size, std::string *InfoLog, const JitOptions &Jit) {
  CU_TRY_ASSIGN(std::vector<uint8_t> Image,
                imageBytes(Data, Size, Jit, InfoLog));
  return load(Ctx, Image, InfoLog, Jit.OptLevel);
}

llvm::Expected<CucpuThreadEntry> Module::threadEntry(llvm::StringRef Name) {
  llvm::Expected<CucpuThreadEntry> Entry = Jit->threadEntry(Name);
  if (!Entry)
    return toCuError(Entry.takeError());
  return *Entry;
}

llvm::Expected<CucpuBlockEntry>
Module::specializedBlock(llvm::StringRef Name,
                         const std::array<unsigned, 3> &Shape) {
  llvm::Expected<CucpuBlockEntry> Entry =
      Jit->specializedBlock(Name, {Shape[0], Shape[1], Shape[2]});
  if (!Entry)
    return toCuError(Entry.takeError());
  return *Entry;
}
