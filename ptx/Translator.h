//===- Translator.h - PTX to NVVM-style LLVM IR -----------------*- C++ -*-===//
//
// The PTX front end's entry point: PTX text in, an LLVM module out in the
// same NVVM style cucc's clang produces (nvptx64 triple and data layout,
// kernels in !nvvm.annotations, address spaces 1/3/4/5, NVVM intrinsics),
// so the JIT's lowering passes apply to it unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_TRANSLATOR_H
#define CUCPU_PTX_TRANSLATOR_H

#include "Ast.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace llvm {
class FunctionType;
class LLVMContext;
class Module;
} // namespace llvm

namespace cucpu::ptx {

/// Name of the external addrspace(3) array that stands for the block's
/// shared memory as a whole: a .shared address (PTX's 32- or 64-bit window
/// offset) is an index into it. The JIT's shared-memory pass places it at
/// the start of the block's shared memory.
inline constexpr const char *SharedWindowName = "__cucpu_ptx_shared_window";

/// Name of the function `i32 ()` that translated code calls for the size
/// in bytes of the block's shared memory, static and dynamic: the JIT's
/// special-register pass reads it from the block.
inline constexpr const char *SharedSizeName = "__cucpu_ptx_shared_size";

/// Whether \p Name is a function of the runtime (vprintf, __assertfail,
/// malloc, free) that translated code calls with its C signature rather
/// than through .param memory.
bool isRuntimeFunction(llvm::StringRef Name);

/// The C signature of runtime function \p Name, or null if it is none.
llvm::FunctionType *runtimeSignature(llvm::LLVMContext &C,
                                     llvm::StringRef Name);

/// What an exit in a .func becomes.
enum class ThreadExits {
  /// Lowered in the module (lowerThreadExits): a whole program.
  Lower,
  /// Left as calls of ThreadExitName (ThreadExit.h) for the module the
  /// functions are linked into to lower: inline assembly.
  Keep
};

/// Translates a parsed module into \p C. Errors are PtxError.
llvm::Expected<std::unique_ptr<llvm::Module>>
translate(const Module &Ptx, llvm::LLVMContext &C,
          ThreadExits Exits = ThreadExits::Lower);

/// Parses and translates PTX text (see parse() and translate()).
llvm::Expected<std::unique_ptr<llvm::Module>>
compile(llvm::StringRef Text, llvm::LLVMContext &C,
        ThreadExits Exits = ThreadExits::Lower);

} // namespace cucpu::ptx

#endif // CUCPU_PTX_TRANSLATOR_H
