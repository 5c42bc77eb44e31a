//===- IpcMemory.cpp - cuMemAlloc memory shared with other processes ------===//
#include "core/IpcMemory.h"

#include "core/Context.h"
#include "core/Error.h"
#include "core/HostMemory.h"
#include "core/PeerMemfd.h"
#include "core/Platform.h"

#include "llvm/Support/MathExtras.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace cucpu;

namespace {

/// What a CUipcMemHandle holds (64 bytes).
struct HandleData {
  uint32_t Magic;
  uint32_t Version;
  int32_t Pid;        ///< The exporting process.
  int32_t Fd;         ///< The memfd, in the exporting process.
  uint64_t BufferId;  ///< The allocation's id: the memfd's name carries it.
  uint64_t Offset;    ///< From the start of the memfd to the allocation.
  uint64_t Size;      ///< The allocation's size.
  uint64_t SpanBytes; ///< The memfd's size.
  uint64_t Unused[2];
};
static_assert(sizeof(HandleData) == CU_IPC_HANDLE_SIZE);

constexpr uint32_t HandleMagic = 0x50494375; // "uCIP"
constexpr uint32_t HandleVersion = 1;

/// An exported allocation's memfd and the range it backs.
struct Export {
  int Fd = -1;
  uintptr_t SpanBase = 0;
  size_t SpanBytes = 0;
};

std::mutex ExportsMutex;
std::map<uintptr_t, Export> &exports() {
  static auto *Table = new std::map<uintptr_t, Export>(); // Used at exit.
  return *Table;
}

std::string memfdName(uint64_t BufferId) {
  return "cucpu-ipc-" + std::to_string(BufferId);
}

llvm::Error systemError(const char *What) {
  int Errno = errno;
  CUresult Code = Errno == ENOMEM || Errno == ENOSPC ? CUDA_ERROR_OUT_OF_MEMORY
                                                     : CUDA_ERROR_UNKNOWN;
  return makeError(
      Code, llvm::formatv("{0} failed: {1}.", What, std::strerror(Errno)));
}

/// Moves [Base, Base + Bytes) into a new memfd, in place.
llvm::Expected<int> moveIntoMemfd(uintptr_t Base, size_t Bytes,
                                  uint64_t BufferId) {
  // Until the remap frees the private pages, the memory exists twice.
  CU_TRY(host::checkHostCanBack(Bytes, "the exported allocation's copy"));
  int Fd = memfd_create(memfdName(BufferId).c_str(), MFD_CLOEXEC);
  if (Fd < 0)
    return systemError("memfd_create");
  const char *From = reinterpret_cast<const char *>(Base);
  for (size_t Done = 0; Done < Bytes;) {
    ssize_t N = pwrite(Fd, From + Done, Bytes - Done, static_cast<off_t>(Done));
    if (N <= 0) {
      llvm::Error E = systemError("Copying the allocation for export");
      close(Fd);
      return E;
    }
    Done += static_cast<size_t>(N);
  }
  if (mmap(reinterpret_cast<void *>(Base), Bytes, PROT_READ | PROT_WRITE,
           MAP_SHARED | MAP_FIXED, Fd, 0) == MAP_FAILED) {
    llvm::Error E = systemError("Remapping the exported allocation");
    close(Fd);
    return E;
  }
  return Fd;
}

} // namespace

llvm::Expected<CUipcMemHandle> ipc::exportMemory(const Allocation &A) {
  uintptr_t SpanBase = A.Base - A.Offset;
  size_t SpanBytes = llvm::alignTo(A.Offset + A.Size, host::pageBytes());
  std::unique_lock Lock(ExportsMutex);
  auto It = exports().find(A.Base);
  if (It == exports().end()) {
    // Kernels and copies in flight may write the memory being copied.
    Lock.unlock();
    for (const std::shared_ptr<Context> &C : Platform::get().liveContexts())
      llvm::consumeError(C->queues().drain());
    Lock.lock();
    It = exports().find(A.Base);
    if (It == exports().end()) {
      CU_TRY_ASSIGN(int Fd, moveIntoMemfd(SpanBase, SpanBytes, A.BufferId));
      It = exports().emplace(A.Base, Export{Fd, SpanBase, SpanBytes}).first;
    }
  }
  HandleData Data{};
  Data.Magic = HandleMagic;
  Data.Version = HandleVersion;
  Data.Pid = getpid();
  Data.Fd = It->second.Fd;
  Data.BufferId = A.BufferId;
  Data.Offset = A.Offset;
  Data.Size = A.Size;
  Data.SpanBytes = SpanBytes;
  CUipcMemHandle Handle;
  std::memcpy(&Handle, &Data, sizeof(Data));
  return Handle;
}

void ipc::unexport(const Allocation &A) {
  std::lock_guard Lock(ExportsMutex);
  auto It = exports().find(A.Base);
  if (It == exports().end())
    return;
  const Export &E = It->second;
  // Private, zero pages again; importers keep the memfd's pages mapped.
  (void)mmap(reinterpret_cast<void *>(E.SpanBase), E.SpanBytes,
             PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
             -1, 0);
  close(E.Fd);
  exports().erase(It);
}

llvm::Expected<Allocation> ipc::openMemory(const CUipcMemHandle &Handle) {
  HandleData Data;
  std::memcpy(&Data, &Handle, sizeof(Data));
  CU_INVALID_IF(Data.Magic != HandleMagic || Data.Version != HandleVersion,
                CUDA_ERROR_INVALID_VALUE,
                "The IPC memory handle was not made by cuIpcGetMemHandle.");
  CU_INVALID_IF(Data.Pid == getpid(), CUDA_ERROR_INVALID_CONTEXT,
                "The IPC memory handle was exported by this process: use "
                "the allocation's own pointer.");
  CU_INVALID_IF(Data.Offset + Data.Size > Data.SpanBytes,
                CUDA_ERROR_INVALID_VALUE,
                "The IPC memory handle is damaged: its allocation runs past "
                "its memory.");
  CU_TRY_ASSIGN(int Fd,
                openPeerMemfd(Data.Pid, Data.Fd, memfdName(Data.BufferId),
                              Data.SpanBytes, "memory of the IPC handle"));
  void *P =
      mmap(nullptr, Data.SpanBytes, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
  llvm::Error MapError = P == MAP_FAILED ? systemError("Mapping the IPC memory")
                                         : llvm::Error::success();
  close(Fd);
  CU_TRY(std::move(MapError));
  Allocation A;
  A.Base = reinterpret_cast<uintptr_t>(P) + Data.Offset;
  A.Offset = Data.Offset;
  A.Size = Data.Size;
  A.Kind = MemoryKind::IpcImported;
  return A;
}

void ipc::closeMemory(const Allocation &A) {
  munmap(reinterpret_cast<void *>(A.Base - A.Offset),
         llvm::alignTo(A.Offset + A.Size, host::pageBytes()));
}
