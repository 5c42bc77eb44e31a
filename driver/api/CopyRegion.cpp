//===- CopyRegion.cpp - 2D and 3D copies between any memories -------------===//
//
// Both sides of a copy are resolved to their first byte, row pitch and
// slice pitch after checking that the whole region lies inside their memory;
// then the rows are moved one by one, in the stream's order (StreamWork.h).
// A CUDA array's pitches are its own (the descriptor's pitch and height for
// it are ignored, as on NVIDIA).
//
//===----------------------------------------------------------------------===//
#include "api/CopyRegion.h"

#include "api/Handles.h"
#include "api/StreamWork.h"
#include "core/AddressSpace.h"
#include "core/Array.h"
#include "core/EntryPoint.h"

#include <cstring>

using namespace cucpu;
using namespace cucpu::api;

namespace {

/// One side of a copy, as the descriptor gives it.
struct SideSpec {
  CUmemorytype Type;
  const void *Host;
  CUdeviceptr Device;
  CUarray Array;
  size_t X, Y, Z;
  size_t Pitch;
  size_t LayerHeight; ///< Rows per slice (3D copies of linear memory).
};

/// A side resolved: where the region starts and how rows and slices step.
struct Side {
  char *First = nullptr;
  size_t Pitch = 0;
  size_t SlicePitch = 0;
  std::shared_ptr<Array> Keep; ///< The array side, alive until the copy ran.
  bool PageLocked = true;      ///< Driver memory (asynchronous copies).
};

/// The region's extent.
struct Extent {
  size_t Width, Height, Depth;
};

llvm::Expected<Side> resolveArraySide(const SideSpec &S, const Extent &E,
                                      const char *Role) {
  CU_INVALID_IF(!S.Array, CUDA_ERROR_INVALID_VALUE, "The {0} array is NULL.",
                Role);
  auto A = HandleRegistry::get().findAs<Array>(S.Array);
  CU_INVALID_IF(!A, CUDA_ERROR_INVALID_HANDLE,
                "The {0} array is not a live CUarray.", Role);
  CU_INVALID_IF(S.X > A->rowBytes() || E.Width > A->rowBytes() - S.X,
                CUDA_ERROR_INVALID_VALUE,
                "{0} bytes from byte {1} do not fit in a {2}-byte row of the "
                "{3} array.",
                E.Width, S.X, A->rowBytes(), Role);
  CU_INVALID_IF(S.Y > A->rows() || E.Height > A->rows() - S.Y,
                CUDA_ERROR_INVALID_VALUE,
                "{0} rows from row {1} do not fit in the {2} rows of the {3} "
                "array.",
                E.Height, S.Y, A->rows(), Role);
  CU_INVALID_IF(S.Z > A->slices() || E.Depth > A->slices() - S.Z,
                CUDA_ERROR_INVALID_VALUE,
                "{0} slices from slice {1} do not fit in the {2} slices of the "
                "{3} array.",
                E.Depth, S.Z, A->slices(), Role);
  Side R;
  R.Pitch = A->rowBytes();
  R.SlicePitch = A->sliceBytes();
  R.First = A->data() + S.Z * R.SlicePitch + S.Y * R.Pitch + S.X;
  R.Keep = A;
  return R;
}

llvm::Expected<Side> resolveSide(const SideSpec &S, const Extent &E,
                                 const char *Role) {
  if (S.Type == CU_MEMORYTYPE_ARRAY)
    return resolveArraySide(S, E, Role);
  Side R;
  R.Pitch = S.Pitch;
  bool ManyRows = E.Height > 1 || E.Depth > 1;
  // A single row never uses the pitch (NVIDIA accepts any pitch then).
  CU_INVALID_IF(ManyRows && R.Pitch > MaxPitch, CUDA_ERROR_INVALID_VALUE,
                "The {0} pitch {1} exceeds the maximum {2}.", Role, R.Pitch,
                MaxPitch);
  CU_INVALID_IF(ManyRows && S.X + E.Width > R.Pitch, CUDA_ERROR_INVALID_VALUE,
                "The {0} pitch {1} is smaller than the row offset {2} plus "
                "the width {3}.",
                Role, R.Pitch, S.X, E.Width);
  if (E.Depth > 1 || S.Z > 0)
    CU_INVALID_IF(S.Y + E.Height > S.LayerHeight, CUDA_ERROR_INVALID_VALUE,
                  "The {0} slice height {1} is smaller than the row {2} plus "
                  "the height {3}.",
                  Role, S.LayerHeight, S.Y, E.Height);
  if (!ManyRows && S.Y == 0 && S.Z == 0)
    R.Pitch = 0; // Only the first row is touched.
  size_t Offset = 0, Span = 0;
  CU_INVALID_IF(
      __builtin_mul_overflow(R.Pitch, S.LayerHeight, &R.SlicePitch) ||
          __builtin_mul_overflow(S.Z, R.SlicePitch, &Offset) ||
          __builtin_add_overflow(Offset, S.Y * R.Pitch, &Offset) ||
          __builtin_add_overflow(Offset, S.X, &Offset) ||
          __builtin_mul_overflow(E.Depth - 1, R.SlicePitch, &Span) ||
          __builtin_add_overflow(Span, (E.Height - 1) * R.Pitch, &Span) ||
          __builtin_add_overflow(Span, E.Width, &Span),
      CUDA_ERROR_INVALID_VALUE,
      "The {0} region does not fit in the address space.", Role);
  switch (S.Type) {
  case CU_MEMORYTYPE_HOST:
    CU_INVALID_IF(!S.Host, CUDA_ERROR_INVALID_VALUE,
                  "The {0} host pointer is NULL.", Role);
    R.First = const_cast<char *>(static_cast<const char *>(S.Host)) + Offset;
    R.PageLocked = isPageLocked(R.First, Span);
    return R;
  case CU_MEMORYTYPE_DEVICE: {
    CU_TRY_ASSIGN(void *P, checkDeviceRange(S.Device + Offset, Span, Role));
    R.First = static_cast<char *>(P);
    return R;
  }
  case CU_MEMORYTYPE_UNIFIED: {
    CU_TRY_ASSIGN(void *P, checkAnyRange(S.Device + Offset, Span, Role));
    R.First = static_cast<char *>(P);
    R.PageLocked = isPageLocked(R.First, Span);
    return R;
  }
  default:
    return makeError(CUDA_ERROR_INVALID_VALUE,
                     llvm::formatv("{0} is not a valid {1} memory type.",
                                   static_cast<int>(S.Type), Role));
  }
}

llvm::Error copyRegion(const SideSpec &SrcSpec, const SideSpec &DstSpec,
                       const Extent &E, CUstream Stream, bool Async) {
  CU_TRY(current::require());
  if (E.Width == 0 || E.Height == 0 || E.Depth == 0)
    return llvm::Error::success();
  CU_TRY_ASSIGN(Side Src, resolveSide(SrcSpec, E, "source"));
  CU_TRY_ASSIGN(Side Dst, resolveSide(DstSpec, E, "destination"));
  bool Queued = Async && Src.PageLocked && Dst.PageLocked;
  return issueWork(Stream, Queued, [Src, Dst, E] {
    for (size_t Z = 0; Z < E.Depth; ++Z)
      for (size_t Y = 0; Y < E.Height; ++Y)
        std::memmove(Dst.First + Z * Dst.SlicePitch + Y * Dst.Pitch,
                     Src.First + Z * Src.SlicePitch + Y * Src.Pitch, E.Width);
  });
}

} // namespace

