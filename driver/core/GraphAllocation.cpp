//===- GraphAllocation.cpp - Memory of graph allocation nodes -------------===//
#include "core/GraphAllocation.h"

#include "core/AddressSpace.h"
#include "core/Context.h"
#include "core/Error.h"

#include <map>
#include <mutex>
#include <optional>

using namespace cucpu;

namespace {

/// The live allocations by address, and the bytes they hold per device.
struct Book {
  std::mutex Mutex;
  std::map<uintptr_t, std::weak_ptr<GraphAllocation>> ByAddress;
  std::map<const Device *, uint64_t> Bytes, High;

  static Book &get() {
    static Book *B = new Book; // Allocations may outlive static destructors.
    return *B;
  }
};

} // namespace

llvm::Expected<std::shared_ptr<GraphAllocation>>
GraphAllocation::create(const std::shared_ptr<Context> &Ctx, MemoryPool &Pool,
                        size_t Bytes) {
  uintptr_t Address = 0;
  if (auto A = Ctx->allocate(Bytes, MemoryKind::Device, 0, &Pool))
    Address = *A;
  else
    return A.takeError();
  std::shared_ptr<GraphAllocation> G(
      new GraphAllocation(Ctx, Ctx->device(), Address, Bytes));
  Book &B = Book::get();
  std::lock_guard Lock(B.Mutex);
  B.ByAddress[Address] = G;
  uint64_t &Now = B.Bytes[&G->Dev];
  Now += Bytes;
  uint64_t &High = B.High[&G->Dev];
  High = std::max(High, Now);
  return G;
}

std::shared_ptr<GraphAllocation> GraphAllocation::find(uintptr_t Address) {
  std::shared_ptr<GraphAllocation> G;
  {
    Book &B = Book::get();
    std::lock_guard Lock(B.Mutex);
    auto It = B.ByAddress.find(Address);
    if (It != B.ByAddress.end())
      G = It->second.lock();
  }
  // Once its context is destroyed, the memory is gone and the address may
  // be another allocation's.
  std::optional<OwnedAllocation> Found = findAllocation(Address);
  if (!G || !Found || Found->Owner != G->Owner.lock())
    return nullptr;
  return G;
}

GraphAllocation::~GraphAllocation() {
  {
    Book &B = Book::get();
    std::lock_guard Lock(B.Mutex);
    B.ByAddress.erase(Address);
    B.Bytes[&Dev] -= Bytes;
  }
  // Launches that may still use the memory hold the executable graph, and
  // with it this allocation, until they have run.
  if (std::shared_ptr<Context> C = Owner.lock())
    llvm::consumeError(C->release(Address, {MemoryKind::Device}));
}

llvm::Error GraphAllocation::freeOutsideGraph() {
  CU_INVALID_IF(!free(), CUDA_ERROR_INVALID_VALUE,
                "The graph allocation at {0:x} is not allocated: its graph "
                "has not run its allocation node since it was last freed.",
                Address);
  return llvm::Error::success();
}

uint64_t GraphAllocation::bytesOf(const Device &D) {
  Book &B = Book::get();
  std::lock_guard Lock(B.Mutex);
  return B.Bytes[&D];
}

uint64_t GraphAllocation::highOf(const Device &D) {
  Book &B = Book::get();
  std::lock_guard Lock(B.Mutex);
  return B.High[&D];
}

void GraphAllocation::resetHigh(const Device &D) {
  Book &B = Book::get();
  std::lock_guard Lock(B.Mutex);
  B.High[&D] = B.Bytes[&D];
}
