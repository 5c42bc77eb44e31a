//===- KernelAccess.h - Runtime code that touches memory a kernel names ---===//
//
// The runtime functions that read or write memory at addresses a kernel
// chose run on the kernel's behalf: the memcpy, memmove and memset calls of
// JIT-compiled code, and the reads of texture descriptions and texels. They
// lie in one section of their own, and a fault there ends the kernel's block
// as a fault in JIT-compiled code does (driver/core/FaultHandler.cpp). They
// hold no lock and allocate nothing, so abandoning one mid-way is safe; like
// JIT-compiled code, they are not instrumented by AddressSanitizer.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_RUNTIME_KERNELACCESS_H
#define CUCPU_MODULES_RUNTIME_KERNELACCESS_H

#include <cstddef>
#include <cstdint>

/// Places a function among the kernel-access code.
#define CUCPU_KERNEL_ACCESS                                                    \
  __attribute__((noinline, section("cucpu_kernel_access"), no_sanitize_address))

namespace cucpu::modules {

/// Whether \p Pc lies in kernel-access code. Async-signal-safe.
bool isKernelAccessCode(uintptr_t Pc);

/// memcpy, memmove and memset as kernel code calls them.
void *kernelMemcpy(void *Dst, const void *Src, size_t Bytes);
void *kernelMemmove(void *Dst, const void *Src, size_t Bytes);
void *kernelMemset(void *Dst, int Value, size_t Bytes);

/// Ends the block of the kernel running on this thread: the launch fails
/// with the CUresult \p Code and \p Message. Installed by the execution
/// engine; does not return.
using KernelFailure = void (*)(int Code, const char *Message);
void setKernelFailure(KernelFailure Fail);
[[noreturn]] void failKernel(int Code, const char *Message);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_RUNTIME_KERNELACCESS_H
