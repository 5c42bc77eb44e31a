//===- PassRegistry.h - The GPU-to-CPU passes by name -----------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_PASSREGISTRY_H
#define CUCPU_MODULES_PASSES_PASSREGISTRY_H

#include "LoweringState.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace cucpu::modules {

/// Lets \p PB parse the names of cucpu's lowering passes; they share \p State.
void registerLoweringPasses(llvm::PassBuilder &PB, LoweringState &State);

/// The lowering pipeline, in the textual form of parsePassPipeline; with
/// \p Memcheck, kernel memory accesses are checked (cucpu-memcheck).
std::string loweringPipeline(bool Memcheck = false);

/// The pipeline that forms the block functions (JitAbi.h, CucpuBlockEntry)
/// of the lowered module, run after loweringPipeline().
llvm::StringRef blockFunctionPipeline();

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_PASSREGISTRY_H
