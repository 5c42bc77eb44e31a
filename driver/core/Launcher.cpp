//===- Launcher.cpp - Validates and runs one kernel launch ----------------===//
#include "core/Launcher.h"

#include "core/Array.h"
#include "core/BlockRunner.h"
#include "core/Error.h"
#include "core/ExecutionEngine.h"
#include "core/FaultHandler.h"
#include "core/Module.h"

#include "cucpu/modules/Lowering.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace cucpu;

namespace {
const char DimNames[3] = {'x', 'y', 'z'};

/// How kernels run, from CUCPU_EXEC (docs/execution-model.md).
enum class ExecMode {
  Auto,        ///< Block functions, specialized for launches worth it.
  Specialized, ///< "specialized": always specialized (failures fail).
  Generic,     ///< "generic": block functions for any shape only.
  Fallback     ///< "fallback": the fiber engine for every kernel.
};

ExecMode execMode() {
  static const ExecMode Mode = [] {
    // The checker follows each thread's accesses on the fiber engine.
    if (BlockRunner::syncCheckEnabled())
      return ExecMode::Fallback;
    const char *V = std::getenv("CUCPU_EXEC");
    // Under a debugger each CUDA thread runs the kernel's own code, its
    // locals its own (docs/debugging.md).
    if (!V)
      return modules::debugKnob("gdb") ? ExecMode::Fallback : ExecMode::Auto;
    if (std::strcmp(V, "fallback") == 0)
      return ExecMode::Fallback;
    if (std::strcmp(V, "generic") == 0)
      return ExecMode::Generic;
    if (std::strcmp(V, "specialized") == 0)
      return ExecMode::Specialized;
    return ExecMode::Auto;
  }();
  return Mode;
}

/// Whether a launch pays for compiling a block function for its shape: a
/// large grid, or a kernel launched often.
bool worthSpecializing(uint64_t Threads, uint64_t EarlierLaunches) {
  constexpr uint64_t ManyThreads = 1 << 15;
  constexpr uint64_t ManyLaunches = 4;
  return Threads >= ManyThreads || EarlierLaunches >= ManyLaunches;
}

/// The block function for launch \p R of \p F: the one specialized for
/// R's block shape when \p Mode asks for it, else F's own.
llvm::Expected<CucpuBlockEntry> chooseBlockEntry(Function &F, Module &Mod,
                                                 const LaunchRequest &R,
                                                 ExecMode Mode) {
  uint64_t Threads = uint64_t(R.Grid[0]) * R.Grid[1] * R.Grid[2] * R.Block[0] *
                     R.Block[1] * R.Block[2];
  uint64_t Earlier = F.countLaunch();
  if (Mode == ExecMode::Generic ||
      (Mode == ExecMode::Auto && !worthSpecializing(Threads, Earlier)))
    return F.kernel().Block;
  llvm::Expected<CucpuBlockEntry> Entry =
      Mod.specializedBlock(F.name(), R.Block);
  if (!Entry) {
    if (Mode == ExecMode::Specialized)
      return Entry.takeError();
    std::string Message;
    (void)toResult(Entry.takeError(), Message);
    if (modules::debugKnob("exec"))
      llvm::errs() << "cucpu: kernel " << F.name()
                   << " runs its block function for any shape: " << Message
                   << "\n";
    return F.kernel().Block;
  }
  return *Entry ? *Entry : F.kernel().Block;
}

} // namespace

/// A validated launch: the configuration and what it points to. It waits in
/// its stream once, or runs at every launch of a graph.
struct cucpu::PreparedLaunch {
  LaunchConfig Config;
  llvm::SmallVector<char, 128> Params;
  std::vector<CucpuTexture> Textures;
  /// What Textures point into (arrays, mipmap levels), kept for the launch.
  std::vector<std::shared_ptr<const void>> TextureStorage;
  /// The launch's context. It, and the module with the kernel's code,
  /// outlive the launch: cuModuleUnload and context destruction wait for the
  /// context's queued work first. (Plain pointers: no reference counts
  /// bouncing between the issuing thread and the stream's worker.)
  Context *Ctx = nullptr;

