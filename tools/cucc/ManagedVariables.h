//===- ManagedVariables.h - Host access to __managed__ ----------*- C++ -*-===//
//
// clang's CUDA host pass gives a __managed__ variable a host copy of its
// own (a "shadow"), which host code reads and writes while kernels use the
// device's variable: each side would silently see its own value. cucc's
// prelude marks managed variables (annotate "cucpu.managed"), and this
// rewrite of the host pass's IR sends host code to the device's storage,
// as nvcc's host code does:
//   - each managed variable V gets a slot `V.cucpu.managed` (a pointer,
//     first to the shadow) that __cudaRegisterManagedVar hands the runtime,
//     which points it at the device's variable once its module is loaded;
//   - every access of V in host code becomes an access through the slot,
//     and the first one while the slot still points at the shadow asks the
//     runtime to load the module (__cudaInitManagedVar).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TOOLS_CUCC_MANAGEDVARIABLES_H
#define CUCPU_TOOLS_CUCC_MANAGEDVARIABLES_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace cucpu::cucc {

/// Rewrites the host-pass module \p M as above. Returns the number of
/// managed variables rewritten; a managed variable used where no code can
/// run first (another global's initializer) is an error naming both.
llvm::Expected<unsigned> redirectManagedVariables(llvm::Module &M);

} // namespace cucpu::cucc

#endif // CUCPU_TOOLS_CUCC_MANAGEDVARIABLES_H
