//===- FaultHandler.h - Faults in kernel code fail the launch ---*- C++ -*-===//
//
// "Faults stay inside their context" (ARCHITECTURE.md §6): a segmentation
// fault, bus error, arithmetic exception or illegal instruction raised by
// JIT-compiled kernel code on a thread that is running blocks ends that
// block as a trap would, and the launch fails (CUDA_ERROR_ILLEGAL_ADDRESS,
// CUDA_ERROR_LAUNCH_FAILED or CUDA_ERROR_ILLEGAL_INSTRUCTION), sticky for
// its context. Every other fault goes to the handler that was installed
// before, or, if there was none, ends the process as it would have. The
// watchdog (CUCPU_WATCHDOG_MS) interrupts kernel code the same way, with
// CUDA_ERROR_LAUNCH_TIMEOUT (a kernel that spends its time in the fiber
// engine or in memcheck is stopped there: both poll BlockRunner::TimedOut).
// A kernel that overflows its stack (a fiber's, or the thread's under a
// block function) fails its launch with CUDA_ERROR_LAUNCH_FAILED, NVIDIA's
// "unspecified launch failure": the handler runs on an alternate signal
// stack and the block is ended from a stack of its own
// (prepareFaultStacks()).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_FAULTHANDLER_H
#define CUCPU_DRIVER_CORE_FAULTHANDLER_H

#include <cstddef>

namespace cucpu {

/// Installs the handlers, once per process (the first launch does it).
void installFaultHandlers();

/// Prepares this thread for faults in the kernels it runs: an alternate
/// signal stack (unless the thread has one) and a stack to end a faulted
/// block from, both freed when the thread ends; records where the thread's
/// own stack ends. Runs once per thread; call before it runs blocks.
void prepareFaultStacks();

/// The signal the watchdog sends to workers whose launch ran out of time
/// (a real-time signal); its handler is installed with the first watchdog.
int watchdogSignal();
/// Installs the watchdog signal's handler, once per process.
void installWatchdogHandler();

/// Bytes left below the caller's frame on the stack the running kernel uses
/// (its fiber's, else the thread's); SIZE_MAX when that is not known.
size_t kernelStackLeft();

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_FAULTHANDLER_H
