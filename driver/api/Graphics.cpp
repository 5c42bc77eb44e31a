//===- Graphics.cpp - Graphics-resource entry points ----------------------===//
//
// The API-independent half of graphics interoperability (CUDA 11 guide
// §3.2.12): mapping, unmapping and unregistering resources and reaching
// their memory while mapped. The OpenGL registration calls are in
// GraphicsGL.cpp.
//
//===----------------------------------------------------------------------===//
#include "api/Graphics.h"

#include "api/Handles.h"
#include "api/StreamCapture.h"
#include "api/StreamWork.h"
#include "core/EntryPoint.h"
#include "core/GlFunctions.h"

#include <vector>

using namespace cucpu;
using namespace cucpu::api;

llvm::Expected<std::shared_ptr<GraphicsResource>>
api::lookupResource(CUgraphicsResource H) {
  return lookupHandle<GraphicsResource>(H, {"graphics resource"});
}

namespace {

using ResourceList = std::vector<std::shared_ptr<GraphicsResource>>;

/// The resources of a map or unmap call. "If resources includes any
/// duplicate entries then CUDA_ERROR_INVALID_HANDLE is returned" (cuda.h).
llvm::Expected<ResourceList> resourceList(unsigned Count,
                                          CUgraphicsResource *Handles) {
  // NVIDIA's driver refuses an empty list as well as a NULL array.
  CU_INVALID_IF(Count == 0, CUDA_ERROR_INVALID_VALUE,
                "The resource count is 0.");
  CU_INVALID_IF(!Handles, CUDA_ERROR_INVALID_VALUE,
                "The resource array is NULL for {0} resources.", Count);
  ResourceList Rs;
  for (unsigned I = 0; I < Count; ++I) {
    CU_TRY_ASSIGN(std::shared_ptr<GraphicsResource> R,
                  lookupResource(Handles[I]));
    for (const std::shared_ptr<GraphicsResource> &Seen : Rs)
      CU_INVALID_IF(Seen == R, CUDA_ERROR_INVALID_HANDLE,
                    "Graphics resource {0} appears twice in the list.",
                    static_cast<const void *>(Handles[I]));
    Rs.push_back(std::move(R));
  }
  return Rs;
}

/// The queue of stream \p H, for a map or unmap: "any graphics calls issued
/// before cuGraphicsMapResources() will complete before any subsequent CUDA
/// work issued in stream begins" (cuda.h). Graphics work cannot become a
/// node of a captured graph.
llvm::Expected<WorkQueue &> graphicsQueue(CUstream H, const char *What) {
  CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
  CU_TRY_ASSIGN(std::shared_ptr<Stream> S, usableStream(H));
  CU_TRY(refuseWhileCapturing(S.get(), What));
  CU_TRY_ASSIGN(WorkQueue & Q, queueFor(S.get(), *C));
  return Q;
}

} // namespace

llvm::Error
api::mapResources(llvm::ArrayRef<std::shared_ptr<GraphicsResource>> Rs,
                  CUstream H) {
  CU_TRY_ASSIGN(WorkQueue & Q, graphicsQueue(H, "mapping graphics resources"));
  if (Rs.empty())
    return llvm::Error::success();
  CU_TRY_ASSIGN(const gl::Functions &F, gl::current());
  for (size_t I = 0; I < Rs.size(); ++I) {
    if (llvm::Error E = Rs[I]->claimForMap()) {
      for (size_t J = 0; J < I; ++J)
        Rs[J]->abandonMap();
      return E;
    }
  }
  // GL calls are made on this thread, where the GL context is current, once
  // the stream has run the work issued before.
  llvm::Error Result = llvm::Error::success();
  CU_TRY(Q.runInOrder([&] {
    for (size_t I = 0; I < Rs.size(); ++I) {
      if (llvm::Error E = Rs[I]->map(F)) {
        // All or none: undo the mappings made, give up the claims left.
        for (size_t J = 0; J < I; ++J) {
          llvm::consumeError(Rs[J]->claimForUnmap());
          llvm::consumeError(Rs[J]->unmap(nullptr));
        }
        for (size_t J = I + 1; J < Rs.size(); ++J)
          Rs[J]->abandonMap();
        Result = std::move(E);
        return;
      }
    }
  }));
  return Result;
}

