//===- VirtualMemory.cpp - cuMemCreate, cuMemAddressReserve, cuMemMap -----===//
#include "core/VirtualMemory.h"

#include "core/Context.h"
#include "core/Device.h"
#include "core/Error.h"
#include "core/HostMemory.h"
#include "core/PeerMemfd.h"
#include "core/Platform.h"

#include "llvm/Support/MathExtras.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace cucpu;

/// The name every memfd of this driver carries: an imported descriptor must
/// be one, so that a random file is refused instead of mapped.
static constexpr const char *MemfdName = "cucpu-vmm";

struct VirtualMemory::Physical {
  int Fd = -1;
  size_t Bytes = 0;
  CUmemAllocationProp Prop{};
  Device *ChargedTo = nullptr; ///< Null for imported memory.
  CUmemGenericAllocationHandle Handle = 0;

  ~Physical() {
    if (Fd >= 0)
      close(Fd);
    if (ChargedTo)
      ChargedTo->releaseMemory(Bytes);
  }
};

struct VirtualMemory::Mapping {
  void *Base = nullptr;
  size_t Bytes = 0;
  size_t Offset = 0;
  std::shared_ptr<Physical> Memory;
  uint64_t BufferId = 0;
  /// CUmemAccess_flags per device ordinal (cucpu has at most 64 devices).
  std::map<int, CUmemAccess_flags> Access;

  bool accessible() const {
    for (const auto &[Ordinal, Flags] : Access)
      if (Flags != CU_MEM_ACCESS_FLAGS_PROT_NONE)
        return true;
    return false;
  }
};

VirtualMemory &VirtualMemory::get() {
  static VirtualMemory *Instance = new VirtualMemory(); // Never destroyed:
  return *Instance; // mappings may be looked up during process exit.
}

static llvm::Error systemError(const char *What) {
  int Errno = errno;
  CUresult Code = Errno == ENOMEM || Errno == ENOSPC ? CUDA_ERROR_OUT_OF_MEMORY
                                                     : CUDA_ERROR_UNKNOWN;
  return makeError(
      Code, llvm::formatv("{0} failed: {1}.", What, std::strerror(Errno)));
}

llvm::Expected<VirtualMemory::HandleEntry &>
VirtualMemory::lookup(CUmemGenericAllocationHandle Handle) {
  auto It = Handles.find(Handle);
  CU_INVALID_IF(It == Handles.end(), CUDA_ERROR_INVALID_VALUE,
                "{0:x} is not a live allocation handle (cuMemCreate, "
                "cuMemRetainAllocationHandle, cuMemImportFromShareableHandle).",
                Handle);
  return It->second;
}

CUmemGenericAllocationHandle
VirtualMemory::addHandle(std::shared_ptr<Physical> Memory) {
  CUmemGenericAllocationHandle H = NextHandle++;
  Memory->Handle = H;
  Handles[H] = HandleEntry{std::move(Memory), 1};
  return H;
}

llvm::Expected<CUmemGenericAllocationHandle>
VirtualMemory::create(Device &Dev, size_t Bytes,
                      const CUmemAllocationProp &Prop) {
  CU_TRY(host::checkHostCanBack(Bytes, "the physical allocation"));
  CU_TRY(Dev.reserveMemory(Bytes));
  auto Memory = std::make_shared<Physical>();
  Memory->ChargedTo = &Dev;
  Memory->Bytes = Bytes;
  Memory->Prop = Prop;
  Memory->Fd = memfd_create(MemfdName, MFD_CLOEXEC);
  if (Memory->Fd < 0)
    return systemError("memfd_create");
  if (ftruncate(Memory->Fd, static_cast<off_t>(Bytes)) != 0)
    return systemError("Sizing the physical allocation");
  // Committed now, as a GPU's memory is (HostMemory.h).
  if (int Err = posix_fallocate(Memory->Fd, 0, static_cast<off_t>(Bytes))) {
    errno = Err;
    return systemError("Committing the physical allocation");
  }
  std::lock_guard Lock(Mutex);
  return addHandle(std::move(Memory));
}

llvm::Error VirtualMemory::release(CUmemGenericAllocationHandle Handle) {
  std::lock_guard Lock(Mutex);
  CU_TRY_ASSIGN(HandleEntry & Entry, lookup(Handle));
  if (--Entry.References == 0)
    Handles.erase(Handle);
  return llvm::Error::success();
}

