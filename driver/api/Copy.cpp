//===- Copy.cpp - Memory copy and memset entry points (E.8) ---------------===//
//
// Device memory is host memory, so a copy is a memmove once both ranges are
// validated, split among the device's workers when large (core/
// CopyEngine.h); it runs in its stream's order (StreamWork.h). Synchronous
// forms go to the legacy default stream.
//
//===----------------------------------------------------------------------===//
#include "api/CopyRegion.h"
#include "api/Handles.h"
#include "api/StreamWork.h"
#include "core/AddressSpace.h"
#include "core/EntryPoint.h"

#include <cstring>
#include <memory>

using namespace cucpu;
using namespace cucpu::api;

namespace {
/// How a copy or memset relates to its caller: the synchronous forms use the
/// legacy default stream and return when done.
struct Order {
  CUstream Stream = nullptr;
  bool Async = false;
};
constexpr Order Synchronous{};

/// Asynchronous copies from pageable memory up to this size are staged: the
/// call copies the source into a driver buffer and returns while the stream
/// is busy, as NVIDIA's driver does (tests/api AsyncTest). Larger ones wait
/// for the stream and copy directly.
constexpr size_t MaxStagedBytes = size_t(64) << 20;

/// Moves \p Bytes from \p From to \p To in the order \p O asks for.
llvm::Error issueMove(Order O, void *To, const void *From, size_t Bytes) {
  CU_TRY_ASSIGN(Mover Move, currentMover());
  bool ToLocked = isPageLocked(To, Bytes);
  bool FromLocked = isPageLocked(From, Bytes);
  if (O.Async && ToLocked && !FromLocked && Bytes <= MaxStagedBytes &&
      !workIsDeferred(O.Stream)) {
    std::unique_ptr<char[]> Staged(new char[Bytes]);
    Move(Staged.get(), From, Bytes);
    return issueWork(O.Stream, true,
                     [To, Bytes, Move, Staged = std::move(Staged)] {
                       Move(To, Staged.get(), Bytes);
                     });
  }
  return issueWork(O.Stream, O.Async && ToLocked && FromLocked,
                   [=] { Move(To, From, Bytes); });
}

llvm::Error copyHtoD(CUdeviceptr Dst, const void *Src, size_t Bytes, Order O) {
  CU_TRY(current::require());
  if (Bytes == 0)
    return llvm::Error::success();
  CU_INVALID_IF(!Src, CUDA_ERROR_INVALID_VALUE,
                "The source host pointer is NULL.");
  CU_TRY_ASSIGN(void *To, checkDeviceRange(Dst, Bytes, "destination"));
  return issueMove(O, To, Src, Bytes);
}

llvm::Error copyDtoH(void *Dst, CUdeviceptr Src, size_t Bytes, Order O) {
  CU_TRY(current::require());
  if (Bytes == 0)
    return llvm::Error::success();
  CU_INVALID_IF(!Dst, CUDA_ERROR_INVALID_VALUE,
                "The destination host pointer is NULL.");
  CU_TRY_ASSIGN(void *From, checkDeviceRange(Src, Bytes, "source"));
  return issueMove(O, Dst, From, Bytes);
}

llvm::Error copyDtoD(CUdeviceptr Dst, CUdeviceptr Src, size_t Bytes, Order O) {
  CU_TRY(current::require());
  if (Bytes == 0)
    return llvm::Error::success();
  CU_TRY_ASSIGN(void *To, checkDeviceRange(Dst, Bytes, "destination"));
  CU_TRY_ASSIGN(void *From, checkDeviceRange(Src, Bytes, "source"));
  return issueMove(O, To, From, Bytes);
}

/// cuMemcpy with unified addressing: either side may be any memory.
llvm::Error copyUnified(CUdeviceptr Dst, CUdeviceptr Src, size_t Bytes,
                        Order O) {
  CU_TRY(current::require());
  if (Bytes == 0)
    return llvm::Error::success();
  CU_TRY_ASSIGN(void *To, checkAnyRange(Dst, Bytes, "destination"));
  CU_TRY_ASSIGN(void *From, checkAnyRange(Src, Bytes, "source"));
  return issueMove(O, To, From, Bytes);
}

llvm::Error copyPeer(CUdeviceptr Dst, CUcontext DstCtx, CUdeviceptr Src,
                     CUcontext SrcCtx, size_t Bytes, Order O) {
  CU_TRY_ASSIGN(std::shared_ptr<Context> D, lookupContext(DstCtx));
  CU_TRY_ASSIGN(std::shared_ptr<Context> S, lookupContext(SrcCtx));
  CU_TRY(D->checkHealthy());
  CU_TRY(S->checkHealthy());
  if (Bytes == 0)
    return llvm::Error::success();
  CU_TRY_ASSIGN(void *To, checkDeviceRange(Dst, Bytes, "destination"));
  CU_TRY_ASSIGN(void *From, checkDeviceRange(Src, Bytes, "source"));
  return issueMove(O, To, From, Bytes);
}

/// cuMemsetD8/16/32: \p Count elements of \p Value from \p Dst.
template <typename T>
llvm::Error memsetLinear(CUdeviceptr Dst, T Value, size_t Count, Order O) {
  CU_TRY(current::require());
  CU_INVALID_IF(Dst % sizeof(T) != 0, CUDA_ERROR_INVALID_VALUE,
                "The destination {0:x} is not aligned to the {1}-byte element.",
                Dst, sizeof(T));
  if (Count == 0)
    return llvm::Error::success();
  size_t Bytes = 0;
  CU_INVALID_IF(__builtin_mul_overflow(Count, sizeof(T), &Bytes),
                CUDA_ERROR_INVALID_VALUE,
                "{0} elements overflow the address space.", Count);
  CU_TRY_ASSIGN(void *To, checkDeviceRange(Dst, Bytes, "destination"));
  return issueWork(
      O.Stream, O.Async,
      [=] {
        if constexpr (sizeof(T) == 1) {
          std::memset(To, Value, Count);
        } else {
          T *Elements = static_cast<T *>(To);
          for (size_t I = 0; I < Count; ++I)
            Elements[I] = Value;
        }
      },
      CU_GRAPH_NODE_TYPE_MEMSET);
}

/// cuMemsetD2D8/16/32: \p Height rows of \p Width elements, \p Pitch apart.
template <typename T>
llvm::Error memset2D(CUdeviceptr Dst, size_t Pitch, T Value, size_t Width,
                     size_t Height, Order O) {
  CU_TRY(current::require());
  CU_INVALID_IF(Dst % sizeof(T) != 0, CUDA_ERROR_INVALID_VALUE,
                "The destination {0:x} is not aligned to the {1}-byte element.",
                Dst, sizeof(T));
  if (Width == 0 || Height == 0)
    return llvm::Error::success();
  size_t RowBytes = 0, Span = 0;
  CU_INVALID_IF(__builtin_mul_overflow(Width, sizeof(T), &RowBytes),
                CUDA_ERROR_INVALID_VALUE, "The row of {0} elements overflows.",
                Width);
  CU_INVALID_IF(Height > 1 && Pitch < RowBytes, CUDA_ERROR_INVALID_VALUE,
                "The pitch {0} is smaller than a row of {1} bytes.", Pitch,
                RowBytes);
  CU_INVALID_IF(Height > 1 && Pitch % sizeof(T) != 0, CUDA_ERROR_INVALID_VALUE,
                "The pitch {0} is not a multiple of the {1}-byte element.",
                Pitch, sizeof(T));
  CU_INVALID_IF(__builtin_mul_overflow(Height - 1, Pitch, &Span) ||
                    __builtin_add_overflow(Span, RowBytes, &Span),
                CUDA_ERROR_INVALID_VALUE,
                "The rectangle does not fit in the address space.");
  CU_TRY_ASSIGN(void *To, checkDeviceRange(Dst, Span, "destination"));
  return issueWork(
      O.Stream, O.Async,
      [=] {
        for (size_t Row = 0; Row < Height; ++Row) {
          T *Elements =
              reinterpret_cast<T *>(static_cast<char *>(To) + Row * Pitch);
          for (size_t I = 0; I < Width; ++I)
            Elements[I] = Value;
        }
      },
      CU_GRAPH_NODE_TYPE_MEMSET);
}
} // namespace

