//===- JitModule.cpp - Compile a module image for the host ----------------===//
//
// load(): look the image up in the compute cache; on a miss parse the
// bitcode, verify it, lower it to the host (modules/passes), optimize it,
// compile it to an object file and store that in the cache. Then link the
// object into a JITDylib of its own and resolve every kernel's entry points
// and every module variable, so that nothing can fail later, at launch. A
// kernel with a block function leaves its thread entry (the fiber engine's)
// out unless JitOptions::ThreadEntriesOnly: most never need it.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/JitModule.h"

#include "HostTarget.h"
#include "cucpu/modules/Compiler.h"
#include "cucpu/modules/CompilerIdentity.h"
#include "cucpu/modules/ComputeCache.h"
#include "cucpu/modules/JitError.h"
#include "cucpu/modules/JitSession.h"
#include "cucpu/modules/JitStats.h"
#include "cucpu/modules/LoadedModule.h"
#include "cucpu/modules/Lowering.h"
#include "cucpu/modules/passes/PassRegistry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <chrono>

#ifndef CUCPU_VERSION
#define CUCPU_VERSION "unknown"
#endif

using namespace llvm;
using namespace cucpu;
using namespace cucpu::modules;

namespace {

std::atomic<uint64_t> Compiled{0};
std::atomic<uint64_t> FromCache{0};

const HostTarget &host() {
  static const HostTarget Host = HostTarget::detect();
  return Host;
}

/// The cache key: a hash of everything that changes the object code.
std::string cacheKey(const loader::ModuleImage &Image,
                     const JitOptions &Options) {
  SHA256 Hash;
  auto Add = [&](StringRef S) {
    uint8_t Len[8];
    support::endian::write64le(Len, S.size());
    Hash.update(ArrayRef<uint8_t>(Len, 8));
    Hash.update(S);
  };
  Add("cucpu " CUCPU_VERSION);
  Add("llvm " LLVM_VERSION_STRING);
  Add(Options.CompilerIdentity.empty() ? compilerIdentity()
                                       : Options.CompilerIdentity);
  Add(loweringPipeline(Options.Memcheck));
  Add(Options.ThreadEntriesOnly ? threadEntryPipeline()
                                : blockFunctionPipeline());
  Add("O" + std::to_string(Options.OptLevel));
  Add(host().Triple);
  Add(host().Cpu);
  Add(host().Features);
  // What changes LLVM's code besides the host (JitSession.cpp).
  for (const char *Knob : {"CUCPU_LLVM_OPTIONS", "CUCPU_HOST_FEATURES"})
    if (const char *Value = std::getenv(Knob))
      Add(std::string(Knob) + "=" + Value);
  Add(Image.TargetArch);
  for (const loader::KernelInfo &K : Image.Kernels) {
    Add(K.Name);
    Add(std::to_string(K.ParamBytes));
    for (const loader::KernelParam &P : K.Params)
      Add(std::to_string(P.Offset) + "," + std::to_string(P.Size) + "," +
          std::to_string(P.Align));
  }
  std::vector<std::string> Externals;
  for (const auto &S : Options.RuntimeSymbols)
    Externals.push_back(S.first().str());
  std::sort(Externals.begin(), Externals.end());
  for (const std::string &S : Externals)
    Add(S);
  Hash.update(ArrayRef<uint8_t>(Image.Bitcode));
  std::array<uint8_t, 32> Digest = Hash.final();
  return toHex(Digest, /*LowerCase=*/true);
}

/// What the JIT needs besides the object: shared sizes and variable sizes.
struct Payload {
  StringMap<uint32_t> KernelShared;
  StringMap<uint64_t> GlobalSizes;
  StringMap<uint32_t> KernelFrame; ///< Kernels with a block function.
  StringSet<> ThreadEntries;       ///< Kernels whose thread entry is in.

  std::string encode() const {
    std::string Out;
    auto Put = [&](char Tag, StringRef Name, uint64_t Value) {
      char Buf[12];
      Out += Tag;
      support::endian::write32le(Buf, Name.size());
      support::endian::write64le(Buf + 4, Value);
      Out.append(Buf, 12);
      Out += Name;
    };
    for (const auto &K : KernelShared)
      Put('K', K.first(), K.second);
    for (const auto &G : GlobalSizes)
      Put('G', G.first(), G.second);
    for (const auto &F : KernelFrame)
      Put('F', F.first(), F.second);
    for (const auto &T : ThreadEntries)
      Put('T', T.first(), 0);
    return Out;
  }

