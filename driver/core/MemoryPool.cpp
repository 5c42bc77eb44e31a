//===- MemoryPool.cpp - Stream-ordered allocation pools -------------------===//
#include "core/MemoryPool.h"

#include "core/Device.h"
#include "core/Error.h"
#include "core/HandleRegistry.h"

#include <algorithm>
#include <atomic>
#include <cstring>

using namespace cucpu;

namespace {

/// Every pool that has a handle or allocations, and each device's default
/// and current pool. Never destroyed: contexts torn down at exit return
/// memory to their pools.
struct PoolTables {
  std::mutex Mutex;
  std::map<uint64_t, std::shared_ptr<MemoryPool>> ById;
  std::map<int, std::shared_ptr<MemoryPool>> Defaults, Current;
};

PoolTables &tables() {
  static auto *Tables = new PoolTables();
  return *Tables;
}

std::atomic<uint64_t> NextPoolId{1};

CUmemPoolProps defaultProperties(Device &Dev) {
  CUmemPoolProps Props;
  std::memset(&Props, 0, sizeof(Props));
  Props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  Props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Props.location.id = Dev.ordinal();
  return Props;
}

} // namespace

MemoryPool::MemoryPool(Device &Dev, const CUmemPoolProps &Props, bool IsDefault)
    : Object(ObjectKind::MemoryPool), Dev(Dev), Props(Props),
      IsDefault(IsDefault), Id(NextPoolId++) {
  // The owning device has read-write access; others none until granted.
  Access[Dev.ordinal()] = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
}

std::shared_ptr<MemoryPool> MemoryPool::defaultOf(Device &Dev) {
  PoolTables &T = tables();
  std::lock_guard Lock(T.Mutex);
  std::shared_ptr<MemoryPool> &Pool = T.Defaults[Dev.ordinal()];
  if (!Pool) {
    Pool = std::make_shared<MemoryPool>(Dev, defaultProperties(Dev), true);
    T.ById[Pool->id()] = Pool;
    HandleRegistry::get().add(Pool);
  }
  return Pool;
}

std::shared_ptr<MemoryPool> MemoryPool::currentOf(Device &Dev) {
  {
    PoolTables &T = tables();
    std::lock_guard Lock(T.Mutex);
    auto It = T.Current.find(Dev.ordinal());
    if (It != T.Current.end())
      return It->second;
  }
  return defaultOf(Dev);
}

void MemoryPool::setCurrent(Device &Dev, std::shared_ptr<MemoryPool> Pool) {
  PoolTables &T = tables();
  std::lock_guard Lock(T.Mutex);
  T.Current[Dev.ordinal()] = std::move(Pool);
}

std::shared_ptr<MemoryPool> MemoryPool::create(Device &Dev,
                                               const CUmemPoolProps &Props) {
  auto Pool = std::make_shared<MemoryPool>(Dev, Props, false);
  PoolTables &T = tables();
  {
    std::lock_guard Lock(T.Mutex);
    T.ById[Pool->id()] = Pool;
  }
  HandleRegistry::get().add(Pool);
  return Pool;
}

std::shared_ptr<MemoryPool> MemoryPool::byId(uint64_t Id) {
  PoolTables &T = tables();
  std::lock_guard Lock(T.Mutex);
  auto It = T.ById.find(Id);
  return It == T.ById.end() ? nullptr : It->second;
}

llvm::Error MemoryPool::destroy(const std::shared_ptr<MemoryPool> &Pool) {
  CU_INVALID_IF(Pool->IsDefault, CUDA_ERROR_INVALID_VALUE,
                "A device's default memory pool cannot be destroyed.");
  HandleRegistry::get().remove(Pool.get());
  PoolTables &T = tables();
  std::lock_guard Lock(T.Mutex);
  auto Current = T.Current.find(Pool->Dev.ordinal());
  if (Current != T.Current.end() && Current->second == Pool)
    T.Current.erase(Current);
  std::lock_guard PoolLock(Pool->Mutex);
  Pool->Destroyed = true;
  // "the resources associated with the pool will be released automatically
  // once there are no more outstanding allocations".
  if (Pool->Used == 0)
    T.ById.erase(Pool->Id);
  return llvm::Error::success();
}

