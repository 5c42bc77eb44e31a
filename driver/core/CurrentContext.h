//===- CurrentContext.h - The calling thread's context stack ----*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_CURRENTCONTEXT_H
#define CUCPU_DRIVER_CORE_CURRENTCONTEXT_H

#include "core/Context.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace cucpu::current {

/// The context current to the calling thread, checked to be alive and free
/// of sticky faults: CUDA_ERROR_INVALID_CONTEXT if there is none or it was
/// destroyed, its fault code if it faulted.
llvm::Expected<std::shared_ptr<Context>> context();

/// Succeeds when context() would: for calls that need a usable current
/// context but not the context itself.
llvm::Error require();

/// The current context if it is alive (null otherwise); no fault check.
std::shared_ptr<Context> top();

/// Whether the stack holds an entry at all (even a destroyed context).
bool hasEntry();

/// Pushes \p C onto the calling thread's stack.
void push(const std::shared_ptr<Context> &C);

/// Pops the top entry; returns it if it is still alive.
std::shared_ptr<Context> pop();

/// Replaces the top entry with \p C (cuCtxSetCurrent); null pops it.
void replaceTop(const std::shared_ptr<Context> &C);

/// Removes every entry naming \p C from the calling thread's stack
/// (cuCtxDestroy of a context current to this thread).
void forget(const Context &C);

} // namespace cucpu::current

#endif // CUCPU_DRIVER_CORE_CURRENTCONTEXT_H
