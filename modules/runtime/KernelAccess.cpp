//===- KernelAccess.cpp - Runtime code that touches memory a kernel names -===//
#include "cucpu/modules/runtime/KernelAccess.h"

#include <atomic>
#include <cstdlib>

// The linker defines these for a section whose name is a C identifier.
extern "C" const char __start_cucpu_kernel_access[];
extern "C" const char __stop_cucpu_kernel_access[];

namespace {
std::atomic<cucpu::modules::KernelFailure> Failure{nullptr};
} // namespace

bool cucpu::modules::isKernelAccessCode(uintptr_t Pc) {
  return Pc >= uintptr_t(__start_cucpu_kernel_access) &&
         Pc < uintptr_t(__stop_cucpu_kernel_access);
}

// The string instructions keep every access inside these functions (a
// library memcpy would fault outside the section).
CUCPU_KERNEL_ACCESS void *
cucpu::modules::kernelMemcpy(void *Dst, const void *Src, size_t Bytes) {
  void *D = Dst;
  asm volatile("rep movsb" : "+D"(D), "+S"(Src), "+c"(Bytes) : : "memory");
  return Dst;
}

CUCPU_KERNEL_ACCESS void *
cucpu::modules::kernelMemmove(void *Dst, const void *Src, size_t Bytes) {
  if (uintptr_t(Dst) - uintptr_t(Src) >= Bytes) // No overlap to spoil.
    return kernelMemcpy(Dst, Src, Bytes);
  // Backwards from the last byte. The fault handler clears the direction
  // flag of a block it ends here.
  char *D = static_cast<char *>(Dst) + Bytes - 1;
  const char *S = static_cast<const char *>(Src) + Bytes - 1;
  asm volatile("std\n\trep movsb\n\tcld"
               : "+D"(D), "+S"(S), "+c"(Bytes)
               :
               : "memory");
  return Dst;
}

CUCPU_KERNEL_ACCESS void *cucpu::modules::kernelMemset(void *Dst, int Value,
                                                       size_t Bytes) {
  void *D = Dst;
  asm volatile("rep stosb" : "+D"(D), "+c"(Bytes) : "a"(Value) : "memory");
  return Dst;
}

void cucpu::modules::setKernelFailure(KernelFailure Fail) {
  Failure.store(Fail, std::memory_order_release);
}

void cucpu::modules::failKernel(int Code, const char *Message) {
  if (KernelFailure Fail = Failure.load(std::memory_order_acquire))
    Fail(Code, Message);
  std::abort(); // Only kernel code calls this, and only once it is installed.
}
