//===- LoweringState.h - What the lowering passes share ---------*- C++ -*-===//
//
// The GPU-to-CPU passes run in one textual pipeline; they cannot return
// errors through the pass manager, so they record them here, together with
// what they learn that the JIT needs afterwards (shared-memory layout, the
// sizes of module variables).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_PASSES_LOWERINGSTATE_H
#define CUCPU_MODULES_PASSES_LOWERINGSTATE_H

#include "JitError.h"
#include "ModuleImage.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cucpu::modules {

/// Attribute that marks a kernel (a __global__ function) during lowering.
inline constexpr const char *KernelAttr = "cucpu-kernel";
/// Attribute of every defined function whose first parameter is the hidden
/// CucpuThread pointer.
inline constexpr const char *ThreadArgAttr = "cucpu-thread-arg";
/// The thread entry of kernel K is named EntryPrefix + K.
inline constexpr const char *EntryPrefix = "__cucpu_entry.";
/// The block function of kernel K (JitAbi.h, CucpuBlockEntry), if it has one.
inline constexpr const char *BlockPrefix = "__cucpu_block.";
/// The work function of kernel K: its thread entry with the thread's
/// coordinates as arguments, from which the block function is formed.
inline constexpr const char *WorkPrefix = "__cucpu_work.";

/// Inputs and results of one run of the lowering pipeline.
struct LoweringState {
  /// The image whose IR is lowered (kernel parameter layouts).
  const loader::ModuleImage *Image = nullptr;
  /// Every external name the JIT can resolve (runtime library, engine
  /// services); a call to any other undefined function is an error.
  llvm::StringSet<> ExternalSymbols;
  /// CUCPU_MEMCHECK: kernel memory accesses are checked (cucpu-memcheck).
  bool Memcheck = false;
  /// The host's target triple and data layout string.
  std::string TargetTriple;
  std::string DataLayout;

  /// Static shared memory bytes of each kernel (cucpu-shared-memory).
  llvm::StringMap<uint32_t> KernelShared;
  /// Module-scope variables (__device__, __constant__) and their sizes.
  llvm::StringMap<uint64_t> GlobalSizes;
  /// Per-thread frame bytes of each kernel that has a block function
  /// (cucpu-block-functions).
  llvm::StringMap<uint32_t> KernelFrame;
  /// Why a kernel has no block function and runs on the fallback engine.
  llvm::StringMap<std::string> FallbackReasons;

  /// Records a failure; the first kind recorded is the one reported.
  void fail(JitErrorKind Kind, const llvm::Twine &Message) {
    if (Messages.empty())
      FirstKind = Kind;
    Messages.push_back(Message.str());
  }
  /// Whether a pass failed.
  bool failed() const { return !Messages.empty(); }
  /// All failures as one error (success if none).
  llvm::Error takeError() {
    if (Messages.empty())
      return llvm::Error::success();
    std::string Text;
    for (const std::string &M : Messages)
      Text += (Text.empty() ? "" : " ") + M;
    Messages.clear();
    return makeJitError(FirstKind, Text);
  }

private:
  JitErrorKind FirstKind = JitErrorKind::Internal;
  std::vector<std::string> Messages;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_LOWERINGSTATE_H
