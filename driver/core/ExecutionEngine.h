//===- ExecutionEngine.h - Runs kernels on the CPU's cores ------*- C++ -*-===//
//
// The always-correct way to run a kernel (ARCHITECTURE.md §5): blocks are
// handed out to a device's persistent workers by an atomic counter, and
// inside a block every CUDA thread is a fiber (Fiber.h), started lazily: one
// fiber runs thread after thread until one of them waits (a barrier, a warp
// operation, a yield); only then does another fiber take the next thread. A
// kernel without barriers thus runs its threads one after the other on one
// stack, and a kernel with barriers gets one fiber per thread.
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
