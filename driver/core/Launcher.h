//===- Launcher.h - Validates and runs one kernel launch --------*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_LAUNCHER_H
#define CUCPU_DRIVER_CORE_LAUNCHER_H

#include "core/Context.h"
#include "core/Function.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <array>
#include <memory>
#include <vector>

namespace cucpu {

/// What an entry point asks to launch.
struct LaunchRequest {
  std::array<unsigned, 3> Grid = {1, 1, 1};
  std::array<unsigned, 3> Block = {1, 1, 1};
  unsigned DynamicShared = 0;
  /// cuLaunchCooperativeKernel: the grid may synchronize (grid_group).
  bool Cooperative = false;
  /// The kernel's parameter buffer (inline up to a typical size).
  llvm::SmallVector<char, 128> Params;
};

/// Checks \p R against the limits NVIDIA enforces (grid and block
/// dimensions, threads per block, launch bounds, shared memory), then queues
/// \p F's grid in \p Queue; \p Current must be F's context. A kernel that
/// fails makes the context sticky-faulted, reported by the next call, as on
/// NVIDIA; with CUDA_LAUNCH_BLOCKING=1 the launch completes before returning
/// and returns the error. Device printf output waits for the next
/// synchronization.
llvm::Error launchFunction(Function &F, const std::shared_ptr<Context> &Current,
                           WorkQueue &Queue, LaunchRequest R);

/// A launch checked and made ready to run: the kernel's entry, a copy of
/// its parameters and of the module's texture references.
struct PreparedLaunch;

/// Checks \p R as launchFunction() does and prepares it without queueing
/// it. It may run any number of times (a graph's kernel node); the caller
/// keeps F's module and context alive meanwhile.
llvm::Expected<std::shared_ptr<PreparedLaunch>>
prepareLaunch(Function &F, const std::shared_ptr<Context> &Current,
              LaunchRequest R);

/// Runs \p L on the calling thread; a failure sticky-faults its context, as
/// a queued launch's does.
void runPrepared(PreparedLaunch &L);

/// CUDA_LAUNCH_BLOCKING=1: every launch and copy completes before its call
/// returns, and a failed launch returns its error.
bool launchBlocking();

/// Whether CUCPU_EXEC=fallback runs every kernel on the fiber engine.
bool fallbackForced();

/// Checks grid dimensions (CUDA_ERROR_INVALID_VALUE with a message).
llvm::Error checkGrid(const std::array<unsigned, 3> &Grid);
/// Checks block dimensions and the thread count.
llvm::Error checkBlock(const std::array<unsigned, 3> &Block);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_LAUNCHER_H