llvm::Expected<CUmemAllocationProp>
VirtualMemory::properties(CUmemGenericAllocationHandle Handle) {
  std::lock_guard Lock(Mutex);
  CU_TRY_ASSIGN(HandleEntry & Entry, lookup(Handle));
  return Entry.Memory->Prop;
}

llvm::Expected<CUmemGenericAllocationHandle>
VirtualMemory::retain(uintptr_t Address) {
  std::lock_guard Lock(Mutex);
  auto It = Mappings.upper_bound(Address);
  CU_INVALID_IF(It == Mappings.begin() || Address - std::prev(It)->first >=
                                              std::prev(It)->second.Bytes,
                CUDA_ERROR_INVALID_VALUE,
                "{0:x} is not inside a range mapped with cuMemMap.", Address);
  std::shared_ptr<Physical> Memory = std::prev(It)->second.Memory;
  // The handle may have been released while the mapping kept the memory:
  // retaining it makes it live again, under the same value.
  auto [Entry, Inserted] =
      Handles.try_emplace(Memory->Handle, HandleEntry{Memory, 0});
  ++Entry->second.References;
  return Memory->Handle;
}

llvm::Expected<int>
VirtualMemory::exportFd(CUmemGenericAllocationHandle Handle) {
  std::lock_guard Lock(Mutex);
  CU_TRY_ASSIGN(HandleEntry & Entry, lookup(Handle));
  CU_INVALID_IF(!(Entry.Memory->Prop.requestedHandleTypes &
                  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
                CUDA_ERROR_INVALID_VALUE,
                "The allocation was not created with "
                "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR in its "
                "requestedHandleTypes, so it cannot be exported as one.");
  int Fd = fcntl(Entry.Memory->Fd, F_DUPFD_CLOEXEC, 0);
  if (Fd < 0)
    return systemError("Duplicating the allocation's file descriptor");
  return Fd;
}

llvm::Expected<CUmemGenericAllocationHandle>
VirtualMemory::importFd(int Fd, int DeviceOrdinal) {
  CU_INVALID_IF(!isMemfdNamed(Fd, MemfdName), CUDA_ERROR_INVALID_VALUE,
                "File descriptor {0} is not an allocation exported with "
                "cuMemExportToShareableHandle.",
                Fd);
  struct stat S;
  if (fstat(Fd, &S) != 0)
    return systemError("Reading the imported allocation's size");
  auto Memory = std::make_shared<Physical>();
  Memory->Bytes = static_cast<size_t>(S.st_size);
  Memory->Prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  Memory->Prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  Memory->Prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Memory->Prop.location.id = DeviceOrdinal;
  Memory->Fd = fcntl(Fd, F_DUPFD_CLOEXEC, 0);
  if (Memory->Fd < 0)
    return systemError("Duplicating the imported file descriptor");
  std::lock_guard Lock(Mutex);
  return addHandle(std::move(Memory));
}

llvm::Expected<uintptr_t> VirtualMemory::reserve(size_t Bytes, size_t Alignment,
                                                 uintptr_t Hint) {
  Alignment = std::max(Alignment, VmmGranularity);
  int Flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  // The hint is taken when the kernel can give exactly that range.
  if (Hint && Hint % Alignment == 0) {
    void *P = mmap(reinterpret_cast<void *>(Hint), Bytes, PROT_NONE,
                   Flags | MAP_FIXED_NOREPLACE, -1, 0);
    if (P != MAP_FAILED) {
      std::lock_guard Lock(Mutex);
      Reservations[Hint] = Bytes;
      return Hint;
    }
  }
  size_t Span = Bytes + Alignment;
  CU_INVALID_IF(Span < Bytes, CUDA_ERROR_OUT_OF_MEMORY,
                "{0} bytes of address space cannot be reserved.", Bytes);
  void *P = mmap(nullptr, Span, PROT_NONE, Flags, -1, 0);
  if (P == MAP_FAILED)
    return systemError("Reserving address space");
  // Trim the mapping to an aligned range of exactly Bytes.
  uintptr_t Start = reinterpret_cast<uintptr_t>(P);
  uintptr_t Base = llvm::alignTo(Start, Alignment);
  if (Base > Start)
    munmap(P, Base - Start);
  if (Start + Span > Base + Bytes)
    munmap(reinterpret_cast<void *>(Base + Bytes), Start + Span - Base - Bytes);
  std::lock_guard Lock(Mutex);
  Reservations[Base] = Bytes;
  return Base;
}

llvm::Error VirtualMemory::freeReservation(uintptr_t Base, size_t Bytes) {
  std::lock_guard Lock(Mutex);
  auto It = Reservations.find(Base);
  CU_INVALID_IF(It == Reservations.end(), CUDA_ERROR_INVALID_VALUE,
                "{0:x} is not the start of a range reserved with "
                "cuMemAddressReserve.",
                Base);
  CU_INVALID_IF(It->second != Bytes, CUDA_ERROR_INVALID_VALUE,
                "The reservation at {0:x} is {1} bytes, not {2}.", Base,
                It->second, Bytes);
  auto Mapped = Mappings.lower_bound(Base);
  CU_INVALID_IF(Mapped != Mappings.end() && Mapped->first < Base + Bytes,
                CUDA_ERROR_INVALID_VALUE,
                "The reservation at {0:x} still has memory mapped at {1:x}; "
                "cuMemUnmap it first.",
                Base, Mapped->first);
  munmap(reinterpret_cast<void *>(Base), Bytes);
  Reservations.erase(It);
  return llvm::Error::success();
}

bool VirtualMemory::insideReservation(uintptr_t Address, size_t Bytes) const {
  // Reservations side by side cover a range together, as on NVIDIA's driver
  // (observed on the H200: a mapping may run on into the next reservation).
  uintptr_t At = Address;
  auto It = Reservations.upper_bound(Address);
  if (It == Reservations.begin())
    return false;
  --It;
  while (At - Address < Bytes) {
    if (It == Reservations.end() || It->first > At ||
        At - It->first >= It->second)
      return false;
    At = It->first + It->second;
    ++It;
  }
  return true;
}

llvm::Error VirtualMemory::map(uintptr_t Address, size_t Bytes, size_t Offset,
                               CUmemGenericAllocationHandle Handle) {
  std::lock_guard Lock(Mutex);
  CU_TRY_ASSIGN(HandleEntry & Entry, lookup(Handle));
  const std::shared_ptr<Physical> &Memory = Entry.Memory;
  // NVIDIA's driver maps whole allocations only (observed on the H200:
  // CUDA_ERROR_NOT_SUPPORTED for a part, and past the end).
  CU_INVALID_IF(Offset != 0 || Bytes != Memory->Bytes, CUDA_ERROR_NOT_SUPPORTED,
                "cuMemMap maps a whole allocation ({0} bytes), not {1} bytes "
                "from offset {2}.",
                Memory->Bytes, Bytes, Offset);
  CU_INVALID_IF(!insideReservation(Address, Bytes), CUDA_ERROR_INVALID_VALUE,
                "[{0:x}, {0:x} + {1}) is not inside ranges reserved with "
                "cuMemAddressReserve.",
                Address, Bytes);
  auto Next = Mappings.lower_bound(Address);
  bool OverlapsNext = Next != Mappings.end() && Next->first < Address + Bytes;
  bool OverlapsPrevious =
      Next != Mappings.begin() &&
      std::prev(Next)->first + std::prev(Next)->second.Bytes > Address;
  CU_INVALID_IF(OverlapsNext || OverlapsPrevious, CUDA_ERROR_INVALID_VALUE,
                "[{0:x}, {0:x} + {1}) overlaps memory already mapped.", Address,
                Bytes);
  void *P =
      mmap(reinterpret_cast<void *>(Address), Bytes, PROT_NONE,
           MAP_SHARED | MAP_FIXED, Memory->Fd, static_cast<off_t>(Offset));
  if (P == MAP_FAILED)
    return systemError("Mapping the allocation");
  Mapping &M = Mappings[Address];
  M.Base = P;
  M.Bytes = Bytes;
  M.Offset = Offset;
  M.Memory = Memory;
  M.BufferId = NextBufferId++;
  return llvm::Error::success();
}

llvm::Expected<std::vector<VirtualMemory::Mapping *>>
VirtualMemory::coveringMappings(uintptr_t Address, size_t Bytes) {
  std::vector<Mapping *> Found;
  uintptr_t At = Address;
  auto It = Mappings.upper_bound(Address);
  if (It != Mappings.begin())
    --It;
  while (At - Address < Bytes) {
    CU_INVALID_IF(It == Mappings.end() || It->first > At ||
                      At - It->first >= It->second.Bytes,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0:x} is not mapped (cuMemMap), so [{1:x}, {1:x} + {2}) "
                  "is not mapped throughout.",
                  At, Address, Bytes);
    Found.push_back(&It->second);
    At = It->first + It->second.Bytes;
    ++It;
  }
  return Found;
}

