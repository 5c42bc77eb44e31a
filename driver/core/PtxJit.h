//===- PtxJit.h - PTX text to a cucpu module image --------------*- C++ -*-===//
//
// The driver's PTX JIT as the loader sees it: PTX text goes through the PTX
// front end (ptx/) and comes back as a module image, so everything after
// (linking, lowering, the compute cache, launches) is the path cucc's images
// take.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_PTXJIT_H
#define CUCPU_DRIVER_CORE_PTXJIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cucpu {

/// What the PTX JIT is asked for (the JIT options of the load or link).
struct PtxJitOptions {
  /// CU_JIT_TARGET's SM number, 0 if not given. PTX whose .target is newer
  /// is CUDA_ERROR_INVALID_PTX, as ptxas refuses it; without the option any
  /// .target the front end reads is compiled.
  unsigned TargetArch = 0;
  /// Relocatable device code (cuLink*): functions and variables declared
  /// .extern may stay undefined until the link, and every .visible or
  /// .extern .func with scalar parameters is called with the C calling
  /// convention clang gives the same function, so PTX links with cucc's
  /// images as well as with PTX.
  bool Relocatable = false;
  /// CU_JIT_GENERATE_DEBUG_INFO, which ptxas refuses with an explicit
  /// CU_JIT_OPTIMIZATION_LEVEL above 0 ("Optimized debugging not
  /// supported"); without one it compiles at level 0.
  bool DebugInfo = false;
  /// CU_JIT_OPTIMIZATION_LEVEL, if the options had it (else 0).
  unsigned ExplicitOptLevel = 0;
  /// CU_JIT_LOG_VERBOSE: the info log gets a line for each kernel.
  bool Verbose = false;
  /// Receives the info log's lines ("info    : ..."); may be null.
  std::string *InfoLog = nullptr;
  /// The compute cache (CUDA_CACHE_DISABLE, _PATH, _MAXSIZE): images are
  /// kept there too, by the hash of the text, the options and the
  /// compiler's identity (CompilerIdentity.h), so another process skips the
  /// front end.
  bool CacheEnabled = true;
  std::string CachePath; ///< Empty: the compute cache's default directory.
  uint64_t CacheMaxBytes = 256u << 20;
};

/// The module image of the PTX text \p Text (which need not be
/// NUL-terminated). Errors carry CUDA_ERROR_INVALID_PTX or
/// CUDA_ERROR_UNSUPPORTED_PTX_VERSION and name the line.
llvm::Expected<std::vector<uint8_t>>
imageFromPtx(llvm::StringRef Text, const PtxJitOptions &Options = {});

/// Whether CUDA_DISABLE_PTX_JIT=1: PTX is never compiled, and a module that
/// has only PTX fails with CUDA_ERROR_JIT_COMPILATION_DISABLED.
bool ptxJitDisabled();
/// Whether CUDA_FORCE_PTX_JIT=1: the PTX of a fat binary wins over its
/// cucpu image, and PTX that carries a cucpu image is compiled itself.
bool ptxJitForced();

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_PTXJIT_H
