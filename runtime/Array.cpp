//===- Array.cpp - CUDA arrays, 3D copies and texture objects -------------===//
//
// cudaArray_t is the driver's CUarray. A runtime channel descriptor (bits
// per channel and a kind) becomes the driver's array format and channel
// count.
//
//===----------------------------------------------------------------------===//
#include "Context.h"
#include "Copy.h"
#include "Errors.h"
#include "Formats.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace cucpu;
using namespace cucpu::rt;

namespace {

CUarray driverArray(cudaArray_const_t A) {
  return reinterpret_cast<CUarray>(const_cast<cudaArray *>(A));
}

CUdeviceptr address(const void *P) { return reinterpret_cast<CUdeviceptr>(P); }

/// The runtime's channel descriptor of a driver format with \p Channels
/// channels.
cudaChannelFormatDesc channelDesc(CUarray_format Format, unsigned Channels) {
  int Bits = 32;
  cudaChannelFormatKind Kind = cudaChannelFormatKindFloat;
  switch (Format) {
  case CU_AD_FORMAT_UNSIGNED_INT8:
    Bits = 8, Kind = cudaChannelFormatKindUnsigned;
    break;
  case CU_AD_FORMAT_UNSIGNED_INT16:
    Bits = 16, Kind = cudaChannelFormatKindUnsigned;
    break;
  case CU_AD_FORMAT_UNSIGNED_INT32:
    Kind = cudaChannelFormatKindUnsigned;
    break;
  case CU_AD_FORMAT_SIGNED_INT8:
    Bits = 8, Kind = cudaChannelFormatKindSigned;
    break;
  case CU_AD_FORMAT_SIGNED_INT16:
    Bits = 16, Kind = cudaChannelFormatKindSigned;
    break;
  case CU_AD_FORMAT_SIGNED_INT32:
    Kind = cudaChannelFormatKindSigned;
    break;
  case CU_AD_FORMAT_HALF:
    Bits = 16;
    break;
  default:
    break;
  }
  cudaChannelFormatDesc D;
  D.x = Bits;
  D.y = Channels > 1 ? Bits : 0;
  D.z = Channels > 2 ? Bits : 0;
  D.w = Channels > 3 ? Bits : 0;
  D.f = Kind;
  return D;
}

/// Bytes per element of array \p A.
cudaError_t elementSize(const char *Function, CUarray A, size_t &Out) {
  CUDA_ARRAY3D_DESCRIPTOR D;
  if (CUresult R = cuArray3DGetDescriptor(&D, A))
    return failDriver(Function, R);
  size_t Channel = 4;
  switch (D.Format) {
  case CU_AD_FORMAT_UNSIGNED_INT8:
  case CU_AD_FORMAT_SIGNED_INT8:
    Channel = 1;
    break;
  case CU_AD_FORMAT_UNSIGNED_INT16:
  case CU_AD_FORMAT_SIGNED_INT16:
  case CU_AD_FORMAT_HALF:
    Channel = 2;
    break;
  default:
    break;
  }
  Out = Channel * D.NumChannels;
  return cudaSuccess;
}

/// One side of a 3D copy: an array (positions in elements) or a pitched
/// pointer (positions in bytes, rows of ysize).
cudaError_t copySide(const char *Function, cudaArray_t Array, cudaPos Pos,
                     cudaPitchedPtr Ptr, CUmemorytype &Type, CUarray &A,
                     CUdeviceptr &Device, size_t &Pitch, size_t &Height,
                     size_t &XInBytes, size_t &Element) {
  Element = 1;
  if (Array) {
    Type = CU_MEMORYTYPE_ARRAY;
    A = driverArray(Array);
    CUDART_TRY(elementSize(Function, A, Element));
    XInBytes = Pos.x * Element;
  } else {
    Type = CU_MEMORYTYPE_UNIFIED;
    Device = address(Ptr.ptr);
    Pitch = Ptr.pitch;
    Height = Ptr.ysize;
    XInBytes = Pos.x;
  }
  return cudaSuccess;
}

cudaError_t copy3D(const char *Function, const cudaMemcpy3DParms *P,
                   CUstream Stream, bool Async) {
  CUDART_CONTEXT_FOR(Function, Ctx);
  CUDA_MEMCPY3D C;
  CUDART_TRY(toDriverCopy3D(Function, P, C));
  if (C.WidthInBytes == 0 || C.Height == 0 || C.Depth == 0)
    return cudaSuccess;
  CUresult R = Async ? cuMemcpy3DAsync(&C, Stream) : cuMemcpy3D(&C);
  if (R != CUDA_SUCCESS)
    return failDriver(Function, R);
  return cudaSuccess;
}

/// One side of the driver's copy as the runtime describes it, the reverse
/// of copySide: an array with its position in elements, or a pointer with
/// its pitch and rows (xsize, which the driver does not keep, is the pitch).
cudaError_t runtimeSide(const char *Function, CUmemorytype Type, CUarray A,
                        CUdeviceptr Device, const void *Host, size_t Pitch,
                        size_t Height, size_t XInBytes, size_t Y, size_t Z,
                        cudaArray_t &Array, cudaPos &Pos, cudaPitchedPtr &Ptr,
                        size_t &Element) {
  Element = 1;
  if (Type == CU_MEMORYTYPE_ARRAY) {
    Array = reinterpret_cast<cudaArray_t>(A);
    CUDART_TRY(elementSize(Function, A, Element));
  } else {
    void *P = Type == CU_MEMORYTYPE_HOST ? const_cast<void *>(Host)
                                         : reinterpret_cast<void *>(Device);
    Ptr = cudaPitchedPtr{P, Pitch, Pitch, Height};
  }
  Pos = cudaPos{XInBytes / Element, Y, Z};
  return cudaSuccess;
}

/// A 2D copy with an array on one side: offsets in bytes and rows.
cudaError_t copy2DArray(const char *Function, cudaArray_t DstArray, size_t DstX,
                        size_t DstY, void *Dst, size_t DPitch,
                        cudaArray_const_t SrcArray, size_t SrcX, size_t SrcY,
                        const void *Src, size_t SPitch, size_t Width,
                        size_t Height, cudaMemcpyKind Kind, CUstream Stream,
                        bool Async) {
  CUDART_FAIL_IF_FOR(
      Function, Kind < cudaMemcpyHostToHost || Kind > cudaMemcpyDefault,
      cudaErrorInvalidMemcpyDirection, "Copy kind %d is not a cudaMemcpyKind.",
      static_cast<int>(Kind));
  if (!SrcArray)
    CUDART_TRY(checkPitch(Function, SPitch, Width, Height));
  if (!DstArray)
    CUDART_TRY(checkPitch(Function, DPitch, Width, Height));
  CUDART_CONTEXT_FOR(Function, Ctx);
  CUDA_MEMCPY2D C = {};
  if (SrcArray) {
    C.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    C.srcArray = driverArray(SrcArray);
  } else {
    C.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
    C.srcDevice = address(Src);
    C.srcPitch = SPitch;
  }
  C.srcXInBytes = SrcX;
  C.srcY = SrcY;
  if (DstArray) {
    C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    C.dstArray = driverArray(DstArray);
  } else {
    C.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    C.dstDevice = address(Dst);
    C.dstPitch = DPitch;
  }
  C.dstXInBytes = DstX;
  C.dstY = DstY;
  C.WidthInBytes = Width;
  C.Height = Height;
  if (Width == 0 || Height == 0)
    return cudaSuccess;
  CUresult R = Async ? cuMemcpy2DAsync(&C, Stream) : cuMemcpy2DUnaligned(&C);
  if (R != CUDA_SUCCESS)
    return failDriver(Function, R);
  return cudaSuccess;
}

/// A linear copy of \p Count bytes between memory and array \p Array at
/// (\p X bytes, row \p Y), wrapping to the next row at the array's width,
/// as cudaMemcpyToArray and cudaMemcpyFromArray copy: at most a partial
/// first row, whole rows, and a partial last row.
cudaError_t copyLinearArray(const char *Function, cudaArray_const_t Array,
                            size_t X, size_t Y, void *Memory, size_t Count,
                            bool ToArray, cudaMemcpyKind Kind, CUstream Stream,
                            bool Async) {
  CUDART_CONTEXT_FOR(Function, Ctx);
  CUDA_ARRAY3D_DESCRIPTOR D;
  CUDART_DRIVER_FOR(Function, cuArray3DGetDescriptor(&D, driverArray(Array)));
  size_t Element = 0;
  CUDART_TRY(elementSize(Function, driverArray(Array), Element));
  size_t Row = D.Width * Element;
  CUDART_FAIL_IF_FOR(Function, X >= Row && Count > 0, cudaErrorInvalidValue,
                     "Offset %zu lies past the array's %zu-byte rows.", X, Row);
  auto *Bytes = static_cast<char *>(Memory);
  auto Piece = [&](size_t PX, size_t PY, size_t Width, size_t Height) {
    cudaArray_t A = const_cast<cudaArray_t>(Array);
    return ToArray
               ? copy2DArray(Function, A, PX, PY, nullptr, 0, nullptr, 0, 0,
                             Bytes, Width, Width, Height, Kind, Stream, Async)
               : copy2DArray(Function, nullptr, 0, 0, Bytes, Width, A, PX, PY,
                             nullptr, 0, Width, Height, Kind, Stream, Async);
  };
  if (Count > 0 && X > 0) {
    size_t First = std::min(Count, Row - X);
    CUDART_TRY(Piece(X, Y, First, 1));
    Bytes += First, Count -= First, ++Y;
  }
  if (Count >= Row) {
    size_t Rows = Count / Row;
    CUDART_TRY(Piece(0, Y, Row, Rows));
    Bytes += Rows * Row, Count -= Rows * Row, Y += Rows;
  }
  if (Count > 0)
    CUDART_TRY(Piece(0, Y, Count, 1));
  return cudaSuccess;
}

unsigned textureFlags(const cudaTextureDesc &T, bool IntegerFormat) {
  unsigned Flags = 0;
  // cudaReadModeElementType returns integer texels as they are stored
  // (the driver's READ_AS_INTEGER); cudaReadModeNormalizedFloat maps them
  // to [0, 1] or [-1, 1].
  if (T.readMode == cudaReadModeElementType && IntegerFormat)
    Flags |= CU_TRSF_READ_AS_INTEGER;
  if (T.normalizedCoords)
    Flags |= CU_TRSF_NORMALIZED_COORDINATES;
  if (T.sRGB)
    Flags |= CU_TRSF_SRGB;
  if (T.disableTrilinearOptimization)
    Flags |= CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
  if (T.seamlessCubemap)
    Flags |= CU_TRSF_SEAMLESS_CUBEMAP;
  return Flags;
}

} // namespace

