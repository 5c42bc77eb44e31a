//===- Graphics.h - Shared code of the graphics entry points ----*- C++ -*-===//
//
// Handle lookup and the map and unmap operations that the graphics-resource
// API (Graphics.cpp) and the legacy OpenGL buffer API (GraphicsGL.cpp)
// share.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_API_GRAPHICS_H
#define CUCPU_DRIVER_API_GRAPHICS_H

#include "core/GraphicsResource.h"

#include <cuda.h>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace cucpu::api {

inline CUgraphicsResource toHandle(GraphicsResource &R) {
  return reinterpret_cast<CUgraphicsResource>(&R);
}

/// The live graphics resource \p H names, or CUDA_ERROR_INVALID_HANDLE.
llvm::Expected<std::shared_ptr<GraphicsResource>>
lookupResource(CUgraphicsResource H);

/// Maps \p Resources in stream \p H's order (all of them or none): copies
/// the GL objects' contents in on this thread, whose GL context must be
/// current, once the stream has done the work issued before.
llvm::Error mapResources(llvm::ArrayRef<std::shared_ptr<GraphicsResource>> Rs,
                         CUstream H);
/// Unmaps \p Resources in stream \p H's order: copies CUDA's contents back
/// into the GL objects once the stream has done the work issued before.
llvm::Error unmapResources(llvm::ArrayRef<std::shared_ptr<GraphicsResource>> Rs,
                           CUstream H);

} // namespace cucpu::api

#endif // CUCPU_DRIVER_API_GRAPHICS_H