llvm::Error api::memsetNode(const CUDA_MEMSET_NODE_PARAMS &P) {
  Order O;
  switch (P.elementSize) {
  case 1:
    return memset2D<uint8_t>(P.dst, P.pitch, P.value, P.width, P.height, O);
  case 2:
    return memset2D<uint16_t>(P.dst, P.pitch, P.value, P.width, P.height, O);
  case 4:
    return memset2D<uint32_t>(P.dst, P.pitch, P.value, P.width, P.height, O);
  default:
    return makeError(CUDA_ERROR_INVALID_VALUE,
                     llvm::formatv("The memset element size {0} is not 1, 2 "
                                   "or 4.",
                                   P.elementSize)
                         .str());
  }
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpyHtoD_v2(CUdeviceptr Dst, const void *Src,
                                              size_t Bytes) {
  return CU_ENTRY(Dst, Src, Bytes).run([&] {
    return copyHtoD(Dst, Src, Bytes, Synchronous);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpyDtoH_v2(void *Dst, CUdeviceptr Src,
                                              size_t Bytes) {
  return CU_ENTRY(Dst, Src, Bytes).run([&] {
    return copyDtoH(Dst, Src, Bytes, Synchronous);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpyDtoD_v2(CUdeviceptr Dst, CUdeviceptr Src,
                                              size_t Bytes) {
  return CU_ENTRY(Dst, Src, Bytes).run([&] {
    return copyDtoD(Dst, Src, Bytes, Synchronous);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpy(CUdeviceptr Dst, CUdeviceptr Src,
                                       size_t Bytes) {
  return CU_ENTRY(Dst, Src, Bytes).run([&] {
    return copyUnified(Dst, Src, Bytes, Synchronous);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpyPeer(CUdeviceptr Dst, CUcontext DstCtx,
                                           CUdeviceptr Src, CUcontext SrcCtx,
                                           size_t Bytes) {
  return CU_ENTRY(Dst, DstCtx, Src, SrcCtx, Bytes).run([&] {
    return copyPeer(Dst, DstCtx, Src, SrcCtx, Bytes, Synchronous);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpyHtoDAsync_v2(CUdeviceptr Dst,
                                                   const void *Src,
                                                   size_t Bytes, CUstream S) {
  return CU_ENTRY(Dst, Src, Bytes, S).run([&]() -> llvm::Error {
    CU_TRY(checkStream(S));
    return copyHtoD(Dst, Src, Bytes, {S, true});
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpyDtoHAsync_v2(void *Dst, CUdeviceptr Src,
                                                   size_t Bytes, CUstream S) {
  return CU_ENTRY(Dst, Src, Bytes, S).run([&]() -> llvm::Error {
    CU_TRY(checkStream(S));
    return copyDtoH(Dst, Src, Bytes, {S, true});
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpyDtoDAsync_v2(CUdeviceptr Dst,
                                                   CUdeviceptr Src,
                                                   size_t Bytes, CUstream S) {
  return CU_ENTRY(Dst, Src, Bytes, S).run([&]() -> llvm::Error {
    CU_TRY(checkStream(S));
    return copyDtoD(Dst, Src, Bytes, {S, true});
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr Dst, CUdeviceptr Src,
                                            size_t Bytes, CUstream S) {
  return CU_ENTRY(Dst, Src, Bytes, S).run([&]() -> llvm::Error {
    CU_TRY(checkStream(S));
    return copyUnified(Dst, Src, Bytes, {S, true});
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr Dst,
                                                CUcontext DstCtx,
                                                CUdeviceptr Src,
                                                CUcontext SrcCtx, size_t Bytes,
                                                CUstream S) {
  return CU_ENTRY(Dst, DstCtx, Src, SrcCtx, Bytes, S).run([&]() -> llvm::Error {
    CU_TRY(checkStream(S));
    return copyPeer(Dst, DstCtx, Src, SrcCtx, Bytes, {S, true});
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpy2D_v2(const CUDA_MEMCPY2D *Copy) {
  return CU_ENTRY(Copy).run([&] { return copy2D(Copy); });
}

CUCPU_EXPORT CUresult CUDAAPI
cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *Copy) {
  return CU_ENTRY(Copy).run([&] { return copy2D(Copy); });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *Copy,
                                                 CUstream S) {
  return CU_ENTRY(Copy, S).run([&]() -> llvm::Error {
    CU_TRY(checkStream(S));
    return copy2D(Copy, S, true);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpy3D_v2(const CUDA_MEMCPY3D *Copy) {
  return CU_ENTRY(Copy).run([&] { return copy3D(Copy); });
}
CUCPU_EXPORT CUresult CUDAAPI cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *Copy,
                                                 CUstream S) {
  return CU_ENTRY(Copy, S).run([&]() -> llvm::Error {
    CU_TRY(checkStream(S));
    return copy3D(Copy, S, true);
  });
}
CUCPU_EXPORT CUresult CUDAAPI cuMemsetD8_v2(CUdeviceptr Dst,
                                            unsigned char Value, size_t Count) {
  return CU_ENTRY(Dst, Value, Count).run([&] {
    return memsetLinear<uint8_t>(Dst, Value, Count, Synchronous);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemsetD16_v2(CUdeviceptr Dst,
                                             unsigned short Value,
                                             size_t Count) {
  return CU_ENTRY(Dst, Value, Count).run([&] {
    return memsetLinear<uint16_t>(Dst, Value, Count, Synchronous);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemsetD32_v2(CUdeviceptr Dst,
                                             unsigned int Value, size_t Count) {
  return CU_ENTRY(Dst, Value, Count).run([&] {
    return memsetLinear<uint32_t>(Dst, Value, Count, Synchronous);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemsetD2D8_v2(CUdeviceptr Dst, size_t Pitch,
                                              unsigned char Value, size_t Width,
                                              size_t Height) {
  return CU_ENTRY(Dst, Pitch, Value, Width, Height).run([&] {
    return memset2D<uint8_t>(Dst, Pitch, Value, Width, Height, Synchronous);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemsetD2D16_v2(CUdeviceptr Dst, size_t Pitch,
                                               unsigned short Value,
                                               size_t Width, size_t Height) {
  return CU_ENTRY(Dst, Pitch, Value, Width, Height).run([&] {
    return memset2D<uint16_t>(Dst, Pitch, Value, Width, Height, Synchronous);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemsetD2D32_v2(CUdeviceptr Dst, size_t Pitch,
                                               unsigned int Value, size_t Width,
                                               size_t Height) {
  return CU_ENTRY(Dst, Pitch, Value, Width, Height).run([&] {
    return memset2D<uint32_t>(Dst, Pitch, Value, Width, Height, Synchronous);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr Dst,
                                              unsigned char Value, size_t Count,
                                              CUstream S) {
  return CU_ENTRY(Dst, Value, Count, S).run([&]() -> llvm::Error {
    CU_TRY(checkStream(S));
    return memsetLinear<uint8_t>(Dst, Value, Count, {S, true});
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr Dst,
                                               unsigned short Value,
                                               size_t Count, CUstream S) {
  return CU_ENTRY(Dst, Value, Count, S).run([&]() -> llvm::Error {
    CU_TRY(checkStream(S));
    return memsetLinear<uint16_t>(Dst, Value, Count, {S, true});
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr Dst,
                                               unsigned int Value, size_t Count,
                                               CUstream S) {
  return CU_ENTRY(Dst, Value, Count, S).run([&]() -> llvm::Error {
    CU_TRY(checkStream(S));
    return memsetLinear<uint32_t>(Dst, Value, Count, {S, true});
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr Dst, size_t Pitch,
                                                unsigned char Value,
                                                size_t Width, size_t Height,
                                                CUstream S) {
  return CU_ENTRY(Dst, Pitch, Value, Width, Height, S)
      .run([&]() -> llvm::Error {
        CU_TRY(checkStream(S));
        return memset2D<uint8_t>(Dst, Pitch, Value, Width, Height, {S, true});
      });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr Dst, size_t Pitch,
                                                 unsigned short Value,
                                                 size_t Width, size_t Height,
                                                 CUstream S) {
  return CU_ENTRY(Dst, Pitch, Value, Width, Height, S)
      .run([&]() -> llvm::Error {
        CU_TRY(checkStream(S));
        return memset2D<uint16_t>(Dst, Pitch, Value, Width, Height, {S, true});
      });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr Dst, size_t Pitch,
                                                 unsigned int Value,
                                                 size_t Width, size_t Height,
                                                 CUstream S) {
  return CU_ENTRY(Dst, Pitch, Value, Width, Height, S)
      .run([&]() -> llvm::Error {
        CU_TRY(checkStream(S));
        return memset2D<uint32_t>(Dst, Pitch, Value, Width, Height, {S, true});
      });
}
