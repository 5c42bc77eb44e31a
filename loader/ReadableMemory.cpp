//===- ReadableMemory.cpp - Which bytes can be read without a fault -------===//
#include "cucpu/loader/ReadableMemory.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

using namespace cucpu;

namespace {
/// Pages probed by one process_vm_readv call (Linux's IOV_MAX).
constexpr size_t PagesPerProbe = 1024;
/// Bytes copied by one process_vm_readv call (Linux moves at most about
/// 2 GiB per call).
constexpr size_t CopyChunk = size_t(1) << 30;

size_t pageSize() {
  static const size_t Size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return Size;
}

/// The first byte of each page in [Begin, End), Begin itself for the first.
struct PageWalk {
  uintptr_t Next;
  uintptr_t End;

  bool done() const { return Next >= End; }
  uintptr_t take() {
    uintptr_t Probe = Next;
    Next = (Next & ~(pageSize() - 1)) + pageSize();
    return Probe;
  }
};

/// The readable prefix of [Begin, End) by process_vm_readv, or -1 if the
/// system call is not available here (ENOSYS, or EPERM under a seccomp
/// filter).
ptrdiff_t probeWithProcessVmReadv(uintptr_t Begin, uintptr_t End) {
  static const pid_t Self = getpid();
  char Sink[PagesPerProbe];
  iovec Local{Sink, sizeof(Sink)};
  iovec Remote[PagesPerProbe];
  PageWalk Walk{Begin, End};
  while (!Walk.done()) {
    size_t Count = 0;
    while (Count < PagesPerProbe && !Walk.done())
      Remote[Count++] = {reinterpret_cast<void *>(Walk.take()), 1};
    ssize_t Read = process_vm_readv(Self, &Local, 1, Remote, Count, 0);
    if (Read < 0 && (errno == ENOSYS || errno == EPERM))
      return -1;
    // A partial transfer stops at the first unreadable page.
    size_t Readable = Read < 0 ? 0 : static_cast<size_t>(Read);
    if (Readable < Count) {
      uintptr_t Fault = reinterpret_cast<uintptr_t>(Remote[Readable].iov_base);
      return static_cast<ptrdiff_t>(std::max(Fault, Begin) - Begin);
    }
  }
  return static_cast<ptrdiff_t>(End - Begin);
}

/// The readable prefix of [Begin, End) by writing one byte of each page into
/// a pipe: the kernel answers EFAULT for an unreadable one.
size_t probeWithPipe(uintptr_t Begin, uintptr_t End) {
  int Fds[2];
  if (pipe2(Fds, O_CLOEXEC | O_NONBLOCK) != 0)
    return 0; // Nothing can be proven readable.
  size_t Readable = End - Begin;
  PageWalk Walk{Begin, End};
  while (!Walk.done()) {
    uintptr_t Probe = Walk.take();
    char Byte;
    if (write(Fds[1], reinterpret_cast<const void *>(Probe), 1) != 1 ||
        read(Fds[0], &Byte, 1) != 1) {
      Readable = Probe - Begin;
      break;
    }
  }
  close(Fds[0]);
  close(Fds[1]);
  return Readable;
}
} // namespace

bool loader::copyReadable(const void *Data, size_t Length, void *Out) {
  if (Length == 0)
    return true;
  if (!Data)
    return false;
  static const pid_t Self = getpid();
  const auto *From = static_cast<const char *>(Data);
  auto *To = static_cast<char *>(Out);
  for (size_t Done = 0; Done < Length;) {
    size_t Chunk = std::min(Length - Done, CopyChunk);
    iovec Local{To + Done, Chunk};
    iovec Remote{const_cast<char *>(From + Done), Chunk};
    ssize_t Read = process_vm_readv(Self, &Local, 1, &Remote, 1, 0);
    if (Read < 0 && Done == 0 && (errno == ENOSYS || errno == EPERM))
      break; // Not allowed here: probe, then copy.
    if (Read != static_cast<ssize_t>(Chunk))
      return false;
    Done += Chunk;
    if (Done == Length)
      return true;
  }
  if (readableLength(Data, Length) != Length)
    return false;
  std::memcpy(Out, Data, Length);
  return true;
}

size_t loader::readableLength(const void *Data, size_t Length) {
  auto Begin = reinterpret_cast<uintptr_t>(Data);
  if (!Data || Length == 0)
    return 0;
  uintptr_t End = Begin + std::min<uintptr_t>(Length, UINTPTR_MAX - Begin);
  ptrdiff_t Readable = probeWithProcessVmReadv(Begin, End);
  if (Readable >= 0)
    return static_cast<size_t>(Readable);
  return probeWithPipe(Begin, End);
}