llvm::Error MemoryPool::take(size_t Bytes) {
  std::lock_guard Lock(Mutex);
  CU_INVALID_IF(Props.maxSize &&
                    Bytes >
                        Props.maxSize - std::min<uint64_t>(Props.maxSize, Used),
                CUDA_ERROR_OUT_OF_MEMORY,
                "The memory pool's maximum size ({0} bytes, {1} used) leaves "
                "no room for {2} bytes.",
                Props.maxSize, Used, Bytes);
  Used += Bytes;
  UsedHigh = std::max(UsedHigh, Used);
  return llvm::Error::success();
}

void MemoryPool::give(size_t Bytes) {
  bool Gone;
  {
    std::lock_guard Lock(Mutex);
    Used -= std::min<uint64_t>(Used, Bytes);
    Gone = Destroyed && Used == 0;
  }
  if (Gone) {
    PoolTables &T = tables();
    std::lock_guard Lock(T.Mutex);
    T.ById.erase(Id);
  }
}

llvm::Error MemoryPool::attribute(CUmemPool_attribute Attribute, void *Value) {
  std::lock_guard Lock(Mutex);
  auto Put64 = [&](uint64_t V) { std::memcpy(Value, &V, sizeof(V)); };
  switch (Attribute) {
  case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
  case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
  case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
    *static_cast<int *>(Value) = Reuse[Attribute - 1];
    return llvm::Error::success();
  case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
    Put64(ReleaseThreshold);
    return llvm::Error::success();
  // No memory is kept in reserve: reserved memory is used memory.
  case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
  case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
    Put64(Used);
    return llvm::Error::success();
  case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
  case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
    Put64(UsedHigh);
    return llvm::Error::success();
  default:
    return makeError(
        CUDA_ERROR_INVALID_VALUE,
        llvm::formatv("{0} is not a memory pool attribute.", int(Attribute)));
  }
}

llvm::Error MemoryPool::setAttribute(CUmemPool_attribute Attribute,
                                     const void *Value) {
  std::lock_guard Lock(Mutex);
  uint64_t V64 = 0;
  switch (Attribute) {
  case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
  case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
  case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
    Reuse[Attribute - 1] = *static_cast<const int *>(Value) != 0;
    return llvm::Error::success();
  case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
    std::memcpy(&ReleaseThreshold, Value, sizeof(ReleaseThreshold));
    return llvm::Error::success();
  case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
  case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
    // "It is illegal to set this attribute to a non-zero value."
    std::memcpy(&V64, Value, sizeof(V64));
    CU_INVALID_IF(V64 != 0, CUDA_ERROR_INVALID_VALUE,
                  "A high-water mark can only be reset to 0 (got {0}).", V64);
    UsedHigh = Used;
    return llvm::Error::success();
  case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
  case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
    return makeError(CUDA_ERROR_INVALID_VALUE,
                     llvm::formatv("Memory pool attribute {0} is read-only.",
                                   int(Attribute)));
  default:
    return makeError(
        CUDA_ERROR_INVALID_VALUE,
        llvm::formatv("{0} is not a memory pool attribute.", int(Attribute)));
  }
}

void MemoryPool::setAccess(int Ordinal, CUmemAccess_flags Flags) {
  std::lock_guard Lock(Mutex);
  Access[Ordinal] = Flags;
}

CUmemAccess_flags MemoryPool::access(int Ordinal) {
  std::lock_guard Lock(Mutex);
  auto It = Access.find(Ordinal);
  return It == Access.end() ? CU_MEM_ACCESS_FLAGS_PROT_NONE : It->second;
}
