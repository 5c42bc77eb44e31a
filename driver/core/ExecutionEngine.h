//===- ExecutionEngine.h - Runs kernels on the CPU's cores ------*- C++ -*-===//
//
// Runs a launch (docs/execution-model.md): the grid's blocks are dealt to a
// device's persistent workers through an atomic counter, and each worker
// runs whole blocks. A kernel with a block function (modules/, JitAbi.h's
// CucpuBlockEntry) runs a block in one call, its threads as loops between
// barriers. The others run on the fiber engine (BlockRunner.h), where each
// CUDA thread is a fiber started lazily: one fiber runs thread after thread
// until one waits (a barrier, a warp operation, a yield); only then does
// another fiber take the next thread.
//
// The __cucpu_* services of JitAbi.h are implemented here.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_EXECUTIONENGINE_H
#define CUCPU_DRIVER_CORE_EXECUTIONENGINE_H

#include "core/LaunchConfig.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace cucpu {

/// Runs launches and keeps the output of device printf until the next
/// synchronization.
class ExecutionEngine {
public:
  /// Runs every block of \p Config on \p Workers workers (the pool of device
  /// \p DeviceOrdinal) and returns when all have finished. Device printf
  /// output is appended to \p Output, block after block. A kernel that fails
  /// (trap, failed assert, deadlock) gives CUDA_ERROR_LAUNCH_FAILED or
  /// CUDA_ERROR_ASSERT with a message; its other blocks stop being started.
  static llvm::Error run(const LaunchConfig &Config, int DeviceOrdinal,
                         unsigned Workers, std::string &Output);

  /// The addresses of the __cucpu_* services of JitAbi.h, by name, as
  /// modules::JitOptions::RuntimeSymbols wants them.
  static llvm::StringMap<void *> runtimeSymbols();

  /// Keeps \p Text, device output of a launch in context \p ContextId, until
  /// flushOutput(ContextId) writes it.
  static void queueOutput(uint64_t ContextId, std::string Text);
  /// Writes the device output queued for context \p ContextId to stdout, in
  /// launch order (what NVIDIA does at a synchronization).
  static void flushOutput(uint64_t ContextId);
  /// Writes the device output of every context (process exit).
  static void flushAllOutput();
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_EXECUTIONENGINE_H
