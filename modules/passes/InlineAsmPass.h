//===- InlineAsmPass.h - cucpu-inline-asm -----------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_INLINEASMPASS_H
#define CUCPU_MODULES_PASSES_INLINEASMPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Replaces inline PTX assembly (`asm("..." : outputs : inputs)`, an
/// InlineAsm call in clang's IR) by the IR the PTX front end makes of it:
/// each asm becomes a PTX .func whose .reg parameters and .param results are
/// its operands, translated into the module, linked in and inlined
/// (docs/inline-asm.md). An asm the front end cannot translate fails the
/// module load with a message naming the asm text.
struct InlineAsmPass : llvm::PassInfoMixin<InlineAsmPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-inline-asm";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_INLINEASMPASS_H
