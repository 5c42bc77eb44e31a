//===- Array.h - A CUDA array (CUarray) -------------------------*- C++ -*-===//
//
// "CUDA arrays are opaque memory layouts optimized for texture fetching"
// (Programming Guide 1.1, §4.3.1.2). cucpu lays an array out as packed rows
// (x fastest, then y, then z): texture fetches read it through a
// CucpuTexture with the matching pitches. The storage is the array's own and
// is charged to its device's memory; an array is owned by its context.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_ARRAY_H
#define CUCPU_DRIVER_CORE_ARRAY_H

#include "core/Object.h"

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <atomic>
#include <memory>

namespace cucpu {

class Context;
class Device;

/// Bytes of one channel of \p Format; 0 for a value that names no format.
unsigned formatBytes(unsigned Format);
/// Whether \p Channels is a channel count arrays and textures accept.
inline bool validChannelCount(unsigned Channels) {
  return Channels == 1 || Channels == 2 || Channels == 4;
}

/// A 1D, 2D or 3D array, layered or cubemap.
class Array : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::Array;

  /// cuArray3DCreate (cuArrayCreate passes Depth 0 and no flags): validates
  /// \p Desc as NVIDIA's driver does, allocates zeroed storage (large arrays
  /// as anonymous mappings, whose pages exist once written) and registers
  /// the array, owned by \p Ctx.
  static llvm::Expected<std::shared_ptr<Array>>
  create(const std::shared_ptr<Context> &Ctx,
         const CUDA_ARRAY3D_DESCRIPTOR &Desc);
  ~Array() override;

  const CUDA_ARRAY3D_DESCRIPTOR &descriptor() const { return Desc; }
  /// Bytes of one element (all channels).
  unsigned elementBytes() const { return ElementBytes; }
  /// Bytes of one row, the unit of the 1D copies.
  size_t rowBytes() const { return Desc.Width * ElementBytes; }
  /// Rows per slice (1 for a 1D array) and slices (layers, or 1).
  size_t rows() const { return Desc.Height ? Desc.Height : 1; }
  size_t slices() const { return Desc.Depth ? Desc.Depth : 1; }
  size_t sliceBytes() const { return rowBytes() * rows(); }
  char *data() const { return Storage; }
  /// The context that owns the array (null once destroyed).
  std::shared_ptr<Context> context() const { return Owner.lock(); }

  /// Whether the array is a level of a mipmapped array, which owns it.
  bool isMipmapLevel() const { return MipmapLevel; }
  void markMipmapLevel() { MipmapLevel = true; }

  /// cuArrayDestroy: the array stops being a handle and texture references
  /// bound to it see it unbound; its storage lives while anything holds it.
  void markDestroyed() { Destroyed.store(true, std::memory_order_release); }
  bool destroyed() const { return Destroyed.load(std::memory_order_acquire); }

private:
  Array(Device &Dev, const CUDA_ARRAY3D_DESCRIPTOR &Desc, unsigned ElementBytes,
        size_t Bytes);

  Device &Dev;
  std::weak_ptr<Context> Owner;
  CUDA_ARRAY3D_DESCRIPTOR Desc;
  unsigned ElementBytes;
  size_t Bytes;
  char *Storage = nullptr; ///< Zeroed; mapped when large (see create()).
  std::atomic<bool> Destroyed{false};
  bool MipmapLevel = false;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_ARRAY_H
