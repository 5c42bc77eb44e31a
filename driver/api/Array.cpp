//===- Array.cpp - CUDA arrays and their 1D copies (E.8.8-E.8.20) ---------===//
//
// The 1D copies take byte offsets (the seeds' element indices became byte
// offsets in CUDA 3.2) and reach only the array's first row, as NVIDIA's
// driver does today (tools/texture-facts). Copies run in their stream's
// order (StreamWork.h).
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "api/StreamWork.h"
#include "core/AddressSpace.h"
#include "core/EntryPoint.h"

#include <cstring>

using namespace cucpu;
using namespace cucpu::api;

namespace {
llvm::Error createArray(CUarray *Out, const CUDA_ARRAY3D_DESCRIPTOR *Desc) {
  CU_INVALID_IF(!Out || !Desc, CUDA_ERROR_INVALID_VALUE,
                "The array and descriptor pointers must not be NULL.");
  CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
  CU_TRY_ASSIGN(std::shared_ptr<Array> A, Array::create(Ctx, *Desc));
  *Out = toHandle(*A);
  return llvm::Error::success();
}

/// Bytes [Offset, Offset + Count) of the first row of \p A.
llvm::Expected<char *> rowRange(const Array &A, size_t Offset, size_t Count,
                                const char *Role) {
  CU_INVALID_IF(Offset > A.rowBytes() || Count > A.rowBytes() - Offset,
                CUDA_ERROR_INVALID_VALUE,
                "{0} bytes from byte {1} do not fit in the {2}-byte first row "
                "of the {3} array.",
                Count, Offset, A.rowBytes(), Role);
  return A.data() + Offset;
}

/// The array a copy names: a NULL one is CUDA_ERROR_INVALID_VALUE, as on
/// NVIDIA.
llvm::Expected<std::shared_ptr<Array>> copyArray(CUarray H, const char *Role) {
  CU_INVALID_IF(!H, CUDA_ERROR_INVALID_VALUE, "The {0} array is NULL.", Role);
  return lookupArray(H);
}

/// Moves \p Count bytes in stream \p S's order, queued when \p Async; the
/// arrays in \p Keep stay alive until then.
llvm::Error issueArrayMove(CUstream S, bool Async, void *To, const void *From,
                           size_t Count,
                           std::vector<std::shared_ptr<Array>> Keep) {
  CU_TRY_ASSIGN(Mover Move, currentMover());
  return issueWork(S, Async,
                   [=, Keep = std::move(Keep)] { Move(To, From, Count); });
}

llvm::Error copyHtoA(CUarray Dst, size_t Offset, const void *Src, size_t Count,
                     CUstream S = nullptr, bool Async = false) {
  CU_TRY(current::require());
  CU_TRY_ASSIGN(std::shared_ptr<Array> A, copyArray(Dst, "destination"));
  if (Count == 0)
    return llvm::Error::success();
  CU_INVALID_IF(!Src, CUDA_ERROR_INVALID_VALUE,
                "The source host pointer is NULL.");
  CU_TRY_ASSIGN(char *To, rowRange(*A, Offset, Count, "destination"));
  return issueArrayMove(S, Async && isPageLocked(Src, Count), To, Src, Count,
                        {A});
}

llvm::Error copyAtoH(void *Dst, CUarray Src, size_t Offset, size_t Count,
                     CUstream S = nullptr, bool Async = false) {
  CU_TRY(current::require());
  CU_TRY_ASSIGN(std::shared_ptr<Array> A, copyArray(Src, "source"));
  if (Count == 0)
    return llvm::Error::success();
  CU_INVALID_IF(!Dst, CUDA_ERROR_INVALID_VALUE,
                "The destination host pointer is NULL.");
  CU_TRY_ASSIGN(char *From, rowRange(*A, Offset, Count, "source"));
  return issueArrayMove(S, Async && isPageLocked(Dst, Count), Dst, From, Count,
                        {A});
}

llvm::Error copyDtoA(CUarray Dst, size_t Offset, CUdeviceptr Src,
                     size_t Count) {
  CU_TRY(current::require());
  CU_TRY_ASSIGN(std::shared_ptr<Array> A, copyArray(Dst, "destination"));
  if (Count == 0)
    return llvm::Error::success();
  CU_TRY_ASSIGN(char *To, rowRange(*A, Offset, Count, "destination"));
  CU_TRY_ASSIGN(void *From, checkDeviceRange(Src, Count, "source"));
  return issueArrayMove(nullptr, false, To, From, Count, {A});
}

llvm::Error copyAtoD(CUdeviceptr Dst, CUarray Src, size_t Offset,
                     size_t Count) {
  CU_TRY(current::require());
  CU_TRY_ASSIGN(std::shared_ptr<Array> A, copyArray(Src, "source"));
  if (Count == 0)
    return llvm::Error::success();
  CU_TRY_ASSIGN(char *From, rowRange(*A, Offset, Count, "source"));
  CU_TRY_ASSIGN(void *To, checkDeviceRange(Dst, Count, "destination"));
  return issueArrayMove(nullptr, false, To, From, Count, {A});
}

llvm::Error copyAtoA(CUarray Dst, size_t DstOffset, CUarray Src,
                     size_t SrcOffset, size_t Count) {
  CU_TRY(current::require());
  CU_TRY_ASSIGN(std::shared_ptr<Array> D, copyArray(Dst, "destination"));
  CU_TRY_ASSIGN(std::shared_ptr<Array> S, copyArray(Src, "source"));
  if (Count == 0)
    return llvm::Error::success();
  CU_TRY_ASSIGN(char *To, rowRange(*D, DstOffset, Count, "destination"));
  CU_TRY_ASSIGN(char *From, rowRange(*S, SrcOffset, Count, "source"));
  return issueArrayMove(nullptr, false, To, From, Count, {D, S});
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuArrayCreate_v2(CUarray *Out,
                                               const CUDA_ARRAY_DESCRIPTOR *D) {
  return CU_ENTRY(Out, D).run([&]() -> llvm::Error {
    CU_INVALID_IF(!D, CUDA_ERROR_INVALID_VALUE,
                  "The array descriptor pointer is NULL.");
    CUDA_ARRAY3D_DESCRIPTOR Desc{};
    Desc.Width = D->Width;
    Desc.Height = D->Height;
    Desc.Format = D->Format;
    Desc.NumChannels = D->NumChannels;
    return createArray(Out, &Desc);
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuArray3DCreate_v2(CUarray *Out, const CUDA_ARRAY3D_DESCRIPTOR *D) {
  return CU_ENTRY(Out, D).run([&] { return createArray(Out, D); });
}

CUCPU_EXPORT CUresult CUDAAPI
cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *Out, CUarray H) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The descriptor pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Array> A, lookupArray(H));
    const CUDA_ARRAY3D_DESCRIPTOR &D = A->descriptor();
    Out->Width = D.Width;
    Out->Height = D.Height;
    Out->Format = D.Format;
    Out->NumChannels = D.NumChannels;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *Out, CUarray H) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The descriptor pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Array> A, lookupArray(H));
    *Out = A->descriptor();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuArrayDestroy(CUarray H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Array> A, lookupArray(H));
    // A level of a mipmapped array lives as long as the mipmapped array:
    // NVIDIA's driver answers success and keeps it.
    if (A->isMipmapLevel())
      return llvm::Error::success();
    // Queued copies and launches may still read the array.
    if (std::shared_ptr<Context> Ctx = A->context())
      CU_TRY(Ctx->queues().drain());
    HandleRegistry::get().remove(A.get());
    A->markDestroyed();
    if (std::shared_ptr<Context> Ctx = A->context())
      Ctx->disown(A.get());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemcpyHtoA_v2(CUarray Dst, size_t Offset,
                                              const void *Src, size_t Count) {
  return CU_ENTRY(Dst, Offset, Src, Count).run([&] {
    return copyHtoA(Dst, Offset, Src, Count);
  });
}
CUCPU_EXPORT CUresult CUDAAPI cuMemcpyAtoH_v2(void *Dst, CUarray Src,
                                              size_t Offset, size_t Count) {
  return CU_ENTRY(Dst, Src, Offset, Count).run([&] {
    return copyAtoH(Dst, Src, Offset, Count);
  });
}
CUCPU_EXPORT CUresult CUDAAPI cuMemcpyDtoA_v2(CUarray Dst, size_t Offset,
                                              CUdeviceptr Src, size_t Count) {
  return CU_ENTRY(Dst, Offset, Src, Count).run([&] {
    return copyDtoA(Dst, Offset, Src, Count);
  });
}
CUCPU_EXPORT CUresult CUDAAPI cuMemcpyAtoD_v2(CUdeviceptr Dst, CUarray Src,
                                              size_t Offset, size_t Count) {
  return CU_ENTRY(Dst, Src, Offset, Count).run([&] {
    return copyAtoD(Dst, Src, Offset, Count);
  });
}
CUCPU_EXPORT CUresult CUDAAPI cuMemcpyAtoA_v2(CUarray Dst, size_t DstOffset,
                                              CUarray Src, size_t SrcOffset,
                                              size_t Count) {
  return CU_ENTRY(Dst, DstOffset, Src, SrcOffset, Count).run([&] {
    return copyAtoA(Dst, DstOffset, Src, SrcOffset, Count);
  });
}
CUCPU_EXPORT CUresult CUDAAPI cuMemcpyHtoAAsync_v2(CUarray Dst, size_t Offset,
                                                   const void *Src,
                                                   size_t Count, CUstream S) {
  return CU_ENTRY(Dst, Offset, Src, Count, S).run([&]() -> llvm::Error {
    CU_TRY(checkStream(S));
    return copyHtoA(Dst, Offset, Src, Count, S, true);
  });
}
CUCPU_EXPORT CUresult CUDAAPI cuMemcpyAtoHAsync_v2(void *Dst, CUarray Src,
                                                   size_t Offset, size_t Count,
                                                   CUstream S) {
  return CU_ENTRY(Dst, Src, Offset, Count, S).run([&]() -> llvm::Error {
    CU_TRY(checkStream(S));
    return copyAtoH(Dst, Src, Offset, Count, S, true);
  });
}
