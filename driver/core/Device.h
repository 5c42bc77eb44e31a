//===- Device.h - A CPU device ----------------------------------*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_DEVICE_H
#define CUCPU_DRIVER_CORE_DEVICE_H

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>

namespace cucpu {

class Context;

/// The compute capability every cucpu device reports (see
/// docs/conformance.md for why 7.5).
inline constexpr int ComputeCapabilityMajor = 7;
inline constexpr int ComputeCapabilityMinor = 5;

/// Static shared memory a block may use, as on NVIDIA's devices.
inline constexpr int SharedMemoryPerBlock = 48 * 1024;
/// Shared memory a block may use when the kernel opts in.
inline constexpr int SharedMemoryPerBlockOptIn = 64 * 1024;
/// Constant memory of a device.
inline constexpr int ConstantMemory = 64 * 1024;
/// Alignment of every allocation: the seeds promise "at least 256 bytes";
/// NVIDIA aligns to the texture alignment, which cuTexRefSetAddress needs.
inline constexpr size_t AllocationAlignment = 512;
/// Device memory allocations of at least this size are aligned to it and
/// backed by transparent huge pages where the host has them, as a GPU maps
/// device memory with large pages: kernels that sweep large arrays miss
/// the TLB far less.
inline constexpr size_t HugePageBytes = size_t(2) << 20;
/// Huge-page allocations start this many allocation alignments apart
/// within a 4 KiB page, cycling: two arrays that start at the same place in
/// a page make the CPU take a load from one for a store to the other (4K
/// aliasing) when a kernel streams both, which costs a streaming kernel
/// such as saxpy 5-10%.
inline constexpr unsigned HugePageColors = 8;
/// Row alignment of cuMemAllocPitch.
inline constexpr size_t PitchAlignment = 512;
/// Largest pitch of a 2D allocation or copy.
inline constexpr size_t MaxPitch = 2147483647;

/// What a device is made of; chosen by the platform from the environment.
struct DeviceDescription {
  int Ordinal = 0;
  std::string Name;
  unsigned Workers = 1;    ///< Worker threads, reported as multiprocessors.
  size_t MemoryBudget = 0; ///< Bytes of "device memory".
  CUuuid Uuid{};
  int PciBus = 0;
  int ClockRateKHz = 2000000; ///< The host CPU's clock.
  int CacheBytes = 4 << 20;   ///< The host's last-level cache, reported as L2.
};

/// One CPU device: a share of the host's cores and a memory budget. Device
/// memory is host memory; the budget makes cuMemGetInfo and out-of-memory
/// behave as on a GPU.
class Device {
public:
  explicit Device(DeviceDescription Description);
  ~Device();

  int ordinal() const { return Desc.Ordinal; }
  const std::string &name() const { return Desc.Name; }
  unsigned workers() const { return Desc.Workers; }
  size_t totalMemory() const { return Desc.MemoryBudget; }
  const CUuuid &uuid() const { return Desc.Uuid; }
  /// The PCI bus number this device reports.
  int pciBus() const { return Desc.PciBus; }
  /// "domain:bus:device.function", as cuDeviceGetPCIBusId writes it.
  std::string pciBusId() const;

  /// The value of device attribute \p Attribute, or CUDA_ERROR_INVALID_VALUE
  /// for an attribute this driver does not know.
  llvm::Expected<int> attribute(int Attribute) const;

  /// Charges \p Bytes against the memory budget, or CUDA_ERROR_OUT_OF_MEMORY.
  llvm::Error reserveMemory(size_t Bytes);
  /// Returns \p Bytes to the budget.
  void releaseMemory(size_t Bytes);
  /// Bytes currently charged.
  size_t usedMemory() const { return Used.load(std::memory_order_relaxed); }
  /// Bytes an allocation could get now: what the budget has left, or less
  /// where the host has less to give (host::allocatableMemory).
  size_t freeMemory() const;

  /// The device's primary context, shared by every retain.
  std::mutex PrimaryMutex;
  std::shared_ptr<Context> Primary; ///< Null while inactive.
  unsigned PrimaryFlags = 0;
  unsigned PrimaryRetains = 0;

private:
  DeviceDescription Desc;
  std::atomic<size_t> Used{0};
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_DEVICE_H
