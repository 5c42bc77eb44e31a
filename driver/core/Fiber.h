//===- Fiber.h - User-space threads for CUDA threads ------------*- C++ -*-===//
//
// The execution engine runs every CUDA thread of a block as a fiber: a stack
// of its own and a saved stack pointer, switched to and from in user space
// (a handful of instructions, no system call). A fiber's stack comes from
// mmap with a guard page below it, so an overflow faults instead of silently
// corrupting a neighbour.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_FIBER_H
#define CUCPU_DRIVER_CORE_FIBER_H

#include "llvm/Support/Error.h"

#include <cstddef>
#include <memory>

namespace cucpu {

/// A saved execution context: the stack pointer at the moment it switched
/// away (callee-saved registers live on that stack).
struct FiberContext {
  void *StackPointer = nullptr;
  /// Sanitizer bookkeeping (AddressSanitizer's fake stack); unused otherwise.
  void *FakeStack = nullptr;
  /// Bounds of the stack this context runs on (null for a thread's own
  /// stack until it is learnt at the first switch).
  const void *StackBottom = nullptr;
  size_t StackSize = 0;
};

/// The body of a fiber. It must never return: it ends by switching away.
using FiberBody = void (*)(void *Arg);

/// A fiber: a guarded stack plus the context saved when it is not running.
class Fiber {
public:
  /// Creates a fiber with at least \p StackBytes of usable stack that starts
  /// running \p Body(\p Arg) when first switched to.
  static llvm::Expected<std::unique_ptr<Fiber>>
  create(size_t StackBytes, FiberBody Body, void *Arg);
  ~Fiber();
  Fiber(const Fiber &) = delete;
  Fiber &operator=(const Fiber &) = delete;

  /// Makes the fiber start again from Body(Arg) the next time it is switched
  /// to, abandoning whatever it was doing (its stack holds nothing that needs
  /// cleaning up: see ExecutionEngine).
  void reset();

  /// Usable bytes of stack.
  size_t stackSize() const { return Usable; }
  /// The lowest usable address of the stack (the guard page is below).
  const void *stackLow() const {
    return static_cast<const char *>(Mapping) + (MappingBytes - Usable);
  }
  /// Whether \p P points into this fiber's stack mapping.
  bool owns(const void *P) const {
    return P >= Mapping &&
           P < static_cast<const char *>(Mapping) + MappingBytes;
  }
  /// The saved context of this fiber.
  FiberContext &context() { return Ctx; }

private:
  Fiber(void *Mapping, size_t MappingBytes, size_t Usable, FiberBody Body,
        void *Arg);
  /// First C++ code on a new stack: runs Body(Arg).
  static void start(void *Self);

  void *Mapping;
  size_t MappingBytes;
  size_t Usable;
  FiberBody Body;
  void *Arg;
  FiberContext Ctx;
};

/// Saves the running context into \p From and resumes \p To. Returns when
/// something switches back to \p From.
void switchFiber(FiberContext &From, FiberContext &To);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_FIBER_H
