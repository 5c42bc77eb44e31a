//===- MemoryRegistry.cpp - The allocations of one context ----------------===//
#include "core/MemoryRegistry.h"

#include <algorithm>
#include <mutex>

using namespace cucpu;

void MemoryRegistry::insert(const Allocation &A) {
  std::unique_lock Lock(Mutex);
  ByBase.emplace(A.Base, A);
}

std::optional<Allocation> MemoryRegistry::find(uintptr_t Address) const {
  std::shared_lock Lock(Mutex);
  auto It = ByBase.upper_bound(Address);
  if (It == ByBase.begin())
    return std::nullopt;
  --It;
  if (!It->second.contains(Address))
    return std::nullopt;
  return It->second;
}

bool MemoryRegistry::overlaps(uintptr_t Address, size_t Bytes) const {
  std::shared_lock Lock(Mutex);
  uintptr_t End = Address + Bytes;
  auto It = ByBase.lower_bound(End);
  if (It == ByBase.begin())
    return false;
  --It;
  return It->second.Base + It->second.Size > Address;
}

std::optional<Allocation>
MemoryRegistry::eraseAt(uintptr_t Base,
                        std::initializer_list<MemoryKind> Kinds) {
  std::unique_lock Lock(Mutex);
  auto It = ByBase.find(Base);
  if (It == ByBase.end() ||
      std::find(Kinds.begin(), Kinds.end(), It->second.Kind) == Kinds.end())
    return std::nullopt;
  Allocation A = It->second;
  ByBase.erase(It);
  return A;
}

std::vector<Allocation> MemoryRegistry::takeAll() {
  std::unique_lock Lock(Mutex);
  std::vector<Allocation> All;
  for (auto &[Base, A] : ByBase)
    All.push_back(A);
  ByBase.clear();
  return All;
}

size_t MemoryRegistry::chargedBytes() const {
  std::shared_lock Lock(Mutex);
  size_t Sum = 0;
  for (const auto &[Base, A] : ByBase)
    Sum += A.Charged;
  return Sum;
}
