//===- Fiber.cpp - User-space threads for CUDA threads --------------------===//
#include "core/Fiber.h"

#include "core/AddressSanitizer.h"
#include "core/Error.h"

#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

using namespace cucpu;

// The switch saves exactly what the platform's C calling convention says a
// callee must preserve, plus the floating-point control state (rounding mode,
// denormal flags), pushes it on the running stack, stores the stack pointer
// and loads the other one. A new fiber's stack is prepared so that the first
// switch to it "returns" into a start routine that calls its body.
extern "C" {
/// Saves the running context's stack pointer in *Save and resumes NewSp.
void cucpu_fiber_switch(void **Save, void *NewSp);
/// First code a fiber runs: calls Body(Arg) from the prepared registers.
void cucpu_fiber_start();
}

#if defined(__x86_64__)
// System V AMD64: rbx, rbp, r12-r15 are callee-saved; MXCSR's control bits
// and the x87 control word too. Frame (low to high): mxcsr+fpucw (8 bytes),
// r15, r14, r13, r12, rbx, rbp, return address.
asm(R"(
  .text
  .globl cucpu_fiber_switch
  .hidden cucpu_fiber_switch
  .type cucpu_fiber_switch,@function
  .p2align 4
cucpu_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size cucpu_fiber_switch, .-cucpu_fiber_switch

  .globl cucpu_fiber_start
  .hidden cucpu_fiber_start
  .type cucpu_fiber_start,@function
  .p2align 4
cucpu_fiber_start:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size cucpu_fiber_start, .-cucpu_fiber_start
)");

namespace {
/// Bytes of the frame cucpu_fiber_switch keeps on a suspended stack.
constexpr size_t FrameBytes = 80;

/// Writes the first frame of a fiber below \p Top (16-byte aligned) so that
/// switching to the returned stack pointer calls Entry(Arg).
void *prepareStack(char *Top, void (*Entry)(void *), void *Arg) {
  auto *Slots = reinterpret_cast<uint64_t *>(Top - FrameBytes);
  std::memset(Slots, 0, FrameBytes);
  uint32_t Mxcsr;
  uint16_t FpuCw;
  asm volatile("stmxcsr %0" : "=m"(Mxcsr));
  asm volatile("fnstcw %0" : "=m"(FpuCw));
  std::memcpy(&Slots[0], &Mxcsr, 4);
  std::memcpy(reinterpret_cast<char *>(&Slots[0]) + 4, &FpuCw, 2);
  Slots[3] = reinterpret_cast<uint64_t>(Entry); // r13
  Slots[4] = reinterpret_cast<uint64_t>(Arg);   // r12
  // Slots[5], [6]: rbx, rbp = 0. The return address sits 24 bytes below the
  // top, so cucpu_fiber_start runs with a 16-byte aligned stack pointer.
  Slots[7] = reinterpret_cast<uint64_t>(&cucpu_fiber_start);
  return Slots;
}
} // namespace

