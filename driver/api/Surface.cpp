//===- Surface.cpp - Surface references and objects (CUDA 4 guide 3.2.10.2)
//===//
//
// The answers, NULL pointers and foreign handles included, are those of
// NVIDIA's driver on an H200 (docs/surfaces.md).
//
//===----------------------------------------------------------------------===//
#include "core/Surface.h"
#include "api/Handles.h"
#include "core/EntryPoint.h"

using namespace cucpu;
using namespace cucpu::api;

namespace {
/// The live surface reference \p H names, or CUDA_ERROR_INVALID_HANDLE.
llvm::Expected<std::shared_ptr<SurfRef>> lookupSurfRef(CUsurfref H) {
  return lookupHandle<SurfRef>(H, {"surface reference"});
}

/// The live surface object \p H names, or null.
std::shared_ptr<SurfObject> findSurfObject(CUsurfObject H) {
  return HandleRegistry::get().findAs<SurfObject>(
      reinterpret_cast<const void *>(uintptr_t(H)));
}
} // namespace

// --- Surface references ----------------------------------------------------

CUCPU_EXPORT CUresult CUDAAPI cuSurfRefSetArray(CUsurfref H, CUarray A,
                                                unsigned int Flags) {
  return CU_ENTRY(H, A, Flags).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<SurfRef> R, lookupSurfRef(H));
    CU_TRY_ASSIGN(std::shared_ptr<Array> Bound, lookupArray(A));
    return R->setArray(std::move(Bound), Flags);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuSurfRefGetArray(CUarray *Out, CUsurfref H) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The result pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<SurfRef> R, lookupSurfRef(H));
    // Unbound (never, or its array destroyed): the result is left alone.
    CU_TRY_ASSIGN(std::shared_ptr<Array> A, R->array());
    *Out = toHandle(*A);
    return llvm::Error::success();
  });
}

// --- Surface objects -------------------------------------------------------

CUCPU_EXPORT CUresult CUDAAPI
cuSurfObjectCreate(CUsurfObject *Out, const CUDA_RESOURCE_DESC *Res) {
  return CU_ENTRY(Out, Res).run([&]() -> llvm::Error {
    // NVIDIA's driver crashes on a NULL result pointer.
    CU_INVALID_IF(!Out || !Res, CUDA_ERROR_INVALID_VALUE,
                  "The surface object and resource description pointers "
                  "must not be NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<SurfObject> O, SurfObject::create(Ctx, *Res));
    *Out = O->handle();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuSurfObjectDestroy(CUsurfObject H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    // NVIDIA's driver answers success for any value that is no live
    // surface object (0, a destroyed one, a texture object), and does
    // nothing.
    std::shared_ptr<SurfObject> O = findSurfObject(H);
    if (!O)
      return llvm::Error::success();
    // Queued launches may still access the surface through its handle.
    if (std::shared_ptr<Context> Ctx = O->context())
      CU_TRY(Ctx->queues().drain());
    HandleRegistry::get().remove(O->handleKey());
    if (std::shared_ptr<Context> Ctx = O->context())
      Ctx->disown(O.get());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *Out, CUsurfObject H) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The result pointer is NULL.");
    std::shared_ptr<SurfObject> O = findSurfObject(H);
    CU_INVALID_IF(!O, CUDA_ERROR_INVALID_VALUE,
                  "{0:x} is not a live surface object.", uint64_t(H));
    // NVIDIA's driver writes these three fields and leaves the rest.
    Out->resType = CU_RESOURCE_TYPE_ARRAY;
    Out->res.array.hArray = O->array();
    Out->flags = 0;
    return llvm::Error::success();
  });
}
