//===- Specialization.h - Block functions for one block shape ---*- C++ -*-===//
//
// A block function is compiled at module load for any block shape; a launch
// may ask for one compiled for its shape, where the optimizer sees constant
// thread-loop trip counts, frame offsets and warp counts. Such a block
// function is compiled from the module's lowered IR into an object of its
// own, linked into the module's JITDylib: it defines nothing but itself
// (its callees are private copies) and uses the module's variables, which
// cucpu-export-globals made visible to it. A kernel's thread entry may be
// compiled the same way, when a launch first needs it.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_SPECIALIZATION_H
#define CUCPU_MODULES_SPECIALIZATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace cucpu::modules {

/// A block shape (blockDim.x, .y, .z).
using BlockShape = std::array<uint32_t, 3>;

/// The symbol of \p Kernel's block function specialized for \p Shape.
std::string specializedBlockName(llvm::StringRef Kernel,
                                 const BlockShape &Shape);

/// A new module (extractFunction()) defining \p Kernel's thread entry of the
/// lowered, unoptimized module \p Lowered, under its own name; for kernels
/// whose module was compiled without it (JitOptions::ThreadEntriesOnly).
llvm::Expected<std::unique_ptr<llvm::Module>>
extractThreadEntry(const llvm::Module &Lowered, llvm::StringRef Kernel);

/// A new module (in \p Lowered's context) that defines function \p Symbol of
/// \p Lowered, renamed \p NewName, and nothing else: the functions it calls
/// are private copies, read-only data private to the module is copied, and
/// the module's variables and the runtime are declarations.
std::unique_ptr<llvm::Module> extractFunction(const llvm::Module &Lowered,
                                              llvm::StringRef Symbol,
                                              llvm::StringRef NewName);

/// A new module (in \p Lowered's context) holding \p Kernel's block function
/// from the lowered, unoptimized module \p Lowered, specialized for \p Shape
/// and named specializedBlockName(); everything else it uses is a private
/// copy (functions, read-only data) or a declaration (the module's
/// variables, the runtime). An error if the kernel has no block function.
llvm::Expected<std::unique_ptr<llvm::Module>>
specializeBlockFunction(const llvm::Module &Lowered, llvm::StringRef Kernel,
                        const BlockShape &Shape);

/// A new module (extractFunction()) defining \p Kernel's thread entry of the
/// lowered, unoptimized module \p Lowered, under its own name; for kernels
/// whose module was compiled without it (JitOptions::ThreadEntriesOnly).
llvm::Expected<std::unique_ptr<llvm::Module>>
extractThreadEntry(const llvm::Module &Lowered, llvm::StringRef Kernel);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_SPECIALIZATION_H
