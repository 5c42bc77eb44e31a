//===- Copy.cpp - cudaMemcpy*, cudaMemset* and symbol copies --------------===//
//
// Every pointer the runtime sees lies in the unified address space, so the
// copy kind only has to be valid: the driver finds where each side lives
// (cudaMemcpyDefault is the same for any kind).
//
//===----------------------------------------------------------------------===//
#include "Copy.h"
#include "Context.h"
#include "Errors.h"
#include "Registry.h"

using namespace cucpu;
using namespace cucpu::rt;

namespace {

CUdeviceptr address(const void *P) { return reinterpret_cast<CUdeviceptr>(P); }

/// A 2D copy of \p Width bytes by \p Height rows between unified addresses.
CUDA_MEMCPY2D copy2D(void *Dst, size_t DPitch, const void *Src, size_t SPitch,
                     size_t Width, size_t Height) {
  CUDA_MEMCPY2D C = {};
  C.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  C.srcDevice = address(Src);
  C.srcPitch = SPitch;
  C.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  C.dstDevice = address(Dst);
  C.dstPitch = DPitch;
  C.WidthInBytes = Width;
  C.Height = Height;
  return C;
}

cudaError_t check2D(const char *Function, size_t DPitch, size_t SPitch,
                    size_t Width, size_t Height, cudaMemcpyKind Kind) {
  CUDART_TRY(checkCopyKind(Function, Kind));
  CUDART_TRY(checkPitch(Function, SPitch, Width, Height));
  CUDART_TRY(checkPitch(Function, DPitch, Width, Height));
  return cudaSuccess;
}

} // namespace

cudaError_t rt::checkCopyKind(const char *Function, cudaMemcpyKind Kind) {
  if (Kind >= cudaMemcpyHostToHost && Kind <= cudaMemcpyDefault)
    return cudaSuccess;
  return fail(Function, cudaErrorInvalidMemcpyDirection,
              "Copy kind %d is not a cudaMemcpyKind.", static_cast<int>(Kind));
}

cudaError_t rt::checkPitch(const char *Function, size_t Pitch, size_t Width,
                           size_t Height) {
  CUDART_FAIL_IF_FOR(Function, Height > 1 && Width > Pitch,
                     cudaErrorInvalidPitchValue,
                     "A row of %zu bytes exceeds the pitch %zu.", Width, Pitch);
  CUDART_FAIL_IF_FOR(Function, Height == 1 && Pitch != 0 && Width > Pitch,
                     cudaErrorInvalidValue,
                     "A row of %zu bytes exceeds the pitch %zu (a single row "
                     "takes 0 or at least its width).",
                     Width, Pitch);
  return cudaSuccess;
}

cudaError_t rt::symbolAddress(const char *Function, const void *Symbol,
                              size_t Count, size_t Offset, bool ToSymbol,
                              cudaMemcpyKind Kind, CUdeviceptr &Out) {
  cudaMemcpyKind Host =
      ToSymbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  CUDART_FAIL_IF_FOR(Function,
                     Kind != Host && Kind != cudaMemcpyDeviceToDevice &&
                         Kind != cudaMemcpyDefault,
                     cudaErrorInvalidMemcpyDirection,
                     "A copy %s a symbol cannot have kind %d.",
                     ToSymbol ? "to" : "from", static_cast<int>(Kind));
  CUDART_CONTEXT_FOR(Function, Ctx);
  size_t Size = 0;
  CUDART_TRY(findSymbol(Function, Symbol, Ctx, Out, Size));
  CUDART_FAIL_IF_FOR(
      Function, Offset > Size || Count > Size - Offset, cudaErrorInvalidValue,
      "%zu bytes at offset %zu do not fit in the %zu-byte symbol.", Count,
      Offset, Size);
  Out += Offset;
  return cudaSuccess;
}

CUDA_MEMCPY3D rt::linearCopy3D(CUdeviceptr Dst, CUdeviceptr Src, size_t Count) {
  CUDA_MEMCPY3D C = {};
  C.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  C.srcDevice = Src;
  C.srcPitch = Count;
  C.srcHeight = 1;
  C.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  C.dstDevice = Dst;
  C.dstPitch = Count;
  C.dstHeight = 1;
  C.WidthInBytes = Count;
  C.Height = 1;
  C.Depth = 1;
  return C;
}

