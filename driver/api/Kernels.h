//===- Kernels.h - Function handles for the entry points --------*- C++ -*-===//
#ifndef CUCPU_DRIVER_API_KERNELS_H
#define CUCPU_DRIVER_API_KERNELS_H

#include "core/Function.h"
#include "core/Module.h"

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <memory>

namespace cucpu::api {

inline CUfunction toHandle(Function &F) {
  return reinterpret_cast<CUfunction>(&F);
}
inline CUmodule toHandle(Module &M) { return reinterpret_cast<CUmodule>(&M); }

/// The live function \p H names: CUDA_ERROR_INVALID_HANDLE for a null,
/// unloaded or foreign handle.
llvm::Expected<std::shared_ptr<Function>> lookupFunction(CUfunction H);

/// The live module \p H names, or CUDA_ERROR_INVALID_HANDLE.
llvm::Expected<std::shared_ptr<Module>> lookupModule(CUmodule H);

} // namespace cucpu::api

#endif // CUCPU_DRIVER_API_KERNELS_H
