//===- Surface.cpp - Surface references and surface objects ---------------===//
//
// Validation follows what NVIDIA's driver answers (measured on an H200,
// docs/surfaces.md).
//
//===----------------------------------------------------------------------===//
#include "core/Surface.h"

#include "core/Array.h"
#include "core/Context.h"
#include "core/Error.h"
#include "core/HandleRegistry.h"

using namespace cucpu;

CucpuTexture cucpu::surfaceDescription(const Array &A) {
  CucpuTexture T{};
  const CUDA_ARRAY3D_DESCRIPTOR &D = A.descriptor();
  T.Kind = CucpuTextureArray;
  T.Data = A.data();
  T.Width = D.Width;
  T.Height = A.rows();
  T.Depth = A.slices(); // Layers, or 6 faces per cubemap.
  T.RowPitch = A.rowBytes();
  T.SlicePitch = A.sliceBytes();
  T.Format = D.Format;
  T.Channels = D.NumChannels;
  T.Magic = CucpuSurfaceMagic;
  // The array's shape, which suq's answers depend on.
  bool Layered = D.Flags & CUDA_ARRAY3D_LAYERED;
  if (D.Flags & CUDA_ARRAY3D_CUBEMAP)
    T.Shape = Layered ? CucpuShapeCubemapLayered : CucpuShapeCubemap;
  else if (Layered)
    T.Shape = D.Height ? CucpuShape2DLayered : CucpuShape1DLayered;
  else
    T.Shape = D.Depth ? CucpuShape3D : D.Height ? CucpuShape2D : CucpuShape1D;
  return T;
}

// --- SurfRef ------------------------------------------------------------

llvm::Error SurfRef::setArray(std::shared_ptr<Array> A, unsigned Flags) {
  CU_INVALID_IF(Flags != 0, CUDA_ERROR_INVALID_VALUE,
                "cuSurfRefSetArray takes flags 0, not {0:x}.", Flags);
  // "CUDA arrays need to be created with the cudaArraySurfaceLoadStore
  // flag to be bound to surface references" (CUDA 4 guide 3.2.10.2.1).
  CU_INVALID_IF(!(A->descriptor().Flags & CUDA_ARRAY3D_SURFACE_LDST),
                CUDA_ERROR_INVALID_VALUE,
                "The array was not created with CUDA_ARRAY3D_SURFACE_LDST, "
                "which a surface reference needs.");
  std::lock_guard Lock(Mutex);
  Bound = A;
  return llvm::Error::success();
}

llvm::Expected<std::shared_ptr<Array>> SurfRef::array() const {
  std::lock_guard Lock(Mutex);
  std::shared_ptr<Array> A = Bound.lock();
  CU_INVALID_IF(!A || A->destroyed(), CUDA_ERROR_INVALID_VALUE,
                "The surface reference is not bound to an array.");
  return A;
}

CucpuTexture SurfRef::describe(std::shared_ptr<Array> &Keep) const {
  std::lock_guard Lock(Mutex);
  CucpuTexture T{};
  Keep = Bound.lock();
  if (Keep && !Keep->destroyed())
    T = surfaceDescription(*Keep);
  // Unbound, it reads zeros (Kind CucpuTextureUnbound), as on NVIDIA.
  T.Magic = CucpuSurfaceMagic;
  return T;
}

// --- SurfObject ---------------------------------------------------------

llvm::Expected<std::shared_ptr<SurfObject>>
SurfObject::create(const std::shared_ptr<Context> &Ctx,
                   const CUDA_RESOURCE_DESC &Res) {
  // NVIDIA's driver takes an array of any flags (CUDA_ARRAY3D_SURFACE_LDST
  // or not) and refuses every other resource type.
  CU_INVALID_IF(Res.resType != CU_RESOURCE_TYPE_ARRAY, CUDA_ERROR_INVALID_VALUE,
                "A surface object reads a CUDA array (resource type {0}), "
                "not resource type {1}.",
                int(CU_RESOURCE_TYPE_ARRAY), int(Res.resType));
  CU_INVALID_IF(Res.flags != 0, CUDA_ERROR_INVALID_VALUE,
                "The resource description's flags must be 0, not {0:x}.",
                Res.flags);
  auto A = HandleRegistry::get().findAs<Array>(Res.res.array.hArray);
  CU_INVALID_IF(!A || A->destroyed(), CUDA_ERROR_INVALID_VALUE,
                "The resource's array {0} is not a live CUarray.",
                static_cast<const void *>(Res.res.array.hArray));
  std::shared_ptr<SurfObject> O(new SurfObject);
  O->Surface = surfaceDescription(*A);
  O->ArrayHandle = Res.res.array.hArray;
  O->Keep = std::move(A);
  O->Owner = Ctx;
  HandleRegistry::get().add(O);
  Ctx->own(O);
  return O;
}

SurfObject::~SurfObject() {
  // An access through the destroyed object's handle that still finds this
  // memory fails the launch instead of reaching the array of before.
  *static_cast<volatile uint32_t *>(&Surface.Magic) = 0;
}