  /// Runs the grid unless the context has already faulted; a failure makes
  /// the context sticky-faulted ("faults stay inside their context",
  /// ARCHITECTURE.md §6) and is returned, with its message in \p Message
  /// when given.
  CUresult run(std::string *Message = nullptr) {
    if (llvm::Error E = Ctx->checkHealthy()) {
      std::string Ignored;
      return toResult(std::move(E), Message ? *Message : Ignored);
    }
    std::string Output;
    llvm::Error E = ExecutionEngine::run(Config, Ctx->device().ordinal(),
                                         Ctx->device().workers(), Output);
    ExecutionEngine::queueOutput(Ctx->id(), std::move(Output));
    if (launchBlocking())
      ExecutionEngine::flushOutput(Ctx->id());
    if (!E)
      return CUDA_SUCCESS;
    std::string Text;
    CUresult Code = toResult(std::move(E), Text);
    Ctx->markFaulted(Code, Text);
    if (Message)
      *Message = std::move(Text);
    return Code;
  }
};

namespace {
/// Largest per-block frame a block function may use; beyond it the kernel
/// runs on the fiber engine, whose private memory lives on fiber stacks.
constexpr uint64_t MaxBlockFrameBytes = 256u << 20;
} // namespace

bool cucpu::fallbackForced() { return execMode() == ExecMode::Fallback; }

bool cucpu::launchBlocking() {
  static const bool Blocking = [] {
    const char *V = std::getenv("CUDA_LAUNCH_BLOCKING");
    return V && std::strcmp(V, "1") == 0;
  }();
  return Blocking;
}

llvm::Error cucpu::checkGrid(const std::array<unsigned, 3> &Grid) {
  for (int I = 0; I < 3; ++I) {
    CU_INVALID_IF(Grid[I] == 0, CUDA_ERROR_INVALID_VALUE,
                  "Grid dimension {0} is 0; it must be at least 1.",
                  DimNames[I]);
    CU_INVALID_IF(Grid[I] > MaxGridDim[I], CUDA_ERROR_INVALID_VALUE,
                  "Grid dimension {0} ({1}) exceeds the maximum ({2}).",
                  DimNames[I], Grid[I], MaxGridDim[I]);
  }
  return llvm::Error::success();
}

llvm::Error cucpu::checkBlock(const std::array<unsigned, 3> &Block) {
  for (int I = 0; I < 3; ++I) {
    CU_INVALID_IF(Block[I] == 0, CUDA_ERROR_INVALID_VALUE,
                  "Block dimension {0} is 0; it must be at least 1.",
                  DimNames[I]);
    CU_INVALID_IF(Block[I] > MaxBlockDim[I], CUDA_ERROR_INVALID_VALUE,
                  "Block dimension {0} ({1}) exceeds the maximum ({2}).",
                  DimNames[I], Block[I], MaxBlockDim[I]);
  }
  uint64_t Threads = uint64_t(Block[0]) * Block[1] * Block[2];
  CU_INVALID_IF(Threads > MaxThreadsPerBlock, CUDA_ERROR_INVALID_VALUE,
                "A block of {0}x{1}x{2} has {3} threads, more than the "
                "maximum ({4}).",
                Block[0], Block[1], Block[2], Threads, MaxThreadsPerBlock);
  return llvm::Error::success();
}

