//===- GuardedBuffer.h - Bytes followed by an unmapped page -----*- C++ -*-===//
//
// Test inputs for readers of size-less images: the bytes are copied so that
// their last one is followed by a page that is mapped without any access, so
// a read one byte too far faults at once.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TESTS_SUPPORT_GUARDEDBUFFER_H
#define CUCPU_TESTS_SUPPORT_GUARDEDBUFFER_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

namespace cucpu::test {

/// \p Size bytes that end where an inaccessible page begins.
class GuardedBuffer {
public:
  GuardedBuffer(const void *Bytes, size_t Size) : Size(Size) {
    size_t Page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    size_t DataPages = (Size + Page - 1) / Page;
    Length = (DataPages + 1) * Page;
    void *Map = mmap(nullptr, Length, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (Map == MAP_FAILED)
      return;
    Base = static_cast<uint8_t *>(Map);
    mprotect(Base + DataPages * Page, Page, PROT_NONE);
    Start = Base + DataPages * Page - Size;
    if (Size)
      std::memcpy(Start, Bytes, Size);
  }
  ~GuardedBuffer() {
    if (Base)
      munmap(Base, Length);
  }
  GuardedBuffer(const GuardedBuffer &) = delete;
  GuardedBuffer &operator=(const GuardedBuffer &) = delete;

  /// Whether the mapping could be made.
  explicit operator bool() const { return Base != nullptr; }
  /// The first byte; data() + size() is the first byte of the guard page.
  uint8_t *data() const { return Start; }
  size_t size() const { return Size; }

private:
  uint8_t *Base = nullptr;
  uint8_t *Start = nullptr;
  size_t Size = 0;
  size_t Length = 0;
};

} // namespace cucpu::test

#endif // CUCPU_TESTS_SUPPORT_GUARDEDBUFFER_H
