//===- ThreadExit.h - exit inside device functions --------------*- C++ -*-===//
//
// PTX's exit ends the thread wherever it runs, also inside a .func. The
// translator writes it there as a call of ThreadExitName followed by
// unreachable; lowerThreadExits() inlines every function that can exit into
// its callers until the calls sit in kernels, where they become returns.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_THREADEXIT_H
#define CUCPU_PTX_THREADEXIT_H

#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace cucpu::ptx {

/// The marker function an exit in a .func calls.
inline constexpr const char *ThreadExitName = "__cucpu_ptx_thread_exit";

/// Inlines the functions of \p M that call the marker into their callers
/// and turns the marker in kernels into returns. A function that exits and
/// is called indirectly or recursively cannot be inlined: an error naming it.
llvm::Error lowerThreadExits(llvm::Module &M);

} // namespace cucpu::ptx

#endif // CUCPU_PTX_THREADEXIT_H