cudaError_t rt::driverFormat(const char *Function,
                             const cudaChannelFormatDesc &Desc,
                             CUarray_format &Format, unsigned &Channels) {
  const int Bits[] = {Desc.x, Desc.y, Desc.z, Desc.w};
  Channels = 0;
  while (Channels < 4 && Bits[Channels] != 0)
    ++Channels;
  bool Uniform = Channels > 0 && Channels != 3;
  for (unsigned I = 0; I < 4; ++I)
    if ((I < Channels && Bits[I] != Bits[0]) || (I >= Channels && Bits[I]))
      Uniform = false;
  CUDART_FAIL_IF_FOR(Function, !Uniform, cudaErrorInvalidChannelDescriptor,
                     "Channel widths %d,%d,%d,%d are not 1, 2 or 4 channels of "
                     "one width.",
                     Desc.x, Desc.y, Desc.z, Desc.w);
  int Width = Bits[0];
  bool Known = true;
  switch (Desc.f) {
  case cudaChannelFormatKindSigned:
    Format = Width == 8    ? CU_AD_FORMAT_SIGNED_INT8
             : Width == 16 ? CU_AD_FORMAT_SIGNED_INT16
                           : CU_AD_FORMAT_SIGNED_INT32;
    Known = Width == 8 || Width == 16 || Width == 32;
    break;
  case cudaChannelFormatKindUnsigned:
    Format = Width == 8    ? CU_AD_FORMAT_UNSIGNED_INT8
             : Width == 16 ? CU_AD_FORMAT_UNSIGNED_INT16
                           : CU_AD_FORMAT_UNSIGNED_INT32;
    Known = Width == 8 || Width == 16 || Width == 32;
    break;
  case cudaChannelFormatKindFloat:
    Format = Width == 16 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT;
    Known = Width == 16 || Width == 32;
    break;
  default:
    Known = false;
  }
  CUDART_FAIL_IF_FOR(
      Function, !Known, cudaErrorInvalidChannelDescriptor,
      "Channel kind %d with %d-bit channels has no array format.",
      static_cast<int>(Desc.f), Width);
  return cudaSuccess;
}

