//===- DeviceHeap.h - The heap of kernels' malloc and free ------*- C++ -*-===//
//
// A context's device heap (CUDA C Programming Guide, "Dynamic Global Memory
// Allocation and Operations"): kernels' malloc takes 16-byte aligned blocks
// from it and returns null once it is full (malloc(0) a block of its own, as
// on NVIDIA); free gives them back; memory stays allocated across launches
// until freed or the context is destroyed. Its size is
// CU_LIMIT_MALLOC_HEAP_SIZE when a kernel first allocates, fixed from then
// on; the pages are mapped then and committed as they are used.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_DEVICEHEAP_H
#define CUCPU_DRIVER_CORE_DEVICEHEAP_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

namespace cucpu {

class DeviceHeap {
public:
  /// \p Capacity is asked for when a kernel first allocates.
  explicit DeviceHeap(std::function<size_t()> Capacity);
  ~DeviceHeap();
  DeviceHeap(const DeviceHeap &) = delete;
  DeviceHeap &operator=(const DeviceHeap &) = delete;

  /// A block of \p Bytes, or null when none is free.
  void *allocate(size_t Bytes);
  /// What release() found.
  enum class Release { Freed, NotInHeap, NotALiveBlock };
  /// Frees the block at \p Ptr: NotInHeap when \p Ptr lies outside the
  /// heap, NotALiveBlock when inside it but not the start of a live block
  /// (freed already, say).
  Release release(void *Ptr);
  /// Whether a kernel has allocated from it (its size is fixed).
  bool inUse() const;
  /// Whether [Address, Address + Bytes) lies in one live block.
  bool contains(uintptr_t Address, size_t Bytes) const;

private:
  /// Maps the heap on first use; false when that fails.
  bool reserve();

  std::function<size_t()> Capacity;
  mutable std::mutex Mutex;
  char *Base = nullptr;
  size_t Size = 0;
  std::map<size_t, size_t> Free; ///< Offset to bytes, coalesced.
  std::map<size_t, size_t> Live; ///< Offset to bytes.
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_DEVICEHEAP_H
