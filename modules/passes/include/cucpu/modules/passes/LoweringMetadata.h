//===- LoweringMetadata.h - What the passes and the JIT share ---*- C++ -*-===//
//
// The passes need no driver or loader state. What they must know of the
// image the IR came from (kernel parameter layouts, texture references, the
// target architecture) is attached to the module before lowering as the
// named metadata !cucpu.image; what they learn that the JIT needs
// afterwards (shared-memory sizes, block-function frames, why a kernel has
// no block function) they record as !cucpu.results. Both are lists of
// tagged tuples, so an .ll test can write them by hand:
//
//   !cucpu.image = !{!0, !1, !2}
//   !0 = !{!"arch", !"sm_75"}
//   !1 = !{!"kernel", !"k", i32 24, i32 0, i32 8, i32 8, i32 4}
//        ; name, parameter bytes, then offset and size of each parameter
//   !2 = !{!"texref", !"tex"}          ; in the image's order
//   ; and !{!"relocatable"} for an image compiled with -rdc
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_PASSES_LOWERINGMETADATA_H
#define CUCPU_MODULES_PASSES_LOWERINGMETADATA_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace cucpu::modules {

/// Attribute that marks a kernel (a __global__ function) during lowering.
inline constexpr const char *KernelAttr = "cucpu-kernel";
/// Attribute of every defined function whose first parameter is the hidden
/// CucpuThread pointer.
inline constexpr const char *ThreadArgAttr = "cucpu-thread-arg";
/// The thread entry of kernel K is named ThreadEntryPrefix + K.
inline constexpr const char *ThreadEntryPrefix = "__cucpu_entry.";
/// The block function of kernel K (JitAbi.h, CucpuBlockEntry), if it has one.
inline constexpr const char *BlockPrefix = "__cucpu_block.";
/// The work function of kernel K: its thread entry with the thread's
/// coordinates as arguments, from which the block function is formed.
inline constexpr const char *WorkPrefix = "__cucpu_work.";

/// One parameter's place in a launch's parameter buffer.
struct ParamSlot {
  uint32_t Offset = 0;
  uint32_t Size = 0;
};

/// A kernel as the image describes it.
struct KernelLayout {
  std::string Name;
  uint32_t ParamBytes = 0; ///< Size of the whole parameter buffer.
  llvm::SmallVector<ParamSlot, 8> Params;
};

/// What the passes know of the image the module came from.
struct ImageDescription {
  std::string TargetArch; ///< "sm_75"; empty if unknown.
  bool Relocatable = false;
  std::vector<KernelLayout> Kernels;
  /// Texture and surface references, in the image's order (a launch passes
  /// their descriptions in this order).
  std::vector<std::string> TexRefs;

  const KernelLayout *kernel(llvm::StringRef Name) const;
  /// The place of reference \p Name in TexRefs, or -1.
  int texRefIndex(llvm::StringRef Name) const;
};

/// Attaches \p Image to \p M as !cucpu.image, replacing any earlier one.
void attachImageDescription(llvm::Module &M, const ImageDescription &Image);
/// The description attached to \p M; empty (no kernels, no references) if
/// there is none or it is malformed.
ImageDescription readImageDescription(const llvm::Module &M);
/// Whether \p M carries an image description.
bool hasImageDescription(const llvm::Module &M);

/// What lowering learns that the JIT needs.
struct LoweringResults {
  /// Static shared memory bytes of each kernel (cucpu-shared-memory).
  llvm::StringMap<uint32_t> KernelShared;
  /// Module-scope variables (__device__, __constant__) and their sizes
  /// (cucpu-globals).
  llvm::StringMap<uint64_t> GlobalSizes;
  /// Per-thread frame bytes of each kernel that has a block function
  /// (cucpu-form-regions, cucpu-emit-block-functions).
  llvm::StringMap<uint32_t> KernelFrame;
  /// Why a kernel has no block function and runs on the fallback engine.
  llvm::StringMap<std::string> FallbackReasons;
};

/// Records in \p M that kernel \p Kernel uses \p Bytes of static shared
/// memory. A later record of the same name replaces an earlier one.
void recordKernelShared(llvm::Module &M, llvm::StringRef Kernel,
                        uint32_t Bytes);
/// Records the size of module variable \p Name.
void recordGlobalSize(llvm::Module &M, llvm::StringRef Name, uint64_t Bytes);
/// Records the per-thread frame of \p Kernel's block function.
void recordKernelFrame(llvm::Module &M, llvm::StringRef Kernel, uint32_t Bytes);
/// Records why \p Kernel has no block function.
void recordFallbackReason(llvm::Module &M, llvm::StringRef Kernel,
                          llvm::StringRef Reason);
/// Everything the passes recorded in \p M.
LoweringResults readLoweringResults(const llvm::Module &M);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_LOWERINGMETADATA_H
