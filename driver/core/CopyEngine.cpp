//===- CopyEngine.cpp - Large copies on the device's workers --------------===//
#include "core/CopyEngine.h"

#include "core/ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

using namespace cucpu;

void cucpu::moveMemory(void *To, const void *From, size_t Bytes,
                       int DeviceOrdinal, unsigned Workers) {
  auto ToAddress = reinterpret_cast<uintptr_t>(To);
  auto FromAddress = reinterpret_cast<uintptr_t>(From);
  bool Overlap =
      ToAddress < FromAddress + Bytes && FromAddress < ToAddress + Bytes;
  if (Workers <= 1 || Bytes < ParallelCopyBytes || Overlap) {
    std::memmove(To, From, Bytes);
    return;
  }
  auto *Dst = static_cast<char *>(To);
  const auto *Src = static_cast<const char *>(From);
  std::atomic<size_t> Next{0};
  ThreadPool::forDevice(DeviceOrdinal, Workers).run([&] {
    for (;;) {
      size_t Offset = Next.fetch_add(CopyPieceBytes, std::memory_order_relaxed);
      if (Offset >= Bytes)
        return;
      std::memcpy(Dst + Offset, Src + Offset,
                  std::min(CopyPieceBytes, Bytes - Offset));
    }
  });
}
