//===- CopyRegion.h - 2D and 3D copies between any memories -----*- C++ -*-===//
#ifndef CUCPU_DRIVER_API_COPYREGION_H
#define CUCPU_DRIVER_API_COPYREGION_H

#include <cuda.h>

#include "llvm/Support/Error.h"

namespace cucpu::api {

/// cuMemcpy2D and its forms: a rectangle between host memory, device memory
/// and CUDA arrays (the array's first slice), validated as NVIDIA does, run
/// in \p Stream's order (queued when \p Async and no side is pageable).
llvm::Error copy2D(const CUDA_MEMCPY2D *Copy, CUstream Stream = nullptr,
                   bool Async = false);
/// cuMemcpy3D and its forms: a box between the same kinds of memory.
llvm::Error copy3D(const CUDA_MEMCPY3D *Copy, CUstream Stream = nullptr,
                   bool Async = false);

/// A memset node's work (cuGraphAddMemsetNode): \p P.height rows of
/// \p P.width elements of \p P.elementSize bytes, on the legacy stream's
/// order (graph code runs it under a WorkRecorder).
llvm::Error memsetNode(const CUDA_MEMSET_NODE_PARAMS &P);
} // namespace cucpu::api

#endif // CUCPU_DRIVER_API_COPYREGION_H
