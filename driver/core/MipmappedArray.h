//===- MipmappedArray.h - A CUDA mipmapped array --------------*- C++ -*-===//
//
// A mipmapped array (CUmipmappedArray) is a chain of CUDA arrays, level 0
// the size the descriptor names and each further level half as large in
// every dimension that is not a layer or face count (at least 1). The
// levels are ordinary arrays (cuMipmappedArrayGetLevel hands them out) that
// the mipmapped array owns: cuArrayDestroy refuses them, and destroying the
// mipmapped array destroys them.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_MIPMAPPEDARRAY_H
#define CUCPU_DRIVER_CORE_MIPMAPPEDARRAY_H

#include "core/Object.h"

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace cucpu {

class Array;
class Context;

class MipmappedArray : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::MipmappedArray;

  /// cuMipmappedArrayCreate: validates \p Desc as NVIDIA's driver does and
  /// creates \p Levels levels (at least 1, at most the full chain), owned
  /// by \p Ctx.
  static llvm::Expected<std::shared_ptr<MipmappedArray>>
  create(const std::shared_ptr<Context> &Ctx,
         const CUDA_ARRAY3D_DESCRIPTOR &Desc, unsigned Levels);

  const CUDA_ARRAY3D_DESCRIPTOR &descriptor() const { return Desc; }
  unsigned levelCount() const { return unsigned(Levels.size()); }
  /// Level \p L (null past the last level).
  std::shared_ptr<Array> level(unsigned L) const;
  /// The context that owns it (null once destroyed).
  std::shared_ptr<Context> context() const { return Owner.lock(); }

  /// cuMipmappedArrayDestroy: the levels stop being handles too.
  void destroyLevels();

  MipmappedArray() : Object(ObjectKind::MipmappedArray) {}

private:
  std::weak_ptr<Context> Owner;
  CUDA_ARRAY3D_DESCRIPTOR Desc{};
  std::vector<std::shared_ptr<Array>> Levels;
};

/// The number of levels a full mipmap chain of \p Desc has: 1 + log2 of its
/// largest extent (layer and face counts excluded).
unsigned fullMipmapLevels(const CUDA_ARRAY3D_DESCRIPTOR &Desc);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_MIPMAPPEDARRAY_H
