//===- JitModule.h - One module image, compiled for the host ----*- C++ -*-===//
//
// modules/ turns a loader::ModuleImage into code the driver can run: the
// NVVM-style IR is lowered to the host (GPU-to-CPU passes in modules/passes/),
// compiled with ORC (one JITDylib per loaded module), and every kernel gets a
// block function where it can (a whole block per call) and a thread entry
// for the fiber engine (JitAbi.h), compiled when first needed. Objects are
// kept in the compute cache (ComputeCache.h, CompilerIdentity.h). modules/
// knows nothing of handles or contexts.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_JITMODULE_H
#define CUCPU_MODULES_JITMODULE_H

#include "cucpu/loader/ModuleImage.h"
#include "cucpu/modules/Specialization.h"
#include "cucpu/modules/abi/JitAbi.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>

namespace cucpu::modules {

/// How to compile a module.
struct JitOptions {
  unsigned OptLevel = 3;
  /// Addresses of the execution engine's services (the __cucpu_* functions
  /// of JitAbi.h) by name; every one the IR needs must be given.
  llvm::StringMap<void *> RuntimeSymbols;
  /// Compute cache; CUDA_CACHE_DISABLE / _PATH / _MAXSIZE fill these.
  bool CacheEnabled = true;
  std::string CachePath; ///< Empty: $HOME/.nv/ComputeCache-cucpu.
  uint64_t CacheMaxBytes = 256u << 20;
  /// CUCPU_MEMCHECK=1: every kernel memory access is checked against the
  /// allocations (MemcheckPass.h).
  bool Memcheck = false;
  /// Compile only the kernels' thread entries, all at load, and no block
  /// functions (CUCPU_EXEC=fallback runs every kernel on the fiber engine).
  /// Otherwise a kernel with a block function gets its thread entry when
  /// JitModule::threadEntry() first asks for it.
  bool ThreadEntriesOnly = false;
  /// Receives informational text (cuModuleLoadDataEx's info log).
  std::string *InfoLog = nullptr;
  /// Names the compiler in compute-cache keys; empty: this process's
  /// compilerIdentity() (CompilerIdentity.h).
  std::string CompilerIdentity;
};

/// A compiled kernel.
struct KernelEntry {
  /// Runs one CUDA thread; null until JitModule::threadEntry() compiles it
  /// (JitOptions::ThreadEntriesOnly).
  CucpuThreadEntry Entry = nullptr;
  /// Runs one whole block; null if the kernel has only the thread entry.
  CucpuBlockEntry Block = nullptr;
  /// Per-thread bytes of the block function's frame.
  uint32_t FrameBytes = 0;
  uint32_t StaticShared = 0;                ///< Bytes of static shared memory.
  const loader::KernelInfo *Info = nullptr; ///< From the image.
};

/// A module-scope variable of a loaded module.
struct GlobalEntry {
  void *Address = nullptr;
  uint64_t Size = 0;
};

/// Creates the process's JIT session and detects the host CPU once, ahead of
/// the first module load (cuInit calls it, as a GPU driver prepares its JIT
/// at initialization). A failure here is reported by the first load.
void prepareJit();

/// One loaded module image. Destroying it frees its code and data.
class JitModule {
public:
  /// Compiles \p Image; the error explains an invalid image (the driver
  /// answers CUDA_ERROR_INVALID_IMAGE) or a compiler failure.
  static llvm::Expected<std::unique_ptr<JitModule>>
  load(loader::ModuleImage Image, const JitOptions &Options);
  virtual ~JitModule();

  /// The kernel named \p Name, or an error if there is none.
  virtual llvm::Expected<KernelEntry> kernel(llvm::StringRef Name) const = 0;
  /// The __device__ / __constant__ variable named \p Name.
  virtual llvm::Expected<GlobalEntry> global(llvm::StringRef Name) const = 0;
  /// The image the module was loaded from.
  virtual const loader::ModuleImage &image() const = 0;
  /// Kernel \p Name's block function compiled for blocks of \p Shape
  /// (Specialization.h): from the compute cache, or compiled now (the
  /// module's IR is lowered again the first time). Compiled once per shape;
  /// thread-safe. Runs blocks of that shape only, with the generic block
  /// function's frame.
  virtual llvm::Expected<CucpuBlockEntry>
  specializedBlock(llvm::StringRef Name, const BlockShape &Shape) = 0;
  /// Kernel \p Name's thread entry, for the fiber engine: the one linked at
  /// load, or compiled now like a specialization (once; thread-safe).
  virtual llvm::Expected<CucpuThreadEntry>
  threadEntry(llvm::StringRef Name) = 0;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_JITMODULE_H