bool rt::isIntegerFormat(CUarray_format F) {
  return F != CU_AD_FORMAT_HALF && F != CU_AD_FORMAT_FLOAT;
}

cudaError_t rt::toDriverCopy3D(const char *Function, const cudaMemcpy3DParms *P,
                               CUDA_MEMCPY3D &Out) {
  CUDART_FAIL_IF_FOR(Function, !P, cudaErrorInvalidValue,
                     "The parameters are null.");
  CUDART_FAIL_IF_FOR(Function,
                     (P->srcArray && P->srcPtr.ptr) ||
                         (P->dstArray && P->dstPtr.ptr),
                     cudaErrorInvalidValue,
                     "A side of the copy names both an array and a pointer.");
  CUDART_TRY(checkCopyKind(Function, P->kind));
  CUDA_MEMCPY3D C = {};
  size_t SrcElement = 1, DstElement = 1;
  CUDART_TRY(copySide(Function, P->srcArray, P->srcPos, P->srcPtr,
                      C.srcMemoryType, C.srcArray, C.srcDevice, C.srcPitch,
                      C.srcHeight, C.srcXInBytes, SrcElement));
  CUDART_TRY(copySide(Function, P->dstArray, P->dstPos, P->dstPtr,
                      C.dstMemoryType, C.dstArray, C.dstDevice, C.dstPitch,
                      C.dstHeight, C.dstXInBytes, DstElement));
  C.srcY = P->srcPos.y;
  C.srcZ = P->srcPos.z;
  C.dstY = P->dstPos.y;
  C.dstZ = P->dstPos.z;
  // "The extent is defined in terms of that array's elements" when an
  // array takes part, else in bytes.
  size_t Element = P->srcArray ? SrcElement : DstElement;
  C.WidthInBytes = P->extent.width * Element;
  C.Height = P->extent.height;
  C.Depth = P->extent.depth;
  Out = C;
  return cudaSuccess;
}