llvm::Error cucpu::api::copy2D(const CUDA_MEMCPY2D *C, CUstream Stream,
                               bool Async) {
  CU_INVALID_IF(!C, CUDA_ERROR_INVALID_VALUE, "The copy descriptor is NULL.");
  // A 2D copy's pitch of 0 means rows packed at the width, as NVIDIA's
  // driver takes it (H200: cuMemcpy2D of two 144-byte rows with srcPitch 0
  // reads the second row from byte 144).
  auto PitchOf = [&](size_t Pitch) { return Pitch ? Pitch : C->WidthInBytes; };
  SideSpec Src{C->srcMemoryType,
               C->srcHost,
               C->srcDevice,
               C->srcArray,
               C->srcXInBytes,
               C->srcY,
               0,
               PitchOf(C->srcPitch),
               C->Height};
  SideSpec Dst{C->dstMemoryType,
               C->dstHost,
               C->dstDevice,
               C->dstArray,
               C->dstXInBytes,
               C->dstY,
               0,
               PitchOf(C->dstPitch),
               C->Height};
  return copyRegion(Src, Dst, {C->WidthInBytes, C->Height, 1}, Stream, Async);
}

llvm::Error cucpu::api::copy3D(const CUDA_MEMCPY3D *C, CUstream Stream,
                               bool Async) {
  CU_INVALID_IF(!C, CUDA_ERROR_INVALID_VALUE, "The copy descriptor is NULL.");
  CU_INVALID_IF(C->srcLOD != 0 || C->dstLOD != 0, CUDA_ERROR_INVALID_VALUE,
                "Mipmap levels (srcLOD {0}, dstLOD {1}) must be 0.", C->srcLOD,
                C->dstLOD);
  CU_INVALID_IF(C->reserved0 || C->reserved1, CUDA_ERROR_INVALID_VALUE,
                "The reserved fields of CUDA_MEMCPY3D must be NULL.");
  SideSpec Src{C->srcMemoryType, C->srcHost,     C->srcDevice,
               C->srcArray,      C->srcXInBytes, C->srcY,
               C->srcZ,          C->srcPitch,    C->srcHeight};
  SideSpec Dst{C->dstMemoryType, C->dstHost,     C->dstDevice,
               C->dstArray,      C->dstXInBytes, C->dstY,
               C->dstZ,          C->dstPitch,    C->dstHeight};
  return copyRegion(Src, Dst, {C->WidthInBytes, C->Height, C->Depth}, Stream,
                    Async);
}
