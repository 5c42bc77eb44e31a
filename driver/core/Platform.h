//===- Platform.h - Driver initialization and the device list ---*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_PLATFORM_H
#define CUCPU_DRIVER_CORE_PLATFORM_H

#include "core/Device.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <vector>

namespace cucpu {

class Context;

/// The process-wide driver state that cuInit creates: the visible devices
/// and the list of live contexts (for pointer queries across contexts).
class Platform {
public:
  /// The process's platform.
  static Platform &get();

  /// cuInit: reads the environment once and creates the devices.
  llvm::Error initialize(unsigned Flags);
  /// Whether initialize() has succeeded.
  bool isInitialized() const {
    return Initialized.load(std::memory_order_acquire);
  }

  /// Number of visible devices.
  int deviceCount() const { return static_cast<int>(Devices.size()); }
  /// The device with ordinal \p Ordinal, or CUDA_ERROR_INVALID_DEVICE.
  llvm::Expected<Device &> device(int Ordinal);
  /// The device whose PCI bus id string is \p BusId.
  llvm::Expected<Device &> deviceByPciBusId(const char *BusId);

  /// Records a newly created context.
  void addContext(const std::shared_ptr<Context> &C);
  /// Forgets a destroyed context.
  void removeContext(const Context *C);
  /// Snapshot of the live contexts: no allocation for up to 8 contexts,
  /// and readers do not wait for each other (memcheck looks up every kernel
  /// access this way).
  llvm::SmallVector<std::shared_ptr<Context>, 8> liveContexts() const;

private:
  Platform() = default;
  llvm::Error createDevices();

  std::mutex InitMutex;
  std::atomic<bool> Initialized{false};
  bool InitAttempted = false;
  CUresult InitResult = CUDA_SUCCESS;
  std::string InitMessage;
  std::vector<std::unique_ptr<Device>> Devices;

  mutable std::shared_mutex ContextsMutex;
  std::vector<std::weak_ptr<Context>> Contexts;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_PLATFORM_H
