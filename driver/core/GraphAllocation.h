//===- GraphAllocation.h - Memory of graph allocation nodes -----*- C++ -*-===//
//
// A memory allocation node (cuGraphAddMemAllocNode, or cuMemAllocAsync in a
// stream capture) has an address for the lifetime of its graph. cucpu
// allocates the memory when the node is made and releases it when the last
// graph, clone or executable graph holding the node is gone; launches and
// frees in between change only whether the program may use it (live): an
// allocation node's launch makes it live, a free node's launch or a free
// outside the graph (cuMemFree, cuMemFreeAsync) ends that. NVIDIA's rules
// follow from the state: a graph whose allocation is still live cannot be
// launched again (unless it frees on launch), and freeing memory that is not
// live is an error.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_GRAPHALLOCATION_H
#define CUCPU_DRIVER_CORE_GRAPHALLOCATION_H

#include "llvm/Support/Error.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace cucpu {

class Context;
class Device;
class MemoryPool;

/// The memory of one allocation node.
class GraphAllocation {
public:
  /// Allocates \p Bytes of device memory from \p Pool in \p Ctx.
  static llvm::Expected<std::shared_ptr<GraphAllocation>>
  create(const std::shared_ptr<Context> &Ctx, MemoryPool &Pool, size_t Bytes);
  /// The allocation whose memory starts at \p Address, if any is alive.
  static std::shared_ptr<GraphAllocation> find(uintptr_t Address);
  ~GraphAllocation();
  GraphAllocation(const GraphAllocation &) = delete;
  GraphAllocation &operator=(const GraphAllocation &) = delete;

  uintptr_t address() const { return Address; }
  size_t size() const { return Bytes; }
  const Device &device() const { return Dev; }

  /// A launch of its allocation node: false if the memory is live already.
  bool allocate() { return !Live.exchange(true); }
  /// A free: false if the memory is not live.
  bool free() { return Live.exchange(false); }
  /// A free outside the graph (cuMemFree, cuMemFreeAsync): as free(), the
  /// memory not live being CUDA_ERROR_INVALID_VALUE.
  llvm::Error freeOutsideGraph();
  bool live() const { return Live.load(); }

  /// Bytes of graph memory of device \p D now, and the most since the
  /// count was last reset (cuDeviceGetGraphMemAttribute).
  static uint64_t bytesOf(const Device &D);
  static uint64_t highOf(const Device &D);
  /// cuDeviceSetGraphMemAttribute: the high-water mark becomes the current
  /// count.
  static void resetHigh(const Device &D);

private:
  GraphAllocation(std::weak_ptr<Context> Owner, const Device &Dev,
                  uintptr_t Address, size_t Bytes)
      : Owner(std::move(Owner)), Dev(Dev), Address(Address), Bytes(Bytes) {}

  std::weak_ptr<Context> Owner;
  const Device &Dev;
  uintptr_t Address;
  size_t Bytes;
  std::atomic<bool> Live{false};
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_GRAPHALLOCATION_H
