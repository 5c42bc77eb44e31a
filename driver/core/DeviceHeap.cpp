//===- DeviceHeap.cpp - The heap of kernels' malloc and free --------------===//
#include "core/DeviceHeap.h"

#include <algorithm>

#include <sys/mman.h>

using namespace cucpu;

namespace {
/// Device malloc's alignment, as on NVIDIA.
constexpr size_t Alignment = 16;
} // namespace

DeviceHeap::DeviceHeap(std::function<size_t()> Capacity)
    : Capacity(std::move(Capacity)) {}

DeviceHeap::~DeviceHeap() {
  if (Base)
    munmap(Base, Size);
}

bool DeviceHeap::reserve() {
  if (Base)
    return true;
  size_t Bytes = Capacity() / Alignment * Alignment;
  if (Bytes == 0)
    return false;
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED)
    return false;
  Base = static_cast<char *>(P);
  Size = Bytes;
  Free[0] = Bytes;
  return true;
}

void *DeviceHeap::allocate(size_t Bytes) {
  if (Bytes > SIZE_MAX - Alignment)
    return nullptr;
  Bytes = std::max<size_t>(Bytes, 1);
  Bytes = (Bytes + Alignment - 1) / Alignment * Alignment;
  std::lock_guard Lock(Mutex);
  if (!reserve())
    return nullptr;
  // First fit.
  for (auto It = Free.begin(); It != Free.end(); ++It) {
    auto [Offset, Length] = *It;
    if (Length < Bytes)
      continue;
    Free.erase(It);
    if (Length > Bytes)
      Free[Offset + Bytes] = Length - Bytes;
    Live[Offset] = Bytes;
    return Base + Offset;
  }
  return nullptr;
}

bool DeviceHeap::inUse() const {
  std::lock_guard Lock(Mutex);
  return Base != nullptr;
}

DeviceHeap::Release DeviceHeap::release(void *Ptr) {
  std::lock_guard Lock(Mutex);
  auto *P = static_cast<char *>(Ptr);
  if (!Base || P < Base || P >= Base + Size)
    return Release::NotInHeap;
  auto It = Live.find(size_t(P - Base));
  if (It == Live.end())
    return Release::NotALiveBlock;
  auto [Offset, Length] = *It;
  Live.erase(It);
  // Merge with the free blocks on either side.
  auto Next = Free.lower_bound(Offset);
  if (Next != Free.end() && Next->first == Offset + Length) {
    Length += Next->second;
    Next = Free.erase(Next);
  }
  if (Next != Free.begin()) {
    auto Prev = std::prev(Next);
    if (Prev->first + Prev->second == Offset) {
      Prev->second += Length;
      return Release::Freed;
    }
  }
  Free[Offset] = Length;
  return Release::Freed;
}

bool DeviceHeap::contains(uintptr_t Address, size_t Bytes) const {
  std::lock_guard Lock(Mutex);
  uintptr_t B = reinterpret_cast<uintptr_t>(Base);
  if (!Base || Address < B || Address - B >= Size)
    return false;
  size_t Offset = Address - B;
  auto It = Live.upper_bound(Offset);
  if (It == Live.begin())
    return false;
  --It;
  return Offset - It->first < It->second &&
         Bytes <= It->second - (Offset - It->first);
}
