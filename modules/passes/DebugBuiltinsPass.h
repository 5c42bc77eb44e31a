//===- DebugBuiltinsPass.h - cucpu-debug-builtins ---------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_DEBUGBUILTINSPASS_H
#define CUCPU_MODULES_PASSES_DEBUGBUILTINSPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Describes threadIdx, blockIdx, blockDim and gridDim to debuggers in every
/// function that has debug information and the hidden CucpuThread*: each is
/// an artificial local variable (uint3, dim3) whose location is the field of
/// the function's CucpuThread or CucpuBlock (JitAbi.h), so that gdb's
/// `print threadIdx` shows the stopped thread's own. The thread pointer is
/// kept in a stack slot, valid for the whole function at any optimization
/// level; functions without debug information are left alone.
struct DebugBuiltinsPass : llvm::PassInfoMixin<DebugBuiltinsPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-debug-builtins";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_DEBUGBUILTINSPASS_H
