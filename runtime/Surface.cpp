//===- Surface.cpp - Surface objects of the runtime API -------------------===//
//
// cudaCreateSurfaceObject, cudaGetSurfaceObjectResourceDesc and
// cudaDestroySurfaceObject over cuSurfObject*. CUDA 12 and later runtimes
// have no surface references (cudaBindSurfaceToArray is gone from the
// headers); programs reach those through the driver API. The answers to bad
// arguments are those of NVIDIA's runtime on an H200 (docs/surfaces.md).
//
//===----------------------------------------------------------------------===//
#include "Context.h"
#include "Errors.h"

using namespace cucpu;
using namespace cucpu::rt;

extern "C" {

cudaError_t CUDARTAPI cudaCreateSurfaceObject(
    cudaSurfaceObject_t *SurfObject, const struct cudaResourceDesc *Res) {
  CUDART_FAIL_IF(!Res, cudaErrorInvalidValue,
                 "The resource descriptor must not be null.");
  // As for texture objects, NVIDIA checks the array before the result
  // pointer.
  CUDART_FAIL_IF(Res->resType == cudaResourceTypeArray && !Res->res.array.array,
                 cudaErrorInvalidResourceHandle,
                 "The surface's array handle is null.");
  CUDART_FAIL_IF(!SurfObject, cudaErrorInvalidValue,
                 "The surface object pointer is null.");
  CUDART_FAIL_IF(Res->resType != cudaResourceTypeArray, cudaErrorInvalidValue,
                 "A surface object reads a CUDA array, not resource type %d.",
                 static_cast<int>(Res->resType));
  CUDART_CONTEXT(Ctx);
  CUDA_RESOURCE_DESC R = {};
  R.resType = CU_RESOURCE_TYPE_ARRAY;
  R.res.array.hArray =
      reinterpret_cast<CUarray>(const_cast<cudaArray *>(Res->res.array.array));
  R.flags = Res->flags;
  CUsurfObject Object = 0;
  CUDART_DRIVER(cuSurfObjectCreate(&Object, &R));
  *SurfObject = Object;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetSurfaceObjectResourceDesc(
    struct cudaResourceDesc *Res, cudaSurfaceObject_t Object) {
  // NVIDIA's runtime answers a null descriptor pointer with
  // cudaErrorInvalidDevice.
  CUDART_FAIL_IF(!Res, cudaErrorInvalidDevice,
                 "The resource descriptor pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDA_RESOURCE_DESC R;
  CUDART_DRIVER(cuSurfObjectGetResourceDesc(&R, Object));
  *Res = {};
  Res->resType = cudaResourceTypeArray;
  Res->res.array.array = reinterpret_cast<cudaArray_t>(R.res.array.hArray);
  Res->flags = R.flags;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDestroySurfaceObject(cudaSurfaceObject_t Object) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuSurfObjectDestroy(Object));
  return cudaSuccess;
}

} // extern "C"
