//===- Surface.h - Surface references and objects ---------------*- C++ -*-===//
//
// A surface reference (CUsurfref) is a module's surface<void, Type>
// variable: which CUDA array it is bound to (cuSurfRefSetArray), which each
// launch copies into the module's table of texture and surface references.
// A surface object (CUsurfObject) is a CUDA array fixed at creation; its
// handle is the address of its description, which kernels read directly.
// Both describe the array as a CucpuTexture carrying CucpuSurfaceMagic
// (modules/abi/include/cucpu/modules/abi/SurfaceAbi.h).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_SURFACE_H
#define CUCPU_DRIVER_CORE_SURFACE_H

#include "core/Object.h"

#include "cucpu/modules/abi/SurfaceAbi.h"

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>

namespace cucpu {

class Array;
class Context;

/// The description surface accesses read for array \p A.
CucpuTexture surfaceDescription(const Array &A);

/// A surface reference of a module (cuModuleGetSurfRef).
class SurfRef : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::SurfRef;

  explicit SurfRef(std::weak_ptr<Context> Ctx)
      : Object(ObjectKind::SurfRef), Ctx(std::move(Ctx)) {}

  /// cuSurfRefSetArray: \p Flags must be 0 and the array must have been
  /// created with CUDA_ARRAY3D_SURFACE_LDST (CUDA_ERROR_INVALID_VALUE).
  llvm::Error setArray(std::shared_ptr<Array> A, unsigned Flags);
  /// cuSurfRefGetArray: the bound array, or CUDA_ERROR_INVALID_VALUE when
  /// there is none (never bound, or its array destroyed).
  llvm::Expected<std::shared_ptr<Array>> array() const;
  /// What a launch reads; \p Keep receives the bound array, which must
  /// outlive the launch.
  CucpuTexture describe(std::shared_ptr<Array> &Keep) const;

private:
  std::weak_ptr<Context> Ctx;
  mutable std::mutex Mutex;
  std::weak_ptr<Array> Bound;
};

/// A surface object (cuSurfObjectCreate).
class SurfObject : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::SurfObject;

  /// Validates \p Res as NVIDIA's driver does (an array resource without
  /// flags) and creates the object, owned by \p Ctx and registered under
  /// its handle.
  static llvm::Expected<std::shared_ptr<SurfObject>>
  create(const std::shared_ptr<Context> &Ctx, const CUDA_RESOURCE_DESC &Res);

  /// The CUsurfObject value: the address of the description kernels read.
  CUsurfObject handle() const { return reinterpret_cast<uintptr_t>(&Surface); }
  const void *handleKey() const override { return &Surface; }

  /// The array the object was created for.
  CUarray array() const { return ArrayHandle; }
  /// The context that owns the object (null once destroyed).
  std::shared_ptr<Context> context() const { return Owner.lock(); }

  ~SurfObject() override;

private:
  SurfObject() : Object(ObjectKind::SurfObject) {}

  std::weak_ptr<Context> Owner;
  CUarray ArrayHandle = nullptr;
  std::shared_ptr<Array> Keep; ///< The array's storage lives while we do.
  CucpuTexture Surface{};
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_SURFACE_H
