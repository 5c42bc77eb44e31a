//===- LoadedModule.cpp - A module image compiled into the JIT ------------===//
#include "cucpu/modules/LoadedModule.h"

#include "cucpu/modules/Compiler.h"
#include "cucpu/modules/ComputeCache.h"
#include "cucpu/modules/JitError.h"
#include "cucpu/modules/JitSession.h"
#include "cucpu/modules/JitStats.h"
#include "cucpu/modules/Lowering.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

using namespace llvm;
using namespace cucpu::modules;

namespace {
std::atomic<uint64_t> Specializations{0};
std::atomic<uint64_t> LateThreadEntries{0};
} // namespace

uint64_t cucpu::modules::specializedBlockCount() { return Specializations; }
uint64_t cucpu::modules::lateThreadEntryCount() { return LateThreadEntries; }

LoadedModule::LoadedModule(loader::ModuleImage TheImage, orc::JITDylib &Dylib,
                           StringMap<KernelEntry> TheKernels,
                           StringMap<GlobalEntry> TheGlobals,
                           std::string TheKey, JitOptions TheOptions)
    : Image(std::move(TheImage)), Dylib(Dylib), Kernels(std::move(TheKernels)),
      Globals(std::move(TheGlobals)), Key(std::move(TheKey)),
      Options(std::move(TheOptions)) {
  Options.InfoLog = nullptr; // The loader's, valid during the load only.
  // KernelEntry::Info points into our own copy of the image.
  for (auto &K : Kernels)
    for (const loader::KernelInfo &Info : Image.Kernels)
      if (Info.Name == K.first())
        K.second.Info = &Info;
}

LoadedModule::~LoadedModule() {
  Lowered.reset();
  Expected<JitSession &> Session = JitSession::get();
  if (!Session) {
    consumeError(Session.takeError());
    return;
  }
  // A destructor cannot fail; a failure here leaks the code, nothing else.
  if (Error E = Session->removeModuleDylib(Dylib))
    logAllUnhandledErrors(std::move(E), errs(), "cucpu: unloading a module: ");
}

Expected<KernelEntry> LoadedModule::kernel(StringRef Name) const {
  auto It = Kernels.find(Name);
  if (It == Kernels.end())
    return makeJitError(JitErrorKind::NotFound,
                        "The module has no kernel named " + Name + ".");
  return It->second;
}

Expected<GlobalEntry> LoadedModule::global(StringRef Name) const {
  auto It = Globals.find(Name);
  if (It == Globals.end())
    return makeJitError(JitErrorKind::NotFound,
                        "The module has no __device__ or __constant__ "
                        "variable named " +
                            Name + ".");
  return It->second;
}

std::string LoadedModule::dylibName() const { return Dylib.getName(); }

Expected<CucpuBlockEntry>
LoadedModule::specializedBlock(StringRef Name, const BlockShape &Shape) {
  std::lock_guard<std::mutex> Lock(CompileMutex);
  auto [It, New] = Specialized.try_emplace({Name.str(), Shape}, nullptr);
  if (!New)
    return It->second; // Null: it failed before (and said why then).
  auto K = Kernels.find(Name);
  if (K == Kernels.end() || !K->second.Block)
    return makeJitError(JitErrorKind::NotFound,
                        "Kernel " + Name + " has no block function.");
  bool Compiled = false;
  Expected<void *> Addr = compileLate(
      specializedBlockName(Name, Shape),
      [&](const Module &IR) {
        return specializeBlockFunction(IR, Name, Shape);
      },
      Compiled);
  if (!Addr)
    return Addr.takeError();
  It->second = reinterpret_cast<CucpuBlockEntry>(*Addr);
  if (Compiled)
    ++Specializations;
  return It->second;
}

Expected<CucpuThreadEntry> LoadedModule::threadEntry(StringRef Name) {
  auto K = Kernels.find(Name);
  if (K == Kernels.end())
    return makeJitError(JitErrorKind::NotFound,
                        "The module has no kernel named " + Name + ".");
  if (K->second.Entry)
    return K->second.Entry;
  std::lock_guard<std::mutex> Lock(CompileMutex);
  if (auto It = LateEntries.find(Name); It != LateEntries.end())
    return It->second;
  bool Compiled = false;
  Expected<void *> Addr = compileLate(
      ThreadEntryPrefix + Name.str(),
      [&](const Module &IR) { return extractThreadEntry(IR, Name); }, Compiled);
  if (!Addr)
    return Addr.takeError();
  if (Compiled)
    ++LateThreadEntries;
  return LateEntries[Name] = reinterpret_cast<CucpuThreadEntry>(*Addr);
}

Expected<void *> LoadedModule::compileLate(StringRef Symbol,
                                           LateExtract Extract,
                                           bool &Compiled) {
  Expected<JitSession &> Session = JitSession::get();
  if (!Session)
    return Session.takeError();
  SHA256 Hash;
  Hash.update(Key + " " + Symbol.str());
  std::string ObjectKey = toHex(Hash.final(), /*LowerCase=*/true);
  ComputeCache Cache = computeCache(Options);
  std::unique_ptr<MemoryBuffer> Object;
  if (Options.CacheEnabled)
    if (std::optional<CacheEntry> Entry = Cache.lookup(ObjectKey))
      Object = std::move(Entry->Object);
  Compiled = !Object;
  if (!Object) {
    Expected<std::unique_ptr<MemoryBuffer>> Fresh =
        lateObject(Extract, *Session);
    if (!Fresh)
      return Fresh.takeError();
    Object = std::move(*Fresh);
    if (Options.CacheEnabled)
      Cache.store(ObjectKey, "", Object->getMemBufferRef());
  }
  orc::LLJIT &J = Session->jit();
  if (Error E = J.addObjectFile(Dylib, std::move(Object)))
    return E;
  Expected<orc::ExecutorAddr> Addr = J.lookup(Dylib, Symbol);
  if (!Addr)
    return Addr.takeError();
  return Addr->toPtr<void *>();
}

Expected<std::unique_ptr<MemoryBuffer>>
LoadedModule::lateObject(LateExtract Extract, JitSession &Session) {
  if (!Lowered) {
    Expected<std::unique_ptr<LoweredModule>> L =
        lowerImage(Image, Options, Session, Key);
    if (!L)
      return L.takeError();
    Lowered = std::move(*L);
  }
  auto Lock = Lowered->Context.getLock();
  Expected<std::unique_ptr<Module>> M = Extract(*Lowered->IR);
  if (!M)
    return M.takeError();
  if (debugKnob("dump-ir"))
    errs() << "*** cucpu: IR of " << (*M)->getModuleIdentifier() << " ***\n"
           << **M;
  return emitObject(**M, *Lowered, Options);
}