cudaError_t rt::fromDriverCopy3D(const char *Function, const CUDA_MEMCPY3D &C,
                                 cudaMemcpy3DParms &Out) {
  cudaMemcpy3DParms P = {};
  size_t SrcElement = 1, DstElement = 1;
  CUDART_TRY(runtimeSide(Function, C.srcMemoryType, C.srcArray, C.srcDevice,
                         C.srcHost, C.srcPitch, C.srcHeight, C.srcXInBytes,
                         C.srcY, C.srcZ, P.srcArray, P.srcPos, P.srcPtr,
                         SrcElement));
  CUDART_TRY(runtimeSide(Function, C.dstMemoryType, C.dstArray, C.dstDevice,
                         C.dstHost, C.dstPitch, C.dstHeight, C.dstXInBytes,
                         C.dstY, C.dstZ, P.dstArray, P.dstPos, P.dstPtr,
                         DstElement));
  size_t Element = P.srcArray ? SrcElement : DstElement;
  P.extent = cudaExtent{C.WidthInBytes / Element, C.Height, C.Depth};
  P.kind = cudaMemcpyDefault;
  Out = P;
  return cudaSuccess;
}

extern "C" {

struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(
    int X, int Y, int Z, int W, enum cudaChannelFormatKind F) {
  struct cudaChannelFormatDesc D;
  D.x = X;
  D.y = Y;
  D.z = Z;
  D.w = W;
  D.f = F;
  return D;
}

cudaError_t CUDARTAPI cudaMallocArray(cudaArray_t *Array,
                                      const struct cudaChannelFormatDesc *Desc,
                                      size_t Width, size_t Height,
                                      unsigned int Flags) {
  CUDART_FAIL_IF(!Array || !Desc, cudaErrorInvalidValue,
                 "The array and descriptor pointers must not be null.");
  CUDART_CONTEXT(Ctx);
  CUDA_ARRAY3D_DESCRIPTOR D = {};
  CUDART_TRY(driverFormat(__func__, *Desc, D.Format, D.NumChannels));
  D.Width = Width;
  D.Height = Height;
  D.Flags = Flags;
  CUarray A;
  CUDART_DRIVER(cuArray3DCreate(&A, &D));
  *Array = reinterpret_cast<cudaArray_t>(A);
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaMalloc3DArray(cudaArray_t *Array, const struct cudaChannelFormatDesc *Desc,
                  struct cudaExtent Extent, unsigned int Flags) {
  CUDART_FAIL_IF(!Array || !Desc, cudaErrorInvalidValue,
                 "The array and descriptor pointers must not be null.");
  CUDART_CONTEXT(Ctx);
  CUDA_ARRAY3D_DESCRIPTOR D = {};
  CUDART_TRY(driverFormat(__func__, *Desc, D.Format, D.NumChannels));
  D.Width = Extent.width;
  D.Height = Extent.height;
  D.Depth = Extent.depth;
  D.Flags = Flags;
  CUarray A;
  CUDART_DRIVER(cuArray3DCreate(&A, &D));
  *Array = reinterpret_cast<cudaArray_t>(A);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocMipmappedArray(
    cudaMipmappedArray_t *MipmappedArray,
    const struct cudaChannelFormatDesc *Desc, struct cudaExtent Extent,
    unsigned int Levels, unsigned int Flags) {
  CUDART_FAIL_IF(!MipmappedArray || !Desc, cudaErrorInvalidValue,
                 "The mipmapped array and descriptor pointers must not be "
                 "null.");
  CUDART_CONTEXT(Ctx);
  CUDA_ARRAY3D_DESCRIPTOR D = {};
  CUDART_TRY(driverFormat(__func__, *Desc, D.Format, D.NumChannels));
  D.Width = Extent.width;
  D.Height = Extent.height;
  D.Depth = Extent.depth;
  D.Flags = Flags;
  CUmipmappedArray M;
  CUDART_DRIVER(cuMipmappedArrayCreate(&M, &D, Levels));
  *MipmappedArray = reinterpret_cast<cudaMipmappedArray_t>(M);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetMipmappedArrayLevel(
    cudaArray_t *LevelArray, cudaMipmappedArray_const_t MipmappedArray,
    unsigned int Level) {
  CUDART_FAIL_IF(!LevelArray, cudaErrorInvalidValue,
                 "The level array pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUarray A;
  CUDART_DRIVER(cuMipmappedArrayGetLevel(
      &A,
      reinterpret_cast<CUmipmappedArray>(
          const_cast<cudaMipmappedArray *>(MipmappedArray)),
      Level));
  *LevelArray = reinterpret_cast<cudaArray_t>(A);
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaFreeMipmappedArray(cudaMipmappedArray_t MipmappedArray) {
  CUDART_CONTEXT(Ctx);
  if (!MipmappedArray)
    return cudaSuccess;
  CUDART_DRIVER(cuMipmappedArrayDestroy(
      reinterpret_cast<CUmipmappedArray>(MipmappedArray)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t Array) {
  CUDART_CONTEXT(Ctx);
  if (!Array)
    return cudaSuccess;
  CUDART_DRIVER(cuArrayDestroy(driverArray(Array)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaArrayGetInfo(struct cudaChannelFormatDesc *Desc,
                                       struct cudaExtent *Extent,
                                       unsigned int *Flags, cudaArray_t Array) {
  CUDART_CONTEXT(Ctx);
  CUDA_ARRAY3D_DESCRIPTOR D;
  CUDART_DRIVER(cuArray3DGetDescriptor(&D, driverArray(Array)));
  if (Desc)
    *Desc = channelDesc(D.Format, D.NumChannels);
  if (Extent)
    *Extent = {D.Width, D.Height, D.Depth};
  if (Flags)
    *Flags = D.Flags;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpy3D(const struct cudaMemcpy3DParms *P) {
  return copy3D(__func__, P, nullptr, /*Async=*/false);
}

cudaError_t CUDARTAPI cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *P,
                                        cudaStream_t Stream) {
  return copy3D(__func__, P, Stream, /*Async=*/true);
}

cudaError_t CUDARTAPI cudaMemcpy2DToArray(cudaArray_t Dst, size_t WOffset,
                                          size_t HOffset, const void *Src,
                                          size_t SPitch, size_t Width,
                                          size_t Height,
                                          enum cudaMemcpyKind Kind) {
  return copy2DArray(__func__, Dst, WOffset, HOffset, nullptr, 0, nullptr, 0, 0,
                     Src, SPitch, Width, Height, Kind, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(cudaArray_t Dst, size_t WOffset,
                                               size_t HOffset, const void *Src,
                                               size_t SPitch, size_t Width,
                                               size_t Height,
                                               enum cudaMemcpyKind Kind,
                                               cudaStream_t Stream) {
  return copy2DArray(__func__, Dst, WOffset, HOffset, nullptr, 0, nullptr, 0, 0,
                     Src, SPitch, Width, Height, Kind, Stream, true);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void *Dst, size_t DPitch,
                                            cudaArray_const_t Src,
                                            size_t WOffset, size_t HOffset,
                                            size_t Width, size_t Height,
                                            enum cudaMemcpyKind Kind) {
  return copy2DArray(__func__, nullptr, 0, 0, Dst, DPitch, Src, WOffset,
                     HOffset, nullptr, 0, Width, Height, Kind, nullptr, false);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(void *Dst, size_t DPitch,
                                                 cudaArray_const_t Src,
                                                 size_t WOffset, size_t HOffset,
                                                 size_t Width, size_t Height,
                                                 enum cudaMemcpyKind Kind,
                                                 cudaStream_t Stream) {
  return copy2DArray(__func__, nullptr, 0, 0, Dst, DPitch, Src, WOffset,
                     HOffset, nullptr, 0, Width, Height, Kind, Stream, true);
}

cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(
    cudaArray_t Dst, size_t WOffsetDst, size_t HOffsetDst,
    cudaArray_const_t Src, size_t WOffsetSrc, size_t HOffsetSrc, size_t Width,
    size_t Height, enum cudaMemcpyKind Kind) {
  return copy2DArray(__func__, Dst, WOffsetDst, HOffsetDst, nullptr, 0, Src,
                     WOffsetSrc, HOffsetSrc, nullptr, 0, Width, Height, Kind,
                     nullptr, false);
}

cudaError_t CUDARTAPI cudaGetChannelDesc(struct cudaChannelFormatDesc *Desc,
                                         cudaArray_const_t Array) {
  CUDART_FAIL_IF(!Desc, cudaErrorInvalidValue,
                 "The descriptor pointer is null.");
  return cudaArrayGetInfo(Desc, nullptr, nullptr,
                          const_cast<cudaArray_t>(Array));
}

cudaError_t CUDARTAPI cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *P) {
  CUDART_FAIL_IF(!P, cudaErrorInvalidValue, "The parameters are null.");
  // Arrays and pointers are unified: the devices only name where they live.
  cudaMemcpy3DParms C = {P->srcArray, P->srcPos, P->srcPtr, P->dstArray,
                         P->dstPos,   P->dstPtr, P->extent, cudaMemcpyDefault};
  return copy3D(__func__, &C, nullptr, /*Async=*/false);
}

cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync(
    const struct cudaMemcpy3DPeerParms *P, cudaStream_t Stream) {
  CUDART_FAIL_IF(!P, cudaErrorInvalidValue, "The parameters are null.");
  cudaMemcpy3DParms C = {P->srcArray, P->srcPos, P->srcPtr, P->dstArray,
                         P->dstPos,   P->dstPtr, P->extent, cudaMemcpyDefault};
  return copy3D(__func__, &C, Stream, /*Async=*/true);
}

cudaError_t CUDARTAPI cudaDeviceGetTexture1DLinearMaxWidth(
    size_t *MaxWidth, const struct cudaChannelFormatDesc *Desc, int Device) {
  CUDART_FAIL_IF(!MaxWidth || !Desc, cudaErrorInvalidValue,
                 "The width and descriptor pointers must not be null.");
  CUDART_TRY(checkDevice(__func__, Device));
  CUarray_format Format;
  unsigned Channels;
  CUDART_TRY(driverFormat(__func__, *Desc, Format, Channels));
  CUDART_DRIVER(
      cuDeviceGetTexture1DLinearMaxWidth(MaxWidth, Format, Channels, Device));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpyToArray(cudaArray_t Dst, size_t WOffset,
                                        size_t HOffset, const void *Src,
                                        size_t Count,
                                        enum cudaMemcpyKind Kind) {
  return copyLinearArray(__func__, Dst, WOffset, HOffset,
                         const_cast<void *>(Src), Count, /*ToArray=*/true, Kind,
                         nullptr, /*Async=*/false);
}

cudaError_t CUDARTAPI cudaMemcpyToArrayAsync(cudaArray_t Dst, size_t WOffset,
                                             size_t HOffset, const void *Src,
                                             size_t Count,
                                             enum cudaMemcpyKind Kind,
                                             cudaStream_t Stream) {
  return copyLinearArray(__func__, Dst, WOffset, HOffset,
                         const_cast<void *>(Src), Count, /*ToArray=*/true, Kind,
                         Stream, /*Async=*/true);
}

cudaError_t CUDARTAPI cudaMemcpyFromArray(void *Dst, cudaArray_const_t Src,
                                          size_t WOffset, size_t HOffset,
                                          size_t Count,
                                          enum cudaMemcpyKind Kind) {
  return copyLinearArray(__func__, Src, WOffset, HOffset, Dst, Count,
                         /*ToArray=*/false, Kind, nullptr, /*Async=*/false);
}

cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync(void *Dst, cudaArray_const_t Src,
                                               size_t WOffset, size_t HOffset,
                                               size_t Count,
                                               enum cudaMemcpyKind Kind,
                                               cudaStream_t Stream) {
  return copyLinearArray(__func__, Src, WOffset, HOffset, Dst, Count,
                         /*ToArray=*/false, Kind, Stream, /*Async=*/true);
}

cudaError_t CUDARTAPI cudaCreateTextureObject(
    cudaTextureObject_t *TexObject, const struct cudaResourceDesc *Res,
    const struct cudaTextureDesc *Tex,
    const struct cudaResourceViewDesc *View) {
  CUDART_FAIL_IF(!Res || !Tex, cudaErrorInvalidValue,
                 "The resource and texture descriptors must not be null.");
  // NVIDIA checks the resource before the result pointer (observed on an
  // H200: a null array handle is cudaErrorInvalidResourceHandle even with a
  // null result pointer).
  CUDART_FAIL_IF(Res->resType == cudaResourceTypeArray && !Res->res.array.array,
                 cudaErrorInvalidResourceHandle,
                 "The texture's array handle is null.");
  CUDART_FAIL_IF(
      (Res->resType == cudaResourceTypeLinear && !Res->res.linear.devPtr) ||
          (Res->resType == cudaResourceTypePitch2D && !Res->res.pitch2D.devPtr),
      cudaErrorInvalidValue, "The texture's memory is at null.");
  CUDART_FAIL_IF(!TexObject, cudaErrorInvalidValue,
                 "The texture object pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDA_RESOURCE_DESC R = {};
  CUarray_format Format = CU_AD_FORMAT_FLOAT;
  switch (Res->resType) {
  case cudaResourceTypeArray: {
    R.resType = CU_RESOURCE_TYPE_ARRAY;
    R.res.array.hArray = driverArray(Res->res.array.array);
    CUDA_ARRAY3D_DESCRIPTOR D;
    CUDART_DRIVER(cuArray3DGetDescriptor(&D, R.res.array.hArray));
    Format = D.Format;
    break;
  }
  case cudaResourceTypeMipmappedArray: {
    R.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    R.res.mipmap.hMipmappedArray =
        reinterpret_cast<CUmipmappedArray>(Res->res.mipmap.mipmap);
    CUarray Level;
    CUDART_DRIVER(
        cuMipmappedArrayGetLevel(&Level, R.res.mipmap.hMipmappedArray, 0));
    CUDA_ARRAY3D_DESCRIPTOR D;
    CUDART_DRIVER(cuArray3DGetDescriptor(&D, Level));
    Format = D.Format;
    break;
  }
  case cudaResourceTypeLinear:
    R.resType = CU_RESOURCE_TYPE_LINEAR;
    R.res.linear.devPtr = address(Res->res.linear.devPtr);
    R.res.linear.sizeInBytes = Res->res.linear.sizeInBytes;
    CUDART_TRY(driverFormat(__func__, Res->res.linear.desc, Format,
                            R.res.linear.numChannels));
    R.res.linear.format = Format;
    break;
  case cudaResourceTypePitch2D:
    R.resType = CU_RESOURCE_TYPE_PITCH2D;
    R.res.pitch2D.devPtr = address(Res->res.pitch2D.devPtr);
    R.res.pitch2D.width = Res->res.pitch2D.width;
    R.res.pitch2D.height = Res->res.pitch2D.height;
    R.res.pitch2D.pitchInBytes = Res->res.pitch2D.pitchInBytes;
    CUDART_TRY(driverFormat(__func__, Res->res.pitch2D.desc, Format,
                            R.res.pitch2D.numChannels));
    R.res.pitch2D.format = Format;
    break;
  default:
    return fail(__func__, cudaErrorNotSupported,
                "Texture objects over resource type %d are not supported.",
                static_cast<int>(Res->resType));
  }
  R.flags = Res->flags;
  CUDA_TEXTURE_DESC T = {};
  for (int I = 0; I < 3; ++I)
    T.addressMode[I] = static_cast<CUaddress_mode>(Tex->addressMode[I]);
  T.filterMode = static_cast<CUfilter_mode>(Tex->filterMode);
  T.flags = textureFlags(*Tex, isIntegerFormat(Format));
  T.maxAnisotropy = Tex->maxAnisotropy;
  T.mipmapFilterMode = static_cast<CUfilter_mode>(Tex->mipmapFilterMode);
  T.mipmapLevelBias = Tex->mipmapLevelBias;
  T.minMipmapLevelClamp = Tex->minMipmapLevelClamp;
  T.maxMipmapLevelClamp = Tex->maxMipmapLevelClamp;
  std::memcpy(T.borderColor, Tex->borderColor, sizeof(T.borderColor));
  CUDA_RESOURCE_VIEW_DESC V = {};
  if (View) {
    // cudaResourceViewFormat's values are CUresourceViewFormat's.
    V.format = static_cast<CUresourceViewFormat>(View->format);
    V.width = View->width;
    V.height = View->height;
    V.depth = View->depth;
    V.firstMipmapLevel = View->firstMipmapLevel;
    V.lastMipmapLevel = View->lastMipmapLevel;
    V.firstLayer = View->firstLayer;
    V.lastLayer = View->lastLayer;
  }
  CUtexObject Object = 0;
  CUDART_DRIVER(cuTexObjectCreate(&Object, &R, &T, View ? &V : nullptr));
  *TexObject = Object;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetTextureObjectResourceDesc(
    struct cudaResourceDesc *Res, cudaTextureObject_t Object) {
  CUDART_FAIL_IF(!Res, cudaErrorInvalidValue,
                 "The resource descriptor pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDA_RESOURCE_DESC R;
  CUDART_DRIVER(cuTexObjectGetResourceDesc(&R, Object));
  *Res = {};
  switch (R.resType) {
  case CU_RESOURCE_TYPE_ARRAY:
    Res->resType = cudaResourceTypeArray;
    Res->res.array.array = reinterpret_cast<cudaArray_t>(R.res.array.hArray);
    break;
  case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
    Res->resType = cudaResourceTypeMipmappedArray;
    Res->res.mipmap.mipmap =
        reinterpret_cast<cudaMipmappedArray_t>(R.res.mipmap.hMipmappedArray);
    break;
  case CU_RESOURCE_TYPE_LINEAR:
    Res->resType = cudaResourceTypeLinear;
    Res->res.linear.devPtr = reinterpret_cast<void *>(R.res.linear.devPtr);
    Res->res.linear.desc =
        channelDesc(R.res.linear.format, R.res.linear.numChannels);
    Res->res.linear.sizeInBytes = R.res.linear.sizeInBytes;
    break;
  case CU_RESOURCE_TYPE_PITCH2D:
    Res->resType = cudaResourceTypePitch2D;
    Res->res.pitch2D.devPtr = reinterpret_cast<void *>(R.res.pitch2D.devPtr);
    Res->res.pitch2D.desc =
        channelDesc(R.res.pitch2D.format, R.res.pitch2D.numChannels);
    Res->res.pitch2D.width = R.res.pitch2D.width;
    Res->res.pitch2D.height = R.res.pitch2D.height;
    Res->res.pitch2D.pitchInBytes = R.res.pitch2D.pitchInBytes;
    break;
  default:
    return fail(__func__, cudaErrorNotSupported,
                "Texture objects over resource type %d are not supported.",
                static_cast<int>(R.resType));
  }
  Res->flags = R.flags;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetTextureObjectTextureDesc(
    struct cudaTextureDesc *Tex, cudaTextureObject_t Object) {
  CUDART_FAIL_IF(!Tex, cudaErrorInvalidValue,
                 "The texture descriptor pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDA_TEXTURE_DESC T;
  CUDART_DRIVER(cuTexObjectGetTextureDesc(&T, Object));
  *Tex = {};
  for (int I = 0; I < 3; ++I)
    Tex->addressMode[I] = static_cast<cudaTextureAddressMode>(T.addressMode[I]);
  Tex->filterMode = static_cast<cudaTextureFilterMode>(T.filterMode);
  Tex->readMode = (T.flags & CU_TRSF_READ_AS_INTEGER)
                      ? cudaReadModeElementType
                      : cudaReadModeNormalizedFloat;
  Tex->sRGB = (T.flags & CU_TRSF_SRGB) != 0;
  std::memcpy(Tex->borderColor, T.borderColor, sizeof(Tex->borderColor));
  Tex->normalizedCoords = (T.flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
  Tex->maxAnisotropy = T.maxAnisotropy;
  Tex->mipmapFilterMode =
      static_cast<cudaTextureFilterMode>(T.mipmapFilterMode);
  Tex->mipmapLevelBias = T.mipmapLevelBias;
  Tex->minMipmapLevelClamp = T.minMipmapLevelClamp;
  Tex->maxMipmapLevelClamp = T.maxMipmapLevelClamp;
  Tex->disableTrilinearOptimization =
      (T.flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) != 0;
  Tex->seamlessCubemap = (T.flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDestroyTextureObject(cudaTextureObject_t Object) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuTexObjectDestroy(Object));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetTextureObjectResourceViewDesc(
    struct cudaResourceViewDesc *View, cudaTextureObject_t Object) {
  CUDART_CONTEXT(Ctx);
  // NVIDIA's runtime answers a null descriptor pointer with success and
  // writes nothing (observed on an H200, CUDA 13.0).
  if (!View)
    return cudaSuccess;
  CUDA_RESOURCE_VIEW_DESC V;
  CUDART_DRIVER(cuTexObjectGetResourceViewDesc(&V, Object));
  *View = {};
  View->format = static_cast<cudaResourceViewFormat>(V.format);
  View->width = V.width;
  View->height = V.height;
  View->depth = V.depth;
  View->firstMipmapLevel = V.firstMipmapLevel;
  View->lastMipmapLevel = V.lastMipmapLevel;
  View->firstLayer = V.firstLayer;
  View->lastLayer = V.lastLayer;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpyArrayToArray(cudaArray_t Dst, size_t WOffsetDst,
                                             size_t HOffsetDst,
                                             cudaArray_const_t Src,
                                             size_t WOffsetSrc,
                                             size_t HOffsetSrc, size_t Count,
                                             enum cudaMemcpyKind Kind) {
  CUDART_FAIL_IF(Kind != cudaMemcpyDeviceToDevice && Kind != cudaMemcpyDefault,
                 cudaErrorInvalidMemcpyDirection,
                 "An array-to-array copy is device to device, not kind %d.",
                 static_cast<int>(Kind));
  // Each array is read or written as its rows laid end to end, from its own
  // offset; the bytes pass through host memory, which device memory is.
  std::vector<char> Bytes(Count);
  CUDART_TRY(copyLinearArray(__func__, Src, WOffsetSrc, HOffsetSrc,
                             Bytes.data(), Count, /*ToArray=*/false,
                             cudaMemcpyDeviceToHost, nullptr,
                             /*Async=*/false));
  return copyLinearArray(__func__, Dst, WOffsetDst, HOffsetDst, Bytes.data(),
                         Count, /*ToArray=*/true, cudaMemcpyHostToDevice,
                         nullptr, /*Async=*/false);
}

} // extern "C"
