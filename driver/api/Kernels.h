//===- Kernels.h - Function handles for the entry points --------*- C++ -*-===//
#ifndef CUCPU_DRIVER_API_KERNELS_H
#define CUCPU_DRIVER_API_KERNELS_H

#include "core/Function.h"
#include "core/Launcher.h"
#include "core/Library.h"
#include "core/Module.h"

#include <cuda.h>

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace cucpu::api {

inline CUfunction toHandle(Function &F) {
  return reinterpret_cast<CUfunction>(&F);
}
inline CUmodule toHandle(Module &M) { return reinterpret_cast<CUmodule>(&M); }
inline CUlibrary toHandle(Library &L) {
  return reinterpret_cast<CUlibrary>(&L);
}
inline CUkernel toHandle(Kernel &K) { return reinterpret_cast<CUkernel>(&K); }

/// The live function \p H names: CUDA_ERROR_INVALID_HANDLE for a null,
/// unloaded or foreign handle.
llvm::Expected<std::shared_ptr<Function>> lookupFunction(CUfunction H);

/// The function a launch in \p Ctx runs: \p H itself, or for a CUkernel its
/// function in \p Ctx (loaded there if need be). NVIDIA's launches take
/// either; its cuFunc* calls take functions only.
llvm::Expected<std::shared_ptr<Function>>
launchableFunction(CUfunction H, const std::shared_ptr<Context> &Ctx);

/// Checks that the grid of cooperative launch \p R of \p F fits on \p D at
/// once: no more blocks than cuOccupancyMaxActiveBlocksPerMultiprocessor
/// times the multiprocessor count (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE).
llvm::Error checkCooperativeFit(const Function &F, const Device &D,
                                const LaunchRequest &R);

/// Builds the parameter buffer of a launch of \p F from cuLaunchKernel's
/// kernelParams or extra (one of them, as the kernel's layout needs).
llvm::Error gatherLaunchParams(const Function &F, void **KernelParams,
                               void **Extra,
                               llvm::SmallVectorImpl<char> &Buffer);

/// The live library \p H names, or CUDA_ERROR_INVALID_HANDLE.
llvm::Expected<std::shared_ptr<Library>> lookupLibrary(CUlibrary H);

/// The live kernel \p H names, or CUDA_ERROR_INVALID_HANDLE.
llvm::Expected<std::shared_ptr<Kernel>> lookupKernel(CUkernel H);

/// Checks the arguments of a variable query (cuModuleGetGlobal,
/// cuLibraryGetGlobal, cuLibraryGetManaged): a name, and at least one of
/// the two outputs.
llvm::Error checkGlobalQuery(const CUdeviceptr *Ptr, const size_t *Bytes,
                             const char *Name);

/// Writes \p G's address and size to whichever of \p Ptr and \p Bytes is
/// given.
void writeGlobal(CUdeviceptr *Ptr, size_t *Bytes,
                 const modules::GlobalEntry &G);

/// The bytes of the module file at \p Path, followed by a NUL (text images
/// are read as strings): CUDA_ERROR_FILE_NOT_FOUND if it cannot be opened,
/// CUDA_ERROR_INVALID_IMAGE if it is empty.
llvm::Expected<std::vector<char>> readModuleFile(const char *Path);

/// The live module \p H names, or CUDA_ERROR_INVALID_HANDLE.
llvm::Expected<std::shared_ptr<Module>> lookupModule(CUmodule H);

} // namespace cucpu::api

#endif // CUCPU_DRIVER_API_KERNELS_H
