//===- JitSession.cpp - The process-wide ORC JIT --------------------------===//
#include "cucpu/modules/JitSession.h"

#include "cucpu/modules/CodeRanges.h"
#include "cucpu/modules/JitError.h"
#include "cucpu/modules/Lowering.h"
#include "cucpu/modules/PerfMap.h"
#include "cucpu/modules/runtime/RuntimeLibrary.h"

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/DebugObjectManagerPlugin.h"
#include "llvm/ExecutionEngine/Orc/EPCDebugObjectRegistrar.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/JITLoaderGDB.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/SubtargetFeature.h"

#include <atomic>
#include <mutex>

using namespace llvm;
using namespace llvm::orc;
using namespace cucpu::modules;

static SymbolMap toSymbolMap(ExecutionSession &ES,
                             const StringMap<void *> &Symbols) {
  SymbolMap Map;
  for (const auto &S : Symbols)
    Map[ES.intern(S.first())] = {ExecutorAddr::fromPtr(S.second),
                                 JITSymbolFlags::Exported |
                                     JITSymbolFlags::Callable};
  return Map;
}

/// CUCPU_DEBUG=gdb: every linked object is registered with gdb's JIT
/// interface (__jit_debug_register_code), its sections patched to their
/// load addresses, so gdb reads the kernels' debug information
/// (docs/debugging.md). The registration function is passed by address: the
/// process's symbols need not be visible to a lookup.
static void announceToDebuggers(ExecutionSession &ES,
                                ObjectLinkingLayer &Linker) {
  auto Registrar = std::make_unique<EPCDebugObjectRegistrar>(
      ES, ExecutorAddr::fromPtr(&llvm_orc_registerJITLoaderGDBWrapper));
  Linker.addPlugin(std::make_unique<DebugObjectManagerPlugin>(
      ES, std::move(Registrar), /*RequireDebugSections=*/false,
      /*AutoRegisterCode=*/true));
}

/// CUCPU_LLVM_OPTIONS: options for LLVM's passes and code generator, as
/// opt and llc take them (-vectorize-loops=false, -print-after=...), to
/// narrow down a problem in the generated code (docs/debugging.md). They
/// apply to the whole process's LLVM.
static void parseLlvmOptions() {
  const char *Options = std::getenv("CUCPU_LLVM_OPTIONS");
  if (!Options || !*Options)
    return;
  SmallVector<const char *, 8> Argv{"cucpu"};
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  cl::TokenizeGNUCommandLine(Options, Saver, Argv);
  cl::ParseCommandLineOptions(static_cast<int>(Argv.size()), Argv.data(),
                              "CUCPU_LLVM_OPTIONS", &errs());
}

/// The host's CPU features, for the code kernels compile to, less gathers:
/// where the loop vectorizer may use them (Intel's AVX2 and AVX-512 CPUs,
/// AMD's with AVX-512), it vectorized thread loops of block functions into
/// code that read wrong addresses (docs/reliability.md, generated kernels
/// on an AVX-512 Xeon). cucpu-invariant-divisions removes the cause found;
/// this stays as a guard. Then CUCPU_HOST_FEATURES: features added (+name) or
/// taken away (-name), comma-separated (-avx512f compiles for AVX2 on an
/// AVX-512 machine), to tell a problem of one instruction set from others
/// (docs/debugging.md).
static void adjustHostFeatures(SubtargetFeatures &Features) {
  Features.AddFeature("+prefer-no-gather");
  const char *Adjust = std::getenv("CUCPU_HOST_FEATURES");
  if (!Adjust)
    return;
  SmallVector<StringRef, 8> Items;
  StringRef(Adjust).split(Items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef Item : Items)
    Features.AddFeature(Item.trim());
}

Expected<JitSession &> JitSession::get() {
  static std::once_flag Once;
  static JitSession *Session = nullptr;
  static std::string Failure;
  std::call_once(Once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    parseLlvmOptions();
    auto Builder = JITTargetMachineBuilder::detectHost();
    if (!Builder) {
      Failure = toString(Builder.takeError());
      return;
    }
    adjustHostFeatures(Builder->getFeatures());
    // Kernels define no static constructors and need no platform runtime.
    auto J = LLJITBuilder()
                 .setJITTargetMachineBuilder(*Builder)
                 .setPlatformSetUp(setUpInactivePlatform)
                 .setLinkProcessSymbolsByDefault(false)
                 .create();
    if (!J) {
      Failure = toString(J.takeError());
      return;
    }
    // Faults in kernel code are told from others by where they happen.
    if (auto *Linker =
            dyn_cast<ObjectLinkingLayer>(&(*J)->getObjLinkingLayer())) {
      trackCodeRanges(*Linker);
      if (perfMapRequested())
        writePerfMap(*Linker);
      if (debugKnob("gdb"))
        announceToDebuggers((*J)->getExecutionSession(), *Linker);
    }
    ExecutionSession &ES = (*J)->getExecutionSession();
    JITDylib &Runtime = ES.createBareJITDylib("cucpu.runtime");
    if (Error E = Runtime.define(
            absoluteSymbols(toSymbolMap(ES, runtimeLibrary())))) {
      Failure = toString(std::move(E));
      return;
    }
    // Never destroyed: see the header.
    Session = new JitSession(std::move(*J), std::move(*Builder), Runtime);
  });
  if (!Session)
    return makeJitError(JitErrorKind::Internal,
                        "The JIT could not be created: " + Failure);
  return *Session;
}

Expected<JITDylib &>
JitSession::createModuleDylib(const StringMap<void *> &Extra) {
  static std::atomic<uint64_t> Counter{0};
  ExecutionSession &ES = J->getExecutionSession();
  JITDylib &JD =
      ES.createBareJITDylib("cucpu.module." + std::to_string(++Counter));
  if (!Extra.empty())
    if (Error E = JD.define(absoluteSymbols(toSymbolMap(ES, Extra)))) {
      consumeError(ES.removeJITDylib(JD));
      return E;
    }
  JD.addToLinkOrder(Runtime);
  return JD;
}

Error JitSession::removeModuleDylib(JITDylib &JD) {
  return J->getExecutionSession().removeJITDylib(JD);
}
