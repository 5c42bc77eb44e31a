//===- FaultHandler.cpp - Faults in kernel code fail the launch -----------===//
//
// The handler runs on the faulting thread. If the fault's instruction lies in
// JIT-compiled code and the thread is running blocks, it records the fault
// and makes the thread resume in faultTrampoline() instead of the faulting
// instruction, on the thread's rescue stack (prepareFaultStacks(); the
// interrupted stack may be the one that overflowed); the trampoline ends
// the block through BlockRunner::abortFromFault(), which
// abandons those frames as a trap does (they hold no resources). Anything
// else goes to the previous handler.
//
//===----------------------------------------------------------------------===//
#include "core/FaultHandler.h"

#include "core/AddressSanitizer.h"
#include "core/BlockRunner.h"

#include "cucpu/modules/CodeRanges.h"
#include "cucpu/modules/runtime/KernelAccess.h"

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

using namespace cucpu;

namespace {

constexpr int Signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

/// The handlers installed before ours.
struct sigaction Previous[NSIG];

/// The fault that faultTrampoline() reports (this thread's). Initial-exec
/// TLS: the handler must not make the loader allocate.
#define CUCPU_SIGNAL_TLS thread_local __attribute__((tls_model("initial-exec")))
CUCPU_SIGNAL_TLS int FaultSignal = 0;
CUCPU_SIGNAL_TLS uintptr_t FaultAddress = 0;
CUCPU_SIGNAL_TLS uintptr_t FaultPc = 0;
/// The stack pointer of the code the fault interrupted.
CUCPU_SIGNAL_TLS uintptr_t FaultSp = 0;
/// Whether the fault was the kernel running off the end of its stack.
CUCPU_SIGNAL_TLS bool FaultOverflow = false;
/// The top of this thread's stack for faultTrampoline() (0: none, and the
/// trampoline runs below the interrupted frames).
CUCPU_SIGNAL_TLS uintptr_t RescueStackTop = 0;
/// The lowest usable address of this thread's own stack (0: unknown).
CUCPU_SIGNAL_TLS uintptr_t ThreadStackLow = 0;

/// How far below the lowest usable address of a stack a fault still counts
/// as the stack's overflow: one frame may skip the guard page.
constexpr uintptr_t OverflowReach = 1u << 20;
/// Bytes of the alternate signal stack and of the rescue stack.
constexpr size_t SignalStackBytes = 64 * 1024;
constexpr size_t RescueStackBytes = 64 * 1024;

/// A thread's alternate signal stack and rescue stack, in one mapping with
/// a guard page below each.
class FaultStacks {
public:
  FaultStacks() {
    size_t Page = size_t(sysconf(_SC_PAGESIZE));
    Bytes = 2 * Page + SignalStackBytes + RescueStackBytes;
    void *M = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (M == MAP_FAILED)
      return;
    Mapping = static_cast<char *>(M);
    char *Signal = Mapping + Page;
    char *Rescue = Signal + SignalStackBytes + Page;
    mprotect(Mapping, Page, PROT_NONE);
    mprotect(Rescue - Page, Page, PROT_NONE);
    stack_t Old = {};
    if (sigaltstack(nullptr, &Old) == 0 && (Old.ss_flags & SS_DISABLE)) {
      stack_t New = {};
      New.ss_sp = Signal;
      New.ss_size = SignalStackBytes;
      OwnSignalStack = sigaltstack(&New, nullptr) == 0;
    }
    RescueStackTop = uintptr_t(Rescue + RescueStackBytes);
    pthread_attr_t Attr;
    if (pthread_getattr_np(pthread_self(), &Attr) == 0) {
      void *Low = nullptr;
      size_t Size = 0;
      if (pthread_attr_getstack(&Attr, &Low, &Size) == 0)
        ThreadStackLow = uintptr_t(Low);
      pthread_attr_destroy(&Attr);
    }
  }
  ~FaultStacks() {
    RescueStackTop = 0;
    if (OwnSignalStack) {
      stack_t Off = {};
      Off.ss_flags = SS_DISABLE;
      sigaltstack(&Off, nullptr);
    }
    if (Mapping) {
#ifdef CUCPU_ASAN
      // The rescue stack's last use left by a jump, its frames still
      // poisoned; the next mapping at these addresses must not inherit that.
      __asan_unpoison_memory_region(Mapping, Bytes);
#endif
      munmap(Mapping, Bytes);
    }
  }
  FaultStacks(const FaultStacks &) = delete;
  FaultStacks &operator=(const FaultStacks &) = delete;

private:
  char *Mapping = nullptr;
  size_t Bytes = 0;
  bool OwnSignalStack = false;
};

[[noreturn]] void faultTrampoline() {
  BlockRunner *Runner = BlockRunner::activeOnThisThread();
  // A fixed buffer: nothing on this frame may need destroying, since the
  // block's end leaves it by a jump.
  char Message[256];
  CUresult Code = CUDA_ERROR_LAUNCH_FAILED;
  if (FaultSignal == watchdogSignal()) {
    Code = CUDA_ERROR_LAUNCH_TIMEOUT;
    std::snprintf(Message, sizeof(Message), "%s", BlockRunner::TimedOutMessage);
  } else if (FaultOverflow) {
    std::snprintf(Message, sizeof(Message),
                  "The kernel overflowed its call stack at address 0x%jx "
                  "(deep recursion or large local arrays; "
                  "cuCtxSetLimit(CU_LIMIT_STACK_SIZE) sets the stack of a "
                  "CUDA thread).",
                  uintmax_t(FaultAddress));
  } else if (FaultSignal == SIGSEGV || FaultSignal == SIGBUS) {
    Code = CUDA_ERROR_ILLEGAL_ADDRESS;
    std::snprintf(Message, sizeof(Message),
                  "The kernel accessed address 0x%jx, which is not memory it "
                  "may use (at code address 0x%jx).",
                  uintmax_t(FaultAddress), uintmax_t(FaultPc));
  } else if (FaultSignal == SIGFPE) {
    std::snprintf(Message, sizeof(Message),
                  "The kernel raised an arithmetic exception, an integer "
                  "division by zero or overflow (at code address 0x%jx).",
                  uintmax_t(FaultPc));
  } else {
    Code = CUDA_ERROR_ILLEGAL_INSTRUCTION;
    std::snprintf(Message, sizeof(Message),
                  "The kernel executed an illegal instruction (at code "
                  "address 0x%jx).",
                  uintmax_t(FaultPc));
  }
  Runner->abortFromFault(Code, Message, FaultSp);
}

/// Calls the handler installed for \p Signal before cucpu's, if there was
/// one; returns whether there was.
bool callPrevious(int Signal, siginfo_t *Info, void *Context) {
  const struct sigaction &Old = Previous[Signal];
  if (Old.sa_flags & SA_SIGINFO) {
    if (!Old.sa_sigaction)
      return false;
    Old.sa_sigaction(Signal, Info, Context);
    return true;
  }
  if (Old.sa_handler == SIG_DFL || Old.sa_handler == SIG_IGN)
    return false;
  Old.sa_handler(Signal);
  return true;
}

/// Passes a fault that is not ours to the handler installed before.
void chain(int Signal, siginfo_t *Info, void *Context) {
  if (callPrevious(Signal, Info, Context))
    return;
  // No handler before ours: the default action. A fault raised by an
  // instruction happens again when the handler returns; a signal sent by
  // someone is raised again.
  signal(Signal, SIG_DFL);
  if (Info->si_code <= 0)
    raise(Signal);
}

/// Whether \p Addr lies just below the stack the kernel ran on: the fiber's
/// of \p Runner, or else the thread's own.
bool overflowedStack(const BlockRunner &Runner, uintptr_t Addr) {
  uintptr_t Low = uintptr_t(Runner.fiberStackLow());
  if (!Low)
    Low = ThreadStackLow;
  return Low && Addr < Low && Low - Addr <= OverflowReach;
}

/// Whether code at \p Pc runs a kernel's own accesses: JIT-compiled code,
/// or the runtime code that touches memory on its behalf.
bool isKernelCode(uintptr_t Pc) {
  return modules::isJitCode(Pc) || modules::isKernelAccessCode(Pc);
}

/// Makes the interrupted thread resume in faultTrampoline() for \p Signal.
void redirect(int Signal, siginfo_t *Info, ucontext_t *UC, uintptr_t Pc) {
  FaultSignal = Signal;
  FaultAddress = uintptr_t(Info->si_addr);
  FaultPc = Pc;
  FaultSp = uintptr_t(UC->uc_mcontext.gregs[REG_RSP]);
  FaultOverflow =
      (Signal == SIGSEGV || Signal == SIGBUS) &&
      overflowedStack(*BlockRunner::activeOnThisThread(), FaultAddress);
  // Resume in the trampoline as if the faulting code had called it, on the
  // rescue stack (the interrupted one may be exhausted), else below the red
  // zone; 16-byte aligned before the return address.
  uintptr_t Sp = RescueStackTop
                     ? RescueStackTop
                     : uintptr_t(UC->uc_mcontext.gregs[REG_RSP]) - 256;
#ifdef CUCPU_ASAN
  // The rescue stack's last use left by a jump, its frames still poisoned.
  if (RescueStackTop)
    __asan_unpoison_memory_region(
        reinterpret_cast<void *>(RescueStackTop - RescueStackBytes),
        RescueStackBytes);
#endif
  Sp = (Sp & ~uintptr_t(15)) - 8;
  *reinterpret_cast<uintptr_t *>(Sp) = 0;
  UC->uc_mcontext.gregs[REG_RSP] = greg_t(Sp);
  UC->uc_mcontext.gregs[REG_RIP] = greg_t(&faultTrampoline);
  // A backward copy (modules::kernelMemmove) may have set the direction
  // flag, which compiled code expects clear.
  constexpr greg_t DirectionFlag = 0x400;
  UC->uc_mcontext.gregs[REG_EFL] &= ~DirectionFlag;
}

void handleFault(int Signal, siginfo_t *Info, void *Context) {
  auto *UC = static_cast<ucontext_t *>(Context);
  uintptr_t Pc = uintptr_t(UC->uc_mcontext.gregs[REG_RIP]);
  if (Info->si_code > 0 && BlockRunner::activeOnThisThread() &&
      isKernelCode(Pc)) {
    redirect(Signal, Info, UC, Pc);
    return;
  }
  chain(Signal, Info, Context);
}

/// The watchdog's signal: ends the block if the thread is in kernel code of
/// a launch that ran out of time; otherwise the watchdog tries again soon.
void handleWatchdog(int Signal, siginfo_t *Info, void *Context) {
  auto *UC = static_cast<ucontext_t *>(Context);
  uintptr_t Pc = uintptr_t(UC->uc_mcontext.gregs[REG_RIP]);
  BlockRunner *Runner = BlockRunner::activeOnThisThread();
  if (Runner && Runner->TimedOut.load(std::memory_order_relaxed) &&
      isKernelCode(Pc)) {
    redirect(Signal, Info, UC, Pc);
    return;
  }
  // A late or foreign signal: the application's handler, if it had one.
  callPrevious(Signal, Info, Context);
}

} // namespace

int cucpu::watchdogSignal() { return SIGRTMIN + 5; }

void cucpu::installWatchdogHandler() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    struct sigaction Action = {};
    Action.sa_sigaction = handleWatchdog;
    Action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&Action.sa_mask);
    sigaction(watchdogSignal(), &Action, &Previous[watchdogSignal()]);
  });
}

void cucpu::installFaultHandlers() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    struct sigaction Action = {};
    Action.sa_sigaction = handleFault;
    Action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&Action.sa_mask);
    for (int Signal : Signals)
      sigaction(Signal, &Action, &Previous[Signal]);
  });
}

void cucpu::prepareFaultStacks() { thread_local FaultStacks Stacks; }

size_t cucpu::kernelStackLeft() {
  const BlockRunner *Runner = BlockRunner::activeOnThisThread();
  uintptr_t Low = Runner ? uintptr_t(Runner->fiberStackLow()) : 0;
  if (!Low)
    Low = ThreadStackLow;
  auto Here = uintptr_t(__builtin_frame_address(0));
  if (!Low)
    return SIZE_MAX;
  return Here > Low ? Here - Low : 0;
}
