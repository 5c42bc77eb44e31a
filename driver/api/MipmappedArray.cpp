//===- MipmappedArray.cpp - Mipmapped arrays (cuMipmappedArray*) ----------===//
#include "api/Handles.h"
#include "core/EntryPoint.h"

using namespace cucpu;
using namespace cucpu::api;

CUCPU_EXPORT CUresult CUDAAPI cuMipmappedArrayCreate(
    CUmipmappedArray *Out, const CUDA_ARRAY3D_DESCRIPTOR *Desc,
    unsigned int Levels) {
  return CU_ENTRY(Out, Desc, Levels).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out || !Desc, CUDA_ERROR_INVALID_VALUE,
                  "The mipmapped array and descriptor pointers must not be "
                  "NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<MipmappedArray> M,
                  MipmappedArray::create(Ctx, *Desc, Levels));
    *Out = reinterpret_cast<CUmipmappedArray>(M.get());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMipmappedArrayGetLevel(CUarray *Out,
                                                       CUmipmappedArray H,
                                                       unsigned int Level) {
  return CU_ENTRY(Out, H, Level).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The level array pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<MipmappedArray> M, lookupMipmappedArray(H));
    std::shared_ptr<Array> A = M->level(Level);
    CU_INVALID_IF(!A, CUDA_ERROR_INVALID_VALUE,
                  "The mipmapped array has {0} levels; there is no level {1}.",
                  M->levelCount(), Level);
    *Out = toHandle(*A);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMipmappedArrayDestroy(CUmipmappedArray H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<MipmappedArray> M, lookupMipmappedArray(H));
    // Queued copies and launches may still read the levels.
    if (std::shared_ptr<Context> Ctx = M->context())
      CU_TRY(Ctx->queues().drain());
    HandleRegistry::get().remove(M.get());
    M->destroyLevels();
    if (std::shared_ptr<Context> Ctx = M->context())
      Ctx->disown(M.get());
    return llvm::Error::success();
  });
}
