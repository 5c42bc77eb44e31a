//===- PassRegistry.h - The GPU-to-CPU passes by name -----------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_PASSREGISTRY_H
#define CUCPU_MODULES_PASSES_PASSREGISTRY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace llvm {
class PassBuilder;
class TargetMachine;
} // namespace llvm

namespace cucpu::modules {

/// Lets \p PB parse the names of cucpu's lowering passes, which lower for
/// \p TM (it must outlive \p PB's pipelines). Without a target machine,
/// every pass but cucpu-host-target is available.
void registerLoweringPasses(llvm::PassBuilder &PB,
                            const llvm::TargetMachine *TM);

/// Registers the analyses the passes ask for: ExternalSymbolsAnalysis, with
/// \p ExternalSymbols (which must outlive \p MAM), and
/// ThreadDivergenceAnalysis. Call before PassBuilder::registerModuleAnalyses.
void registerLoweringAnalyses(llvm::ModuleAnalysisManager &MAM,
                              llvm::FunctionAnalysisManager &FAM,
                              const llvm::StringSet<> &ExternalSymbols);

/// The lowering pipeline, in the textual form of parsePassPipeline; with
/// \p Memcheck, kernel memory accesses are checked (cucpu-memcheck).
std::string loweringPipeline(bool Memcheck = false);

/// The pipeline that forms the block functions (JitAbi.h, CucpuBlockEntry)
/// of the lowered module, run after loweringPipeline(). With
/// \p PrintStages, cucpu-form-regions prints the stages of each
/// formation to stderr.
std::string blockFunctionPipeline(bool PrintStages = false);

/// What runs after loweringPipeline() instead of blockFunctionPipeline()
/// when kernels get no block functions (the fiber engine runs them all).
std::string threadEntryPipeline();

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_PASSREGISTRY_H