#elif defined(__aarch64__)
// AAPCS64: x19-x28, x29 (frame pointer), x30 (link register) and the low
// halves of v8-v15 are callee-saved; FPCR holds the rounding mode. Frame
// (176 bytes): x19..x30, d8..d15, fpcr.
asm(R"(
  .text
  .globl cucpu_fiber_switch
  .hidden cucpu_fiber_switch
  .type cucpu_fiber_switch,%function
  .p2align 4
cucpu_fiber_switch:
  sub sp, sp, #176
  stp x19, x20, [sp, #0]
  stp x21, x22, [sp, #16]
  stp x23, x24, [sp, #32]
  stp x25, x26, [sp, #48]
  stp x27, x28, [sp, #64]
  stp x29, x30, [sp, #80]
  stp d8, d9, [sp, #96]
  stp d10, d11, [sp, #112]
  stp d12, d13, [sp, #128]
  stp d14, d15, [sp, #144]
  mrs x9, fpcr
  str x9, [sp, #160]
  mov x9, sp
  str x9, [x0]
  mov sp, x1
  ldp x19, x20, [sp, #0]
  ldp x21, x22, [sp, #16]
  ldp x23, x24, [sp, #32]
  ldp x25, x26, [sp, #48]
  ldp x27, x28, [sp, #64]
  ldp x29, x30, [sp, #80]
  ldp d8, d9, [sp, #96]
  ldp d10, d11, [sp, #112]
  ldp d12, d13, [sp, #128]
  ldp d14, d15, [sp, #144]
  ldr x9, [sp, #160]
  msr fpcr, x9
  add sp, sp, #176
  ret
  .size cucpu_fiber_switch, .-cucpu_fiber_switch

  .globl cucpu_fiber_start
  .hidden cucpu_fiber_start
  .type cucpu_fiber_start,%function
  .p2align 4
cucpu_fiber_start:
  mov x0, x19
  blr x20
  brk #0
  .size cucpu_fiber_start, .-cucpu_fiber_start
)");

namespace {
constexpr size_t FrameBytes = 176;

void *prepareStack(char *Top, void (*Entry)(void *), void *Arg) {
  auto *Slots = reinterpret_cast<uint64_t *>(Top - FrameBytes);
  std::memset(Slots, 0, FrameBytes);
  uint64_t Fpcr;
  asm volatile("mrs %0, fpcr" : "=r"(Fpcr));
  Slots[0] = reinterpret_cast<uint64_t>(Arg);                 // x19
  Slots[1] = reinterpret_cast<uint64_t>(Entry);               // x20
  Slots[11] = reinterpret_cast<uint64_t>(&cucpu_fiber_start); // x30
  Slots[20] = Fpcr;
  return Slots;
}
} // namespace

#else
#error "cucpu's fibers need a context switch for this architecture (Fiber.cpp)"
#endif

namespace {
/// The context that the running code last switched away from, on this
/// thread: a fiber learns the bounds of the thread's own stack from it.
thread_local FiberContext *SwitchedFrom = nullptr;

/// Tells the sanitizer that a switch has completed on the stack of \p Self.
void finishSwitch([[maybe_unused]] FiberContext *Self) {
#ifdef CUCPU_ASAN
  const void *Bottom = nullptr;
  size_t Size = 0;
  __sanitizer_finish_switch_fiber(Self ? Self->FakeStack : nullptr, &Bottom,
                                  &Size);
  if (SwitchedFrom && !SwitchedFrom->StackBottom) {
    SwitchedFrom->StackBottom = Bottom;
    SwitchedFrom->StackSize = Size;
  }
#endif
}

size_t pageSize() {
  static const size_t Size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return Size;
}
} // namespace

void cucpu::switchFiber(FiberContext &From, FiberContext &To) {
  SwitchedFrom = &From;
#ifdef CUCPU_ASAN
  __sanitizer_start_switch_fiber(&From.FakeStack, To.StackBottom, To.StackSize);
#endif
  cucpu_fiber_switch(&From.StackPointer, To.StackPointer);
  finishSwitch(&From);
}

Fiber::Fiber(void *Mapping, size_t MappingBytes, size_t Usable, FiberBody Body,
             void *Arg)
    : Mapping(Mapping), MappingBytes(MappingBytes), Usable(Usable), Body(Body),
      Arg(Arg) {
  Ctx.StackBottom = static_cast<char *>(Mapping) + (MappingBytes - Usable);
  Ctx.StackSize = Usable;
  reset();
}

Fiber::~Fiber() {
#ifdef CUCPU_ASAN
  // The shadow of a parked fiber's frames stays poisoned after munmap; the
  // next mapping at these addresses (the JIT's, say) must not inherit it.
  __asan_unpoison_memory_region(Ctx.StackBottom, Usable);
#endif
  munmap(Mapping, MappingBytes);
}

llvm::Expected<std::unique_ptr<Fiber>>
Fiber::create(size_t StackBytes, FiberBody Body, void *Arg) {
  size_t Usable = llvm::alignTo(StackBytes, pageSize());
  size_t Bytes = Usable + pageSize(); // One guard page below the stack.
  void *Mapping = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Mapping == MAP_FAILED)
    return makeError(CUDA_ERROR_OUT_OF_MEMORY,
                     llvm::formatv("The host could not map a {0}-byte stack "
                                   "for a CUDA thread.",
                                   Bytes));
  if (mprotect(Mapping, pageSize(), PROT_NONE) != 0) {
    munmap(Mapping, Bytes);
    return makeError(CUDA_ERROR_OUT_OF_MEMORY,
                     "The host could not protect the guard page of a stack.");
  }
  return std::unique_ptr<Fiber>(new Fiber(Mapping, Bytes, Usable, Body, Arg));
}

void Fiber::start(void *Self) {
  finishSwitch(nullptr);
  auto *F = static_cast<Fiber *>(Self);
  F->Body(F->Arg);
  // A body ends by switching away for good; coming back here is a bug.
  __builtin_trap();
}

void Fiber::reset() {
  char *Top = static_cast<char *>(Mapping) + MappingBytes;
#ifdef CUCPU_ASAN
  // Frames abandoned mid-call (a trap, a failed assert) leave their redzones
  // poisoned; the next thread on this stack must start clean.
  __asan_unpoison_memory_region(Ctx.StackBottom, Usable);
#endif
  Ctx.FakeStack = nullptr;
  Ctx.StackPointer = prepareStack(Top, &Fiber::start, this);
}
