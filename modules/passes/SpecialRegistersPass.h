//===- SpecialRegistersPass.h - cucpu-sregs ---------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_SPECIALREGISTERSPASS_H
#define CUCPU_MODULES_PASSES_SPECIALREGISTERSPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Lowers llvm.nvvm.read.ptx.sreg.* (tid, ntid, ctaid, nctaid, laneid,
/// warpid, lanemask_*, clock, clock64, globaltimer, ...) to the thread's state.
struct SpecialRegistersPass : llvm::PassInfoMixin<SpecialRegistersPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-sregs";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_SPECIALREGISTERSPASS_H