llvm::Error VirtualMemory::unmap(uintptr_t Address, size_t Bytes) {
  // Work already issued may still use the memory.
  for (const std::shared_ptr<Context> &C : Platform::get().liveContexts())
    llvm::consumeError(C->queues().drain());
  std::lock_guard Lock(Mutex);
  CU_TRY_ASSIGN(std::vector<Mapping *> Covering,
                coveringMappings(Address, Bytes));
  uintptr_t First = reinterpret_cast<uintptr_t>(Covering.front()->Base);
  uintptr_t End = reinterpret_cast<uintptr_t>(Covering.back()->Base) +
                  Covering.back()->Bytes;
  CU_INVALID_IF(First != Address || End != Address + Bytes,
                CUDA_ERROR_INVALID_VALUE,
                "[{0:x}, {0:x} + {1}) is not a whole number of mappings: "
                "cuMemUnmap takes exactly the ranges cuMemMap mapped.",
                Address, Bytes);
  // Back to a reservation: the range stays reserved, its memory goes.
  void *P =
      mmap(reinterpret_cast<void *>(Address), Bytes, PROT_NONE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  if (P == MAP_FAILED)
    return systemError("Unmapping");
  Mappings.erase(Mappings.find(Address), Mappings.lower_bound(End));
  return llvm::Error::success();
}

llvm::Error VirtualMemory::setAccess(uintptr_t Address, size_t Bytes,
                                     int DeviceOrdinal,
                                     CUmemAccess_flags Flags) {
  std::lock_guard Lock(Mutex);
  CU_TRY_ASSIGN(std::vector<Mapping *> Covering,
                coveringMappings(Address, Bytes));
  // One address space serves every device: the host protection of a
  // mapping is the most any device has. Read-only access maps read-write on
  // the host, so that the driver's own copies never fault (a kernel that
  // writes there is wrong anyway), and rights apply to whole mappings, so
  // that a mapping pointer lookups find is accessible throughout.
  for (Mapping *M : Covering) {
    M->Access[DeviceOrdinal] = Flags;
    int Protection = M->accessible() ? PROT_READ | PROT_WRITE : PROT_NONE;
    if (mprotect(M->Base, M->Bytes, Protection) != 0)
      return systemError("Setting the access of the mapping");
  }
  return llvm::Error::success();
}

llvm::Expected<CUmemAccess_flags> VirtualMemory::access(uintptr_t Address,
                                                        int DeviceOrdinal) {
  std::lock_guard Lock(Mutex);
  CU_TRY_ASSIGN(std::vector<Mapping *> Covering, coveringMappings(Address, 1));
  auto It = Covering.front()->Access.find(DeviceOrdinal);
  return It == Covering.front()->Access.end() ? CU_MEM_ACCESS_FLAGS_PROT_NONE
                                              : It->second;
}

std::optional<MappedRange> VirtualMemory::findAccessible(uintptr_t Address,
                                                         bool WholeRun) {
  std::lock_guard Lock(Mutex);
  auto It = Mappings.upper_bound(Address);
  if (It == Mappings.begin())
    return std::nullopt;
  --It;
  if (Address - It->first >= It->second.Bytes || !It->second.accessible())
    return std::nullopt;
  auto First = It, Last = It;
  while (WholeRun && First != Mappings.begin()) {
    auto Previous = std::prev(First);
    if (Previous->first + Previous->second.Bytes != First->first ||
        !Previous->second.accessible())
      break;
    First = Previous;
  }
  for (auto Next = std::next(Last); WholeRun && Next != Mappings.end();
       ++Next) {
    if (Last->first + Last->second.Bytes != Next->first ||
        !Next->second.accessible())
      break;
    Last = Next;
  }
  MappedRange R;
  R.Range.Base = First->first;
  R.Range.Size = Last->first + Last->second.Bytes - First->first;
  R.Range.Kind = MemoryKind::Mapped;
  R.Range.BufferId = It->second.BufferId;
  R.DeviceOrdinal = It->second.Memory->Prop.location.id;
  return R;
}