llvm::Error
api::unmapResources(llvm::ArrayRef<std::shared_ptr<GraphicsResource>> Rs,
                    CUstream H) {
  CU_TRY_ASSIGN(WorkQueue & Q,
                graphicsQueue(H, "unmapping graphics resources"));
  if (Rs.empty())
    return llvm::Error::success();
  CU_TRY_ASSIGN(const gl::Functions &F, gl::current());
  for (size_t I = 0; I < Rs.size(); ++I) {
    if (llvm::Error E = Rs[I]->claimForUnmap()) {
      // Put back the claims taken: those resources stay mapped.
      for (size_t J = 0; J < I; ++J)
        Rs[J]->abandonUnmap();
      return E;
    }
  }
  llvm::Error Result = llvm::Error::success();
  CU_TRY(Q.runInOrder([&] {
    for (const std::shared_ptr<GraphicsResource> &R : Rs)
      Result = llvm::joinErrors(std::move(Result), R->unmap(&F));
  }));
  return Result;
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphicsMapResources(
    unsigned int Count, CUgraphicsResource *Resources, CUstream H) {
  return CU_ENTRY(Count, Resources, H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(ResourceList Rs, resourceList(Count, Resources));
    CU_TRY(current::require());
    return mapResources(Rs, H);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphicsUnmapResources(
    unsigned int Count, CUgraphicsResource *Resources, CUstream H) {
  return CU_ENTRY(Count, Resources, H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(ResourceList Rs, resourceList(Count, Resources));
    CU_TRY(current::require());
    return unmapResources(Rs, H);
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphicsUnregisterResource(CUgraphicsResource H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphicsResource> R, lookupResource(H));
    if (!HandleRegistry::get().remove(R.get()))
      return llvm::Error::success(); // Another thread unregistered it.
    // A resource unregistered while mapped gives GL its contents back first
    // when the GL context is current (there is nowhere to put them else).
    if (llvm::Error E = R->claimForUnmap()) {
      llvm::consumeError(std::move(E));
    } else {
      auto F = gl::current();
      if (!F)
        llvm::consumeError(F.takeError());
      llvm::consumeError(R->unmap(F ? &*F : nullptr));
    }
    R->release();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphicsResourceGetMappedPointer_v2(
    CUdeviceptr *Pointer, size_t *Size, CUgraphicsResource H) {
  return CU_ENTRY(Pointer, Size, H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphicsResource> R, lookupResource(H));
    return R->mappedPointer(Pointer, Size);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphicsSubResourceGetMappedArray(
    CUarray *Out, CUgraphicsResource H, unsigned int ArrayIndex,
    unsigned int MipLevel) {
  return CU_ENTRY(Out, H, ArrayIndex, MipLevel).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphicsResource> R, lookupResource(H));
    CU_TRY_ASSIGN(std::shared_ptr<Array> A,
                  R->mappedArray(ArrayIndex, MipLevel));
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The array pointer is NULL.");
    *Out = toHandle(*A);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphicsResourceGetMappedMipmappedArray(
    CUmipmappedArray *Out, CUgraphicsResource H) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphicsResource> R, lookupResource(H));
    CU_INVALID_IF(!R->mapped(), CUDA_ERROR_NOT_MAPPED,
                  "The graphics resource is not mapped.");
    CU_INVALID_IF(R->isBuffer(), CUDA_ERROR_NOT_MAPPED_AS_ARRAY,
                  "The graphics resource is a buffer, which CUDA sees "
                  "through a pointer, not as a mipmapped array.");
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The mipmapped array pointer is NULL.");
    return makeError(CUDA_ERROR_NOT_SUPPORTED,
                     "cucpu maps an image's levels as separate arrays "
                     "(cuGraphicsSubResourceGetMappedArray), not as a "
                     "mipmapped array.");
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphicsResourceSetMapFlags_v2(CUgraphicsResource H, unsigned int Flags) {
  return CU_ENTRY(H, Flags).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphicsResource> R, lookupResource(H));
    return R->setMapFlags(Flags);
  });
}
