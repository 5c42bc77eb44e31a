//===- MemoryPool.h - Stream-ordered allocation pools -----------*- C++ -*-===//
//
// CUmemoryPool: where cuMemAllocAsync and cuMemAllocFromPoolAsync take
// device memory. A pool allocates at once (memory is usable by the stream's
// later work, and by any work after the call, which CUDA allows) and
// cuMemFreeAsync frees when the stream reaches the free. A pool keeps no
// memory in reserve: freed memory goes back to the host at once, so its
// reserved memory is always its used memory (docs/conformance.md).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_MEMORYPOOL_H
#define CUCPU_DRIVER_CORE_MEMORYPOOL_H

#include <cuda.h>

#include "core/Object.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

namespace cucpu {

class Device;

/// One memory pool of one device.
class MemoryPool : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::MemoryPool;

  /// The device's default pool (created on first use, never destroyed).
  static std::shared_ptr<MemoryPool> defaultOf(Device &Dev);
  /// The pool cuMemAllocAsync uses on \p Dev (cuDeviceSetMemPool).
  static std::shared_ptr<MemoryPool> currentOf(Device &Dev);
  /// cuDeviceSetMemPool.
  static void setCurrent(Device &Dev, std::shared_ptr<MemoryPool> Pool);
  /// cuMemPoolCreate (\p Props already checked); registered as a handle.
  static std::shared_ptr<MemoryPool> create(Device &Dev,
                                            const CUmemPoolProps &Props);
  /// The pool with \p Id while it has allocations or a handle.
  static std::shared_ptr<MemoryPool> byId(uint64_t Id);
  /// cuMemPoolDestroy: the handle goes; a device whose current pool it was
  /// gets its default pool back; memory still allocated stays valid.
  static llvm::Error destroy(const std::shared_ptr<MemoryPool> &Pool);

  MemoryPool(Device &Dev, const CUmemPoolProps &Props, bool IsDefault);

  Device &device() const { return Dev; }
  uint64_t id() const { return Id; }
  bool isDefault() const { return IsDefault; }
  const CUmemPoolProps &properties() const { return Props; }

  /// Checks \p Bytes against the pool's maximum size and counts it as used.
  llvm::Error take(size_t Bytes);
  /// Counts \p Bytes as no longer used (a free, or its context's teardown).
  void give(size_t Bytes);

  /// cuMemPoolGetAttribute / cuMemPoolSetAttribute (\p Value points at an
  /// int or a cuuint64_t, as the attribute says).
  llvm::Error attribute(CUmemPool_attribute Attribute, void *Value);
  llvm::Error setAttribute(CUmemPool_attribute Attribute, const void *Value);

  /// cuMemPoolSetAccess / cuMemPoolGetAccess for device \p Ordinal.
  void setAccess(int Ordinal, CUmemAccess_flags Flags);
  CUmemAccess_flags access(int Ordinal);

private:
  Device &Dev;
  CUmemPoolProps Props;
  bool IsDefault;
  uint64_t Id;
  std::mutex Mutex;
  uint64_t Used = 0, UsedHigh = 0, ReleaseThreshold = 0;
  int Reuse[3] = {1, 1, 1}; ///< The three CU_MEMPOOL_ATTR_REUSE_* flags.
  std::map<int, CUmemAccess_flags> Access;
  bool Destroyed = false;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_MEMORYPOOL_H
