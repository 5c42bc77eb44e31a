//===- Lowering.h - Run the GPU-to-CPU passes and the optimizer -*- C++ -*-===//
#ifndef CUCPU_MODULES_LOWERING_H
#define CUCPU_MODULES_LOWERING_H

#include "passes/LoweringState.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace cucpu::modules {

/// Runs \p Pipeline (textual, may name cucpu's passes and LLVM's) on \p M.
/// With CUCPU_DEBUG=dump-ir the IR is printed to stderr after each pass.
/// Errors recorded by the passes are returned; the result is verified.
llvm::Error runPipeline(llvm::Module &M, llvm::StringRef Pipeline,
                        LoweringState &State, llvm::TargetMachine *TM);

/// Lowers \p M for \p TM: loweringPipeline(), then blockFunctionPipeline().
llvm::Error lower(llvm::Module &M, llvm::TargetMachine &TM,
                  LoweringState &State);

/// Optimizes the lowered \p M at \p OptLevel (0-3) for \p TM.
llvm::Error optimize(llvm::Module &M, llvm::TargetMachine &TM,
                     LoweringState &State, unsigned OptLevel);

/// Whether CUCPU_DEBUG (comma-separated) contains \p Knob.
bool debugKnob(llvm::StringRef Knob);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_LOWERING_H
