//===- DeviceCallsPass.h - cucpu-device-calls -------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_DEVICECALLSPASS_H
#define CUCPU_MODULES_PASSES_DEVICECALLSPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Lowers vprintf, __assertfail and traps to __cucpu_vprintf,
/// __cucpu_assert_fail and __cucpu_trap, which get the thread.
struct DeviceCallsPass : llvm::PassInfoMixin<DeviceCallsPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-device-calls";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_DEVICECALLSPASS_H
