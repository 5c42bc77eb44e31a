//===- Lowering.h - Run the GPU-to-CPU passes and the optimizer -*- C++ -*-===//
#ifndef CUCPU_MODULES_LOWERING_H
#define CUCPU_MODULES_LOWERING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace cucpu::modules {

/// What the passes lower for.
struct LoweringTarget {
  /// The host's target machine (triple, data layout, code generation).
  llvm::TargetMachine *Machine = nullptr;
  /// Every external name the JIT can resolve (runtime library, engine
  /// services); a call to any other undefined function is an error.
  llvm::StringSet<> ExternalSymbols;
  /// CUCPU_MEMCHECK: kernel memory accesses are checked (cucpu-memcheck).
  bool Memcheck = false;
  /// Whether kernels get block functions; without, only their thread
  /// entries, which the fiber engine runs (threadEntryPipeline()).
  bool BlockFunctions = true;
};

/// Runs \p Pipeline (textual, may name cucpu's passes and LLVM's) on \p M.
/// With CUCPU_DEBUG=dump-ir the IR is printed to stderr after each pass.
/// The errors the passes report (LoweringDiagnostic) are returned as one
/// JitError; other diagnostics go to \p M's context's handler. The result
/// is verified.
llvm::Error runPipeline(llvm::Module &M, llvm::StringRef Pipeline,
                        const LoweringTarget &Target);

/// Lowers \p M: loweringPipeline(), then blockFunctionPipeline() (or
/// threadEntryPipeline() without LoweringTarget::BlockFunctions). \p M
/// should carry its image's description (attachImageDescription); the
/// results are in its metadata (readLoweringResults).
llvm::Error lower(llvm::Module &M, const LoweringTarget &Target);

/// Optimizes the lowered \p M at \p OptLevel (0-3).
llvm::Error optimize(llvm::Module &M, const LoweringTarget &Target,
                     unsigned OptLevel);

/// Whether CUCPU_DEBUG (comma-separated) contains \p Knob.
bool debugKnob(llvm::StringRef Knob);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_LOWERING_H
