//===- TexturesPass.h - cucpu-textures --------------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_TEXTURESPASS_H
#define CUCPU_MODULES_PASSES_TEXTURESPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Gives each texture reference of the module its launch-time description:
/// llvm.nvvm.texsurf.handle.internal(@tex) becomes the address of entry K of
/// the block's CucpuBlock::TexRefs, K being the position of "tex" among the
/// image's texture references (TextureAbi.h); the texture variables
/// themselves and the __cucpu_texref_type markers of the kernel headers
/// disappear. Runs after cucpu-thread-arg.
struct TexturesPass : llvm::PassInfoMixin<TexturesPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-textures";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_TEXTURESPASS_H
