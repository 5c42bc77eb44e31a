//===- Memcheck.cpp - Checked kernel memory accesses (CUCPU_MEMCHECK) -----===//
//
// With CUCPU_MEMCHECK=1 the JIT calls __cucpu_memcheck before every kernel
// access to memory that is not the thread's own (modules/passes/
// MemcheckPass.h). An access is valid when it lies entirely in one of:
//  - the block's shared memory, as large as this launch makes it (static
//    part, then the dynamic part at DynamicSharedOffset);
//  - the thread's private memory: the block function's frame, the fiber's
//    stack, or the OS thread's stack;
//  - one allocation of any live context (device, managed, page-locked,
//    registered memory, module variables);
//  - one live allocation of the launch's device heap (device malloc).
// Otherwise the access is reported in compute-sanitizer's spirit and the
// launch fails with CUDA_ERROR_ILLEGAL_ADDRESS.
//
//===----------------------------------------------------------------------===//
#include "core/AddressSanitizer.h"
#include "core/AddressSpace.h"
#include "core/BlockRunner.h"
#include "core/DeviceHeap.h"
#include "core/FaultHandler.h"

#include <cinttypes>
#include <cstdio>

#include <pthread.h>

using namespace cucpu;

namespace {
/// Stack a memcheck report needs (formatting, stderr); more under
/// AddressSanitizer, whose frames are larger.
#ifdef CUCPU_ASAN
constexpr size_t ReportStackBytes = 48 * 1024;
#else
constexpr size_t ReportStackBytes = 16 * 1024;
#endif
/// Whether [Address, Address + Size) lies inside [Base, Base + Bytes).
bool within(uintptr_t Address, uint64_t Size, const void *Base, size_t Bytes) {
  uintptr_t B = reinterpret_cast<uintptr_t>(Base);
  return Address >= B && Size <= Bytes && Address - B <= Bytes - Size;
}

/// The calling OS thread's stack (found once per thread).
struct ThreadStack {
  void *Base = nullptr;
  size_t Bytes = 0;
  ThreadStack() {
    pthread_attr_t Attr;
    if (pthread_getattr_np(pthread_self(), &Attr) != 0)
      return;
    pthread_attr_getstack(&Attr, &Base, &Bytes);
    pthread_attr_destroy(&Attr);
  }
};

/// This thread's stack, found the first time (BlockRunner::prepare asks
/// early: finding it takes stack a kernel may have used up).
const ThreadStack &threadStack() {
  static thread_local ThreadStack Stack;
  return Stack;
}

const char *kindName(int32_t Kind) {
  return Kind == 0 ? "read" : Kind == 1 ? "write" : "atomic";
}
} // namespace

void BlockRunner::prepareMemcheck() { (void)threadStack(); }

void BlockRunner::checkAccess(CucpuThread *T, uintptr_t Address, uint64_t Size,
                              int32_t Kind) {
  // A kernel spinning on memory spends its time here, where the watchdog's
  // signal does not end it.
  if (TimedOut.load(std::memory_order_relaxed))
    abort(T, CUDA_ERROR_LAUNCH_TIMEOUT, TimedOutMessage, "");
  if (Size == 0)
    return;
  // Shared memory: this launch's part of the block's buffer. The compiler
  // marks accesses through the block's shared memory (SharedFlag).
  constexpr int32_t SharedFlag = 4;
  bool InShared =
      (Kind & SharedFlag) || within(Address, 1, Shared, SharedBytes);
  Kind &= ~SharedFlag;
  if (InShared &&
      within(Address, Size, Shared,
             size_t(Block.DynamicSharedOffset) + Config->DynamicShared)) {
    if (syncCheckEnabled() && Kind != 2) // Atomics do not race.
      checkSharedOrder(T, Address - reinterpret_cast<uintptr_t>(Shared), Size,
                       Kind != 0);
    return;
  }
  if (!InShared) {
    if (Frame && within(Address, Size, Frame, FrameBytes))
      return;
    if (auto *F = static_cast<EngineFiber *>(T->EngineThread);
        F && fiberOwns(*F, reinterpret_cast<const void *>(Address)))
      return;
    const ThreadStack &Stack = threadStack();
    if (within(Address, Size, Stack.Base, Stack.Bytes))
      return;
  }
  // Looking allocations up and formatting a report take stack that a kernel
  // in deep recursion may have used up: then its overflow is what gets
  // reported.
  if (kernelStackLeft() < ReportStackBytes)
    abort(T, CUDA_ERROR_LAUNCH_FAILED,
          "The kernel overflowed its call stack (deep recursion or large "
          "local arrays; cuCtxSetLimit(CU_LIMIT_STACK_SIZE) sets the stack "
          "of a CUDA thread).",
          "");
  if (!InShared) {
    if (std::optional<OwnedAllocation> A = findAllocation(Address);
        A && A->Range.containsRange(Address, Size))
      return;
    if (Config->Heap && Config->Heap->contains(Address, Size))
      return;
  }
  // Plain strings only: the block is abandoned below.
  static thread_local char Report[512];
  const CucpuBlock &B = *T->Block;
  std::snprintf(Report, sizeof(Report),
                "invalid %s %s of size %" PRIu64 " at 0x%" PRIxPTR
                " by thread (%u,%u,%u) in block (%u,%u,%u) of kernel \"%.*s\"",
                InShared ? "shared" : "global", kindName(Kind), Size, Address,
                T->ThreadIdx[0], T->ThreadIdx[1], T->ThreadIdx[2],
                B.BlockIdx[0], B.BlockIdx[1], B.BlockIdx[2],
                int(Config->KernelName.size()), Config->KernelName.data());
  std::fprintf(stderr, "cucpu memcheck: %s\n", Report);
  std::fflush(stderr);
  abort(T, CUDA_ERROR_ILLEGAL_ADDRESS, "CUCPU_MEMCHECK: ", Report);
}