extern "C" {

cudaError_t CUDARTAPI cudaMemcpy(void *Dst, const void *Src, size_t Count,
                                 enum cudaMemcpyKind Kind) {
  CUDART_TRY(checkCopyKind(__func__, Kind));
  CUDART_CONTEXT(Ctx);
  if (Count == 0)
    return cudaSuccess;
  CUDART_DRIVER(cuMemcpy(address(Dst), address(Src), Count));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpyAsync(void *Dst, const void *Src, size_t Count,
                                      enum cudaMemcpyKind Kind,
                                      cudaStream_t Stream) {
  CUDART_TRY(checkCopyKind(__func__, Kind));
  CUDART_CONTEXT(Ctx);
  if (Count == 0)
    return cudaSuccess;
  CUDART_DRIVER(cuMemcpyAsync(address(Dst), address(Src), Count, Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpyPeer(void *Dst, int DstDevice, const void *Src,
                                     int SrcDevice, size_t Count) {
  CUDART_TRY(checkDevice(__func__, DstDevice));
  CUDART_TRY(checkDevice(__func__, SrcDevice));
  CUDART_CONTEXT(Ctx);
  if (Count == 0)
    return cudaSuccess;
  // The pointers are unified: the devices only name where they live.
  CUDART_DRIVER(cuMemcpy(address(Dst), address(Src), Count));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpyPeerAsync(void *Dst, int DstDevice,
                                          const void *Src, int SrcDevice,
                                          size_t Count, cudaStream_t Stream) {
  CUDART_TRY(checkDevice(__func__, DstDevice));
  CUDART_TRY(checkDevice(__func__, SrcDevice));
  CUDART_CONTEXT(Ctx);
  if (Count == 0)
    return cudaSuccess;
  CUDART_DRIVER(cuMemcpyAsync(address(Dst), address(Src), Count, Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpy2D(void *Dst, size_t DPitch, const void *Src,
                                   size_t SPitch, size_t Width, size_t Height,
                                   enum cudaMemcpyKind Kind) {
  CUDART_TRY(check2D(__func__, DPitch, SPitch, Width, Height, Kind));
  CUDART_CONTEXT(Ctx);
  if (Width == 0 || Height == 0)
    return cudaSuccess;
  CUDA_MEMCPY2D C = copy2D(Dst, DPitch, Src, SPitch, Width, Height);
  CUDART_DRIVER(cuMemcpy2DUnaligned(&C));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpy2DAsync(void *Dst, size_t DPitch,
                                        const void *Src, size_t SPitch,
                                        size_t Width, size_t Height,
                                        enum cudaMemcpyKind Kind,
                                        cudaStream_t Stream) {
  CUDART_TRY(check2D(__func__, DPitch, SPitch, Width, Height, Kind));
  CUDART_CONTEXT(Ctx);
  if (Width == 0 || Height == 0)
    return cudaSuccess;
  CUDA_MEMCPY2D C = copy2D(Dst, DPitch, Src, SPitch, Width, Height);
  CUDART_DRIVER(cuMemcpy2DAsync(&C, Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemset(void *DevPtr, int Value, size_t Count) {
  CUDART_CONTEXT(Ctx);
  if (Count == 0)
    return cudaSuccess;
  CUDART_DRIVER(
      cuMemsetD8(address(DevPtr), static_cast<unsigned char>(Value), Count));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemsetAsync(void *DevPtr, int Value, size_t Count,
                                      cudaStream_t Stream) {
  CUDART_CONTEXT(Ctx);
  if (Count == 0)
    return cudaSuccess;
  CUDART_DRIVER(cuMemsetD8Async(
      address(DevPtr), static_cast<unsigned char>(Value), Count, Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemset2D(void *DevPtr, size_t Pitch, int Value,
                                   size_t Width, size_t Height) {
  CUDART_CONTEXT(Ctx);
  CUDART_FAIL_IF(Width > Pitch, cudaErrorInvalidValue,
                 "A row of %zu bytes exceeds the pitch %zu.", Width, Pitch);
  if (Width == 0 || Height == 0)
    return cudaSuccess;
  CUDART_DRIVER(cuMemsetD2D8(address(DevPtr), Pitch,
                             static_cast<unsigned char>(Value), Width, Height));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemset2DAsync(void *DevPtr, size_t Pitch, int Value,
                                        size_t Width, size_t Height,
                                        cudaStream_t Stream) {
  CUDART_CONTEXT(Ctx);
  CUDART_FAIL_IF(Width > Pitch, cudaErrorInvalidValue,
                 "A row of %zu bytes exceeds the pitch %zu.", Width, Pitch);
  if (Width == 0 || Height == 0)
    return cudaSuccess;
  CUDART_DRIVER(cuMemsetD2D8Async(address(DevPtr), Pitch,
                                  static_cast<unsigned char>(Value), Width,
                                  Height, Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemset3DAsync(struct cudaPitchedPtr Ptr, int Value,
                                        struct cudaExtent Extent,
                                        cudaStream_t Stream) {
  CUDART_CONTEXT(Ctx);
  CUDART_FAIL_IF(Extent.width > Ptr.pitch, cudaErrorInvalidValue,
                 "A row of %zu bytes exceeds the pitch %zu.", Extent.width,
                 Ptr.pitch);
  if (Extent.width == 0 || Extent.height == 0 || Extent.depth == 0)
    return cudaSuccess;
  // One 2D set per slice: a slice is ysize rows of the pitch.
  size_t SlicePitch = Ptr.pitch * Ptr.ysize;
  for (size_t Z = 0; Z < Extent.depth; ++Z)
    CUDART_DRIVER(cuMemsetD2D8Async(address(Ptr.ptr) + Z * SlicePitch,
                                    Ptr.pitch,
                                    static_cast<unsigned char>(Value),
                                    Extent.width, Extent.height, Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemset3D(struct cudaPitchedPtr Ptr, int Value,
                                   struct cudaExtent Extent) {
  CUDART_TRY(cudaMemset3DAsync(Ptr, Value, Extent, nullptr));
  CUDART_DRIVER(cuStreamSynchronize(nullptr));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void *Symbol, const void *Src,
                                         size_t Count, size_t Offset,
                                         enum cudaMemcpyKind Kind) {
  CUdeviceptr Dst = 0;
  CUDART_TRY(symbolAddress(__func__, Symbol, Count, Offset, /*ToSymbol=*/true,
                           Kind, Dst));
  if (Count)
    CUDART_DRIVER(cuMemcpy(Dst, address(Src), Count));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void *Dst, const void *Symbol,
                                           size_t Count, size_t Offset,
                                           enum cudaMemcpyKind Kind) {
  CUdeviceptr Src = 0;
  CUDART_TRY(symbolAddress(__func__, Symbol, Count, Offset, /*ToSymbol=*/false,
                           Kind, Src));
  if (Count)
    CUDART_DRIVER(cuMemcpy(address(Dst), Src, Count));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void *Symbol,
                                              const void *Src, size_t Count,
                                              size_t Offset,
                                              enum cudaMemcpyKind Kind,
                                              cudaStream_t Stream) {
  CUdeviceptr Dst = 0;
  CUDART_TRY(symbolAddress(__func__, Symbol, Count, Offset, /*ToSymbol=*/true,
                           Kind, Dst));
  if (Count)
    CUDART_DRIVER(cuMemcpyAsync(Dst, address(Src), Count, Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void *Dst, const void *Symbol,
                                                size_t Count, size_t Offset,
                                                enum cudaMemcpyKind Kind,
                                                cudaStream_t Stream) {
  CUdeviceptr Src = 0;
  CUDART_TRY(symbolAddress(__func__, Symbol, Count, Offset, /*ToSymbol=*/false,
                           Kind, Src));
  if (Count)
    CUDART_DRIVER(cuMemcpyAsync(address(Dst), Src, Count, Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetSymbolAddress(void **DevPtr, const void *Symbol) {
  CUDART_FAIL_IF(!DevPtr, cudaErrorInvalidValue, "The result pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUdeviceptr Address = 0;
  size_t Size = 0;
  CUDART_TRY(findSymbol(__func__, Symbol, Ctx, Address, Size));
  *DevPtr = reinterpret_cast<void *>(Address);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetSymbolSize(size_t *Size, const void *Symbol) {
  CUDART_FAIL_IF(!Size, cudaErrorInvalidValue, "The result pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUdeviceptr Address = 0;
  CUDART_TRY(findSymbol(__func__, Symbol, Ctx, Address, *Size));
  return cudaSuccess;
}

} // extern "C"