  static std::optional<Payload> decode(StringRef In) {
    Payload P;
    while (!In.empty()) {
      if (In.size() < 13)
        return std::nullopt;
      char Tag = In[0];
      uint32_t Len = support::endian::read32le(In.data() + 1);
      uint64_t Value = support::endian::read64le(In.data() + 5);
      In = In.drop_front(13);
      if (In.size() < Len)
        return std::nullopt;
      StringRef Name = In.take_front(Len);
      In = In.drop_front(Len);
      if (Tag == 'K' && Value <= UINT32_MAX)
        P.KernelShared[Name] = static_cast<uint32_t>(Value);
      else if (Tag == 'G')
        P.GlobalSizes[Name] = Value;
      else if (Tag == 'F' && Value <= UINT32_MAX)
        P.KernelFrame[Name] = static_cast<uint32_t>(Value);
      else if (Tag == 'T')
        P.ThreadEntries.insert(Name);
      else
        return std::nullopt;
    }
    return P;
  }
};

/// Compiles \p Image to an object file; fills \p Out with the payload.
Expected<std::unique_ptr<MemoryBuffer>>
compile(const loader::ModuleImage &Image, const JitOptions &Options,
        JitSession &Session, StringRef Key, Payload &Out) {
  Expected<std::unique_ptr<LoweredModule>> Lowered =
      lowerImage(Image, Options, Session, Key);
  if (!Lowered)
    return Lowered.takeError();
  auto Lock = (*Lowered)->Context.getLock();
  LoweringResults Results = readLoweringResults(*(*Lowered)->IR);
  if (debugKnob("exec"))
    for (const auto &R : Results.FallbackReasons)
      errs() << "cucpu: kernel " << R.first()
             << " runs on the fallback engine: " << R.second << "\n";
  for (const loader::KernelInfo &Info : Image.Kernels) {
    // A kernel without a block function, or without a thread entry (which
    // load() then reports), stays as it is.
    Function *Entry =
        (*Lowered)->IR->getFunction(ThreadEntryPrefix + Info.Name);
    if (!Entry || Options.ThreadEntriesOnly ||
        !Results.KernelFrame.count(Info.Name) || !Entry->use_empty())
      Out.ThreadEntries.insert(Info.Name);
    else
      Entry->eraseFromParent();
  }
  Expected<std::unique_ptr<MemoryBuffer>> Object =
      emitObject(*(*Lowered)->IR, **Lowered, Options);
  if (!Object)
    return Object.takeError();
  Out.KernelShared = std::move(Results.KernelShared);
  Out.GlobalSizes = std::move(Results.GlobalSizes);
  Out.KernelFrame = std::move(Results.KernelFrame);
  ++Compiled;
  return std::move(*Object);
}

} // namespace

uint64_t cucpu::modules::compiledModuleCount() { return Compiled; }
uint64_t cucpu::modules::cachedModuleCount() { return FromCache; }

void cucpu::modules::prepareJit() {
  (void)host();
  if (Expected<JitSession &> Session = JitSession::get(); !Session)
    consumeError(Session.takeError());
}

JitModule::~JitModule() = default;

Expected<std::unique_ptr<JitModule>>
JitModule::load(loader::ModuleImage Image, const JitOptions &Options) {
  Expected<JitSession &> Session = JitSession::get();
  if (!Session)
    return Session.takeError();
  auto Start = std::chrono::steady_clock::now();
  std::string Key = cacheKey(Image, Options);
  ComputeCache Cache = computeCache(Options);

  std::unique_ptr<MemoryBuffer> Object;
  std::optional<Payload> Data;
  bool Hit = false;
  if (Options.CacheEnabled)
    if (std::optional<CacheEntry> Entry = Cache.lookup(Key)) {
      Data = Payload::decode(Entry->Payload);
      if (Data) {
        Object = std::move(Entry->Object);
        Hit = true;
      }
    }
  if (!Object) {
    Payload Fresh;
    Expected<std::unique_ptr<MemoryBuffer>> Compiled =
        compile(Image, Options, *Session, Key, Fresh);
    if (!Compiled)
      return Compiled.takeError();
    Object = std::move(*Compiled);
    if (Options.CacheEnabled)
      Cache.store(Key, Fresh.encode(), Object->getMemBufferRef());
    Data = std::move(Fresh);
  } else {
    ++FromCache;
  }

  Expected<orc::JITDylib &> JD =
      Session->createModuleDylib(Options.RuntimeSymbols);
  if (!JD)
    return JD.takeError();
  auto Fail = [&](Error E) -> Error {
    consumeError(Session->removeModuleDylib(*JD));
    return E;
  };
  orc::LLJIT &J = Session->jit();
  if (Error E = J.addObjectFile(*JD, std::move(Object)))
    return Fail(std::move(E));

  StringMap<KernelEntry> Kernels;
  for (const loader::KernelInfo &Info : Image.Kernels) {
    KernelEntry &K = Kernels[Info.Name];
    if (Data->ThreadEntries.contains(Info.Name)) {
      Expected<orc::ExecutorAddr> Addr =
          J.lookup(*JD, ThreadEntryPrefix + Info.Name);
      if (!Addr)
        return Fail(makeJitError(
            JitErrorKind::Unsupported,
            "Kernel " + Info.Name +
                " could not be linked: " + toString(Addr.takeError())));
      K.Entry = Addr->toPtr<CucpuThreadEntry>();
    }
    K.StaticShared = Data->KernelShared.lookup(Info.Name);
    auto Frame = Data->KernelFrame.find(Info.Name);
    if (Frame != Data->KernelFrame.end()) {
      Expected<orc::ExecutorAddr> Block =
          J.lookup(*JD, BlockPrefix + Info.Name);
      if (!Block)
        return Fail(makeJitError(
            JitErrorKind::Internal,
            "The block function of kernel " + Info.Name +
                " could not be linked: " + toString(Block.takeError())));
      K.Block = Block->toPtr<CucpuBlockEntry>();
      K.FrameBytes = Frame->second;
    }
  }
  StringMap<GlobalEntry> Globals;
  for (const auto &G : Data->GlobalSizes) {
    Expected<orc::ExecutorAddr> Addr = J.lookup(*JD, G.first());
    if (!Addr)
      return Fail(makeJitError(
          JitErrorKind::Internal,
          "Variable " + G.first() +
              " could not be linked: " + toString(Addr.takeError())));
    Globals[G.first()] = {Addr->toPtr<void *>(), G.second};
  }

  if (Options.InfoLog) {
    auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - Start)
                  .count();
    *Options.InfoLog += (Hit ? "cucpu: loaded the module from the compute "
                               "cache in "
                             : "cucpu: compiled the module in ") +
                        std::to_string(Ms) + " ms.\n";
  }
  return std::make_unique<LoadedModule>(std::move(Image), *JD,
                                        std::move(Kernels), std::move(Globals),
                                        std::move(Key), Options);
}
