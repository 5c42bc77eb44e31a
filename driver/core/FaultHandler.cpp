//===- FaultHandler.cpp - Faults in kernel code fail the launch -----------===//
//
// The handler runs on the faulting thread. If the fault's instruction lies in
// JIT-compiled code and the thread is running blocks, it records the fault
// and makes the thread resume in faultTrampoline() instead of the faulting
// instruction, on the same stack below the interrupted frames; the
// trampoline ends the block through BlockRunner::abortFromFault(), which
// abandons those frames as a trap does (they hold no resources). Anything
// else goes to the previous handler.
//
//===----------------------------------------------------------------------===//
#include "core/FaultHandler.h"

#include "core/BlockRunner.h"

#include "CodeRanges.h"

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <ucontext.h>

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

[[noreturn]] void faultTrampoline() {
  BlockRunner *Runner = BlockRunner::activeOnThisThread();
  // A fixed buffer: nothing on this frame may need destroying, since the
  // block's end leaves it by a jump.
  char Message[256];
  CUresult Code = CUDA_ERROR_LAUNCH_FAILED;
  if (FaultSignal == watchdogSignal()) {
    Code = CUDA_ERROR_LAUNCH_TIMEOUT;
    std::snprintf(Message, sizeof(Message),
                  "The kernel ran longer than CUCPU_WATCHDOG_MS allows and was "
                  "stopped.");
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
  Runner->abortFromFault(Code, Message);
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

/// Makes the interrupted thread resume in faultTrampoline() for \p Signal.
void redirect(int Signal, siginfo_t *Info, ucontext_t *UC, uintptr_t Pc) {
  FaultSignal = Signal;
  FaultAddress = uintptr_t(Info->si_addr);
  FaultPc = Pc;
  // Resume in the trampoline as if the faulting code had called it: below
  // the red zone, 16-byte aligned before the return address.
  uintptr_t Sp = uintptr_t(UC->uc_mcontext.gregs[REG_RSP]) - 256;
  Sp = (Sp & ~uintptr_t(15)) - 8;
  *reinterpret_cast<uintptr_t *>(Sp) = 0;
  UC->uc_mcontext.gregs[REG_RSP] = greg_t(Sp);
  UC->uc_mcontext.gregs[REG_RIP] = greg_t(&faultTrampoline);
}

void handleFault(int Signal, siginfo_t *Info, void *Context) {
  auto *UC = static_cast<ucontext_t *>(Context);
  uintptr_t Pc = uintptr_t(UC->uc_mcontext.gregs[REG_RIP]);
  if (Info->si_code > 0 && BlockRunner::activeOnThisThread() &&
      modules::isJitCode(Pc)) {
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
      modules::isJitCode(Pc)) {
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
