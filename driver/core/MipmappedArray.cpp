//===- MipmappedArray.cpp - A CUDA mipmapped array ------------------------===//
#include "core/MipmappedArray.h"

#include "core/Array.h"
#include "core/Context.h"
#include "core/Error.h"
#include "core/HandleRegistry.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace cucpu;

namespace {
/// Whether the descriptor's Depth counts layers or faces, not texels.
bool depthIsCount(const CUDA_ARRAY3D_DESCRIPTOR &D) {
  return D.Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
}

/// \p Extent at level \p L: halved L times, at least 1 (0 stays 0).
size_t levelExtent(size_t Extent, unsigned L) {
  return Extent == 0 ? 0 : std::max<size_t>(Extent >> L, 1);
}
} // namespace

unsigned cucpu::fullMipmapLevels(const CUDA_ARRAY3D_DESCRIPTOR &D) {
  size_t Largest = std::max(D.Width, D.Height);
  if (!depthIsCount(D))
    Largest = std::max(Largest, D.Depth);
  return Largest == 0 ? 0 : llvm::Log2_64(Largest) + 1;
}

llvm::Expected<std::shared_ptr<MipmappedArray>>
MipmappedArray::create(const std::shared_ptr<Context> &Ctx,
                       const CUDA_ARRAY3D_DESCRIPTOR &Desc, unsigned Levels) {
  // NVIDIA's driver makes at least one level and no more than the full
  // chain, whatever the count asks.
  Levels = std::clamp(Levels, 1u, std::max(fullMipmapLevels(Desc), 1u));
  auto M = std::make_shared<MipmappedArray>();
  M->Owner = Ctx;
  M->Desc = Desc;
  for (unsigned L = 0; L < Levels; ++L) {
    CUDA_ARRAY3D_DESCRIPTOR Level = Desc;
    Level.Width = levelExtent(Desc.Width, L);
    Level.Height = levelExtent(Desc.Height, L);
    if (!depthIsCount(Desc))
      Level.Depth = levelExtent(Desc.Depth, L);
    llvm::Expected<std::shared_ptr<Array>> A = Array::create(Ctx, Level);
    if (!A) {
      M->destroyLevels();
      return A.takeError();
    }
    (*A)->markMipmapLevel();
    M->Levels.push_back(std::move(*A));
  }
  HandleRegistry::get().add(M);
  Ctx->own(M);
  return M;
}

std::shared_ptr<Array> MipmappedArray::level(unsigned L) const {
  return L < Levels.size() ? Levels[L] : nullptr;
}

void MipmappedArray::destroyLevels() {
  std::shared_ptr<Context> Ctx = context();
  for (const std::shared_ptr<Array> &A : Levels) {
    HandleRegistry::get().remove(A.get());
    A->markDestroyed();
    if (Ctx)
      Ctx->disown(A.get());
  }
}
