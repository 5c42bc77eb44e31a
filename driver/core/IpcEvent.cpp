//===- IpcEvent.cpp - Events shared between processes ---------------------===//
#include "core/IpcEvent.h"

#include "core/Error.h"
#include "core/PeerMemfd.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace cucpu;

namespace {

/// What a CUipcEventHandle holds (64 bytes).
struct EventHandleData {
  uint32_t Magic;
  uint32_t Version;
  int32_t Pid; ///< The creating process.
  int32_t Fd;  ///< The memfd, in that process.
  uint64_t Id; ///< The memfd's name carries it.
  uint64_t Unused[5];
};
static_assert(sizeof(EventHandleData) == CU_IPC_HANDLE_SIZE);

constexpr uint32_t EventHandleMagic = 0x45504355; // "UCPE"
constexpr uint32_t EventHandleVersion = 1;

std::atomic<uint64_t> NextId{1};

std::string eventMemfdName(uint64_t Id) {
  return "cucpu-ipc-event-" + std::to_string(Id);
}

constexpr size_t StateBytes = 4096;

} // namespace

llvm::Expected<std::shared_ptr<SharedEventState>> SharedEventState::create() {
  uint64_t Id = NextId++;
  int Fd = memfd_create(eventMemfdName(Id).c_str(), MFD_CLOEXEC);
  CU_INVALID_IF(Fd < 0, CUDA_ERROR_OUT_OF_MEMORY,
                "The interprocess event's shared memory: memfd_create failed "
                "({0}).",
                std::strerror(errno));
  void *P = MAP_FAILED;
  if (ftruncate(Fd, StateBytes) == 0)
    P = mmap(nullptr, StateBytes, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
  if (P == MAP_FAILED) {
    int Errno = errno;
    close(Fd);
    return makeError(CUDA_ERROR_OUT_OF_MEMORY,
                     llvm::formatv("The interprocess event's shared memory "
                                   "could not be mapped ({0}).",
                                   std::strerror(Errno)));
  }
  // A new memfd reads as zeros: both counters start at 0.
  return std::shared_ptr<SharedEventState>(
      new SharedEventState(Fd, static_cast<Counters *>(P), Id));
}

llvm::Expected<std::shared_ptr<SharedEventState>>
SharedEventState::open(const CUipcEventHandle &Handle) {
  EventHandleData Data;
  std::memcpy(&Data, &Handle, sizeof(Data));
  CU_INVALID_IF(Data.Magic != EventHandleMagic ||
                    Data.Version != EventHandleVersion,
                CUDA_ERROR_INVALID_VALUE,
                "The IPC event handle was not made by cuIpcGetEventHandle.");
  CU_INVALID_IF(Data.Pid == getpid(), CUDA_ERROR_INVALID_CONTEXT,
                "The IPC event handle was made by this process: use the "
                "event itself.");
  CU_TRY_ASSIGN(int Fd,
                openPeerMemfd(Data.Pid, Data.Fd, eventMemfdName(Data.Id),
                              StateBytes, "IPC event"));
  void *P =
      mmap(nullptr, StateBytes, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
  if (P == MAP_FAILED) {
    int Errno = errno;
    close(Fd);
    return makeError(CUDA_ERROR_OUT_OF_MEMORY,
                     llvm::formatv("The IPC event could not be mapped ({0}).",
                                   std::strerror(Errno)));
  }
  return std::shared_ptr<SharedEventState>(
      new SharedEventState(Fd, static_cast<Counters *>(P), Data.Id));
}

SharedEventState::~SharedEventState() {
  munmap(Shared, StateBytes);
  close(Fd);
}

CUipcEventHandle SharedEventState::handle() const {
  EventHandleData Data{};
  Data.Magic = EventHandleMagic;
  Data.Version = EventHandleVersion;
  Data.Pid = getpid();
  Data.Fd = Fd;
  Data.Id = Id;
  CUipcEventHandle Handle;
  std::memcpy(&Handle, &Data, sizeof(Data));
  return Handle;
}

uint64_t SharedEventState::beginRecord() {
  return Shared->Recorded.fetch_add(1, std::memory_order_acq_rel) + 1;
}

void SharedEventState::complete(uint64_t Record) {
  uint64_t Done = Shared->Completed.load(std::memory_order_acquire);
  while (Done < Record && !Shared->Completed.compare_exchange_weak(
                              Done, Record, std::memory_order_acq_rel))
    ;
}

uint64_t SharedEventState::latest() const {
  return Shared->Recorded.load(std::memory_order_acquire);
}

bool SharedEventState::reached(uint64_t Record) const {
  return Shared->Completed.load(std::memory_order_acquire) >= Record;
}

void SharedEventState::wait(uint64_t Record) const {
  // Another process completes the record: poll, backing off to 1 ms.
  auto Pause = std::chrono::microseconds(1);
  while (!reached(Record)) {
    std::this_thread::sleep_for(Pause);
    Pause = std::min(Pause * 2, std::chrono::microseconds(1000));
  }
}