llvm::Expected<std::shared_ptr<PreparedLaunch>>
cucpu::prepareLaunch(Function &F, const std::shared_ptr<Context> &Current,
                     LaunchRequest R) {
  std::shared_ptr<Context> Ctx = F.context();
  CU_INVALID_IF(!Ctx || Ctx.get() != Current.get(), CUDA_ERROR_INVALID_HANDLE,
                "Kernel {0} belongs to a module of another context than the "
                "current one.",
                F.name());
  // Holding the module keeps the kernel's code alive during the launch.
  std::shared_ptr<Module> Mod = F.module();
  CU_INVALID_IF(!Mod, CUDA_ERROR_INVALID_HANDLE,
                "The module of kernel {0} has been unloaded.", F.name());
  CU_TRY(checkGrid(R.Grid));
  CU_TRY(checkBlock(R.Block));
  unsigned Threads = R.Block[0] * R.Block[1] * R.Block[2];
  // NVIDIA answers a block above the kernel's bound as any other invalid
  // block shape (observed on an H200 through the runtime:
  // tests/runtime Launch.LaunchAboveLaunchBoundsRejected).
  CU_INVALID_IF(Threads > F.maxThreadsPerBlock(), CUDA_ERROR_INVALID_VALUE,
                "A block of {0} threads exceeds the {1} that kernel {2} "
                "allows (__launch_bounds__).",
                Threads, F.maxThreadsPerBlock(), F.name());
  unsigned MaxDynamic = F.maxDynamicShared();
  CU_INVALID_IF(R.DynamicShared > MaxDynamic, CUDA_ERROR_INVALID_VALUE,
                "The dynamic shared memory size {0} exceeds the {1} bytes "
                "kernel {2} may use (see "
                "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES).",
                R.DynamicShared, MaxDynamic, F.name());

  LaunchConfig C;
  C.KernelName = F.name();
  C.Grid = R.Grid;
  C.Block = R.Block;
  ExecMode Mode = execMode();
  if (F.kernel().Block && Mode != ExecMode::Fallback &&
      uint64_t(F.kernel().FrameBytes) * Threads <= MaxBlockFrameBytes) {
    llvm::Expected<CucpuBlockEntry> Block = chooseBlockEntry(F, *Mod, R, Mode);
    if (!Block)
      return Block.takeError();
    C.BlockEntry = *Block;
    C.FrameBytes = F.kernel().FrameBytes;
  } else {
    llvm::Expected<CucpuThreadEntry> Entry = Mod->threadEntry(F.name());
    if (!Entry)
      return Entry.takeError();
    C.Entry = *Entry;
  }
  C.StaticShared = F.kernel().StaticShared;
  C.DynamicShared = R.DynamicShared;
  C.Cooperative = R.Cooperative;
  C.WatchdogMs = Ctx->watchdogMs();
  C.Heap = &Ctx->deviceHeap();
  // CU_LIMIT_STACK_SIZE is what a GPU thread gets; host code (printf's
  // formatting, the engine) runs on the same stack, so add generously.
  size_t Limit = 0;
  if (auto L = Ctx->limit(CU_LIMIT_STACK_SIZE))
    Limit = *L;
  else
    llvm::consumeError(L.takeError());
  C.StackBytes = MinFiberStack + llvm::alignTo(Limit, 4096) * 4;

  // The launch owns copies of what it reads when it runs: the parameters and
  // the module's texture references as they are now (the arrays those read
  // stay alive until it has run).
  auto Work = std::make_shared<PreparedLaunch>();
  Work->Params = std::move(R.Params);
  Work->Params.resize(
      std::max<size_t>({Work->Params.size(), F.paramBytes(), 16}), 0);
  Work->Textures = Mod->textureTable(Work->TextureStorage);
  C.Params = Work->Params.data();
  C.TexRefs = Work->Textures.data();
  Work->Config = std::move(C);
  Work->Ctx = Ctx.get();
  installFaultHandlers();
  return Work;
}

void cucpu::runPrepared(PreparedLaunch &L) { L.run(); }

llvm::Error cucpu::launchFunction(Function &F,
                                  const std::shared_ptr<Context> &Current,
                                  WorkQueue &Queue, LaunchRequest R) {
  CU_TRY_ASSIGN(std::shared_ptr<PreparedLaunch> Work,
                prepareLaunch(F, Current, std::move(R)));
  if (!launchBlocking()) {
    Queue.enqueue([Work = std::move(Work)] { Work->run(); });
    return llvm::Error::success();
  }
  CUresult Code = CUDA_SUCCESS;
  std::string Message;
  CU_TRY(Queue.runInOrder([&] { Code = Work->run(&Message); }));
  if (Code == CUDA_SUCCESS)
    return llvm::Error::success();
  return makeError(Code, Message);
}
