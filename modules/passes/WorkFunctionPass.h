//===- WorkFunctionPass.h - cucpu-work-functions ----------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_WORKFUNCTIONPASS_H
#define CUCPU_MODULES_PASSES_WORKFUNCTIONPASS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Function;
class LoadInst;
} // namespace llvm

namespace cucpu::modules {

/// Gives every kernel whose thread entry can become a block function a work
/// function: a copy of the entry, void(CucpuThread *T, const CucpuBlock *B,
/// i32 tid.x, i32 tid.y, i32 tid.z, i32 linear, ptr Frame, i32 NumThreads),
/// that reads the thread's coordinates from its arguments instead of T and
/// has every function that meets other threads inlined into it (and, within
/// a size budget, every other device function).
/// cucpu-form-regions and cucpu-emit-block-functions turn it into the block
/// function. A kernel that cannot have one (recursion through a barrier,
/// __activemask, a spin-wait hint, a warp operation without the full mask)
/// keeps only its thread entry; the reason is recorded
/// (recordFallbackReason).
struct WorkFunctionPass : llvm::PassInfoMixin<WorkFunctionPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-work-functions";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

/// Arguments of a work function, in order.
enum class WorkArg : unsigned {
  Thread,
  Block,
  TidX,
  TidY,
  TidZ,
  Linear,
  Frame,
  NumThreads,
  Count
};

/// Whether \p L, in work function \p W, reads what is the same for every
/// thread of the block throughout the launch: a field of the CucpuBlock or
/// a kernel parameter.
bool isBlockInvariantLoad(const llvm::LoadInst &L, const llvm::Function &W);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_WORKFUNCTIONPASS_H
