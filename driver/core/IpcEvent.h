//===- IpcEvent.h - Events shared between processes -------------*- C++ -*-===//
//
// The state of an interprocess event (CU_EVENT_INTERPROCESS) that every
// process holding it sees: two counters in a page of a memfd, how often the
// event was recorded and which record completed last. cuIpcGetEventHandle
// names the memfd as IpcMemory's handles do (/proc/<pid>/fd/<fd>).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_IPCEVENT_H
#define CUCPU_DRIVER_CORE_IPCEVENT_H

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <memory>

namespace cucpu {

/// The shared half of an interprocess event.
class SharedEventState {
public:
  /// A new state, for an event created with CU_EVENT_INTERPROCESS.
  static llvm::Expected<std::shared_ptr<SharedEventState>> create();
  /// The state \p Handle names, made by another process.
  static llvm::Expected<std::shared_ptr<SharedEventState>>
  open(const CUipcEventHandle &Handle);
  ~SharedEventState();

  /// The handle other processes open this state with.
  CUipcEventHandle handle() const;

  /// Starts a record: returns its number.
  uint64_t beginRecord();
  /// Marks record \p Record (and every earlier one) complete.
  void complete(uint64_t Record);
  /// The number of the latest record (0: never recorded).
  uint64_t latest() const;
  /// Whether record \p Record has completed.
  bool reached(uint64_t Record) const;
  /// Waits until record \p Record has completed.
  void wait(uint64_t Record) const;

private:
  struct Counters {
    std::atomic<uint64_t> Recorded;
    std::atomic<uint64_t> Completed;
  };
  SharedEventState(int Fd, Counters *Shared, uint64_t Id)
      : Fd(Fd), Shared(Shared), Id(Id) {}

  int Fd;
  Counters *Shared;
  uint64_t Id; ///< In the memfd's name, so that a handle cannot name another.
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_IPCEVENT_H
