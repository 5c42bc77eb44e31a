//===- Architectures.h - The GPU architectures nvcc accepts -----*- C++ -*-===//
//
// cucc writes target-independent NVVM-style IR, so it accepts every
// architecture name nvcc does (sm_50 ... sm_121, their a/f variants,
// compute_*, native, all, all-major). What depends on the architecture is the
// source's view of it (__CUDA_ARCH__ and nvcc's other architecture macros)
// and the architecture clang is run with, which must be one clang 19 knows.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TOOLS_CUCC_ARCHITECTURES_H
#define CUCPU_TOOLS_CUCC_ARCHITECTURES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cucpu::cucc {

/// The architecture cucc compiles for when none is given, and what `native`
/// means: cucpu's device reports compute capability 7.5.
inline constexpr llvm::StringLiteral DefaultArch = "sm_75";

/// Maps one nvcc architecture name (sm_120, compute_90a, sm_100f, native) to
/// its real architecture sm_XX[a|f]. A name nvcc 12 or 13 does not accept is
/// an error in nvcc's words.
llvm::Expected<std::string> normalizeArch(llvm::StringRef Name);

/// The architectures an -arch/-code value names: `all` and `all-major` as
/// nvcc 13 expands them, anything else through normalizeArch.
llvm::Expected<std::vector<std::string>> expandArch(llvm::StringRef Name);

/// Every architecture `nvcc --list-gpu-code` prints (nvcc 13.0), in its order;
/// \p Virtual gives the compute_XX names of `--list-gpu-arch` instead.
std::vector<std::string> listedArchs(bool Virtual);

/// The value nvcc gives __CUDA_ARCH__ for \p Arch (sm_XX[a|f]): XX * 10.
unsigned cudaArchValue(llvm::StringRef Arch);

/// The architecture clang 19 is run with for \p Arch: \p Arch itself if clang
/// knows it, else the newest one clang knows that is older.
std::string clangArch(llvm::StringRef Arch);

/// The -U/-D flags that give the source nvcc's view of \p Arch when the
/// compilation covers \p AllArchs: __CUDA_ARCH__, __CUDA_ARCH_LIST__ and, for
/// the a/f variants, __CUDA_ARCH_SPECIFIC__, __CUDA_ARCH_FAMILY_SPECIFIC__,
/// __CUDA_ARCH_FEAT_SM<XX>_ALL.
std::vector<std::string> archMacros(llvm::StringRef Arch,
                                    llvm::ArrayRef<std::string> AllArchs);

} // namespace cucpu::cucc

#endif // CUCPU_TOOLS_CUCC_ARCHITECTURES_H
