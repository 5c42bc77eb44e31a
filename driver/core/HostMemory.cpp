//===- HostMemory.cpp - How much memory the host can really back ----------===//
#include "core/HostMemory.h"

#include "core/Error.h"
#include "core/HostInfo.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

using namespace cucpu;

namespace {

/// One memory cgroup whose limit applies to this process, with the names of
/// its files (v1 and v2 differ).
struct CgroupDir {
  std::string Path;
  const char *LimitFile;
  const char *UsageFile;
  /// The page cache in memory.stat (active and inactive file pages), which
  /// the kernel reclaims before it fails an allocation of the cgroup, as
  /// MemAvailable counts it for the host.
  const char *ActiveFileKey;
  const char *InactiveFileKey;
};

bool isDirectory(const std::string &Path) {
  struct stat S;
  return stat(Path.c_str(), &S) == 0 && S_ISDIR(S.st_mode);
}

std::optional<size_t> readNumber(const std::string &Path) {
  std::ifstream In(Path);
  std::string Text;
  if (!(In >> Text))
    return std::nullopt;
  return host::parseCgroupLimit(Text);
}

std::optional<size_t> readStat(const std::string &Path, const char *Key) {
  std::ifstream In(Path);
  std::string Name;
  size_t Value = 0;
  while (In >> Name >> Value)
    if (Name == Key)
      return Value;
  return std::nullopt;
}

/// The memory cgroup of this process and its ancestors, innermost first.
/// Inside a cgroup namespace /proc/self/cgroup may name a path the mount
/// does not have; the mount's root is then the process's own cgroup.
std::vector<CgroupDir> findCgroups() {
  std::ifstream In("/proc/self/cgroup");
  std::string Line;
  std::vector<CgroupDir> Dirs;
  auto AddChain = [&](std::string Mount, std::string Path, const char *Limit,
                      const char *Usage, const char *Active,
                      const char *Inactive) {
    if (!isDirectory(Mount))
      return;
    while (!Path.empty() && !isDirectory(Mount + Path))
      Path.clear();
    for (;;) {
      Dirs.push_back({Mount + Path, Limit, Usage, Active, Inactive});
      if (Path.empty() || Path == "/")
        break;
      Path.resize(Path.rfind('/'));
    }
  };
  while (std::getline(In, Line)) {
    size_t First = Line.find(':');
    size_t Second = Line.find(':', First + 1);
    if (First == std::string::npos || Second == std::string::npos)
      continue;
    std::string Controllers = Line.substr(First + 1, Second - First - 1);
    std::string Path = Line.substr(Second + 1);
    if (Line.compare(0, First, "0") == 0 && Controllers.empty())
      AddChain("/sys/fs/cgroup", Path, "memory.max", "memory.current",
               "active_file", "inactive_file");
    else if (("," + Controllers + ",").find(",memory,") != std::string::npos)
      AddChain("/sys/fs/cgroup/memory", Path, "memory.limit_in_bytes",
               "memory.usage_in_bytes", "total_active_file",
               "total_inactive_file");
  }
  return Dirs;
}

const std::vector<CgroupDir> &cgroups() {
  static const std::vector<CgroupDir> Dirs = findCgroups();
  return Dirs;
}

/// The smallest limit of the process's memory cgroups and the least memory
/// any of them has left.
struct CgroupRoom {
  std::optional<size_t> Limit;
  std::optional<size_t> Available;
};

CgroupRoom cgroupRoom() {
  CgroupRoom Room;
  for (const CgroupDir &Dir : cgroups()) {
    std::optional<size_t> Limit = readNumber(Dir.Path + "/" + Dir.LimitFile);
    if (!Limit)
      continue;
    size_t Usage = readNumber(Dir.Path + "/" + Dir.UsageFile).value_or(0);
    std::string Stat = Dir.Path + "/memory.stat";
    size_t PageCache = readStat(Stat, Dir.ActiveFileKey).value_or(0) +
                       readStat(Stat, Dir.InactiveFileKey).value_or(0);
    size_t Left = *Limit - std::min(*Limit, Usage) + std::min(Usage, PageCache);
    Room.Limit = std::min(Room.Limit.value_or(*Limit), *Limit);
    Room.Available = std::min(Room.Available.value_or(Left), Left);
  }
  return Room;
}

size_t memAvailable() {
  std::ifstream In("/proc/meminfo");
  std::string Key, Unit;
  size_t Value = 0;
  while (In >> Key >> Value >> Unit)
    if (Key == "MemAvailable:")
      return Value * 1024;
  return host::physicalMemory();
}

} // namespace

std::optional<size_t> host::parseCgroupLimit(std::string_view Text) {
  size_t Value = 0;
  auto [End, Ec] =
      std::from_chars(Text.data(), Text.data() + Text.size(), Value);
  if (Ec != std::errc() || End != Text.data() + Text.size())
    return std::nullopt;
  // cgroup v1 writes "no limit" as the largest page-aligned 63-bit value.
  if (Value >= (size_t(1) << 62))
    return std::nullopt;
  return Value;
}

size_t host::pageBytes() {
  static const size_t Bytes = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return Bytes;
}

size_t host::memoryLimit() {
  size_t Physical = physicalMemory();
  return std::min(Physical, cgroupRoom().Limit.value_or(Physical));
}

size_t host::availableMemory() {
  size_t Available = memAvailable();
  return std::min(Available, cgroupRoom().Available.value_or(Available));
}

size_t host::memoryHeadroom() {
  return std::clamp(memoryLimit() / 16, size_t(256) << 20, size_t(2) << 30);
}

size_t host::allocatableMemory() {
  size_t Available = availableMemory();
  return Available - std::min(Available, memoryHeadroom());
}

namespace {
/// What the driver may still hand out. Reading /proc and the cgroup files
/// costs tens of microseconds, too much for every small allocation: a
/// reading is reused for 50 ms, less what was handed out since; memory freed
/// since is seen at the next reading. cuMemGetInfo reads the same credit, so
/// that an allocation shows in it at once, whatever other processes do.
class HostCredit {
public:
  static HostCredit &get() {
    static HostCredit Credit;
    return Credit;
  }
  /// The credit, read again if \p Needed exceeds it or it is stale.
  size_t current(size_t Needed = 0) {
    std::lock_guard Lock(Mutex);
    refresh(Needed);
    return Credit;
  }
  /// Takes \p Bytes from the credit; false if there is not that much.
  bool take(size_t Bytes) {
    std::lock_guard Lock(Mutex);
    refresh(Bytes);
    if (Bytes > Credit)
      return false;
    Credit -= Bytes;
    return true;
  }

private:
  using Clock = std::chrono::steady_clock;
  void refresh(size_t Needed) {
    Clock::time_point Now = Clock::now();
    if (Needed > Credit || Now - ReadAt > std::chrono::milliseconds(50)) {
      Credit = host::allocatableMemory();
      ReadAt = Now;
    }
  }
  std::mutex Mutex;
  Clock::time_point ReadAt;
  size_t Credit = 0;
};
} // namespace

size_t host::backableMemory() { return HostCredit::get().current(); }

llvm::Error host::checkHostCanBack(size_t Bytes, std::string_view What) {
  if (HostCredit::get().take(Bytes))
    return llvm::Error::success();
  return makeError(
      CUDA_ERROR_OUT_OF_MEMORY,
      llvm::formatv("The host cannot back {0} ({1} bytes): {2} bytes are "
                    "available, less a headroom of {3} bytes left to the "
                    "process and the host.",
                    What, Bytes, availableMemory(), memoryHeadroom()));
}

llvm::Error host::commitPages(void *Base, size_t Bytes) {
  size_t PageBytes = pageBytes();
  uintptr_t Begin = llvm::alignTo(reinterpret_cast<uintptr_t>(Base), PageBytes);
  uintptr_t End =
      llvm::alignDown(reinterpret_cast<uintptr_t>(Base) + Bytes, PageBytes);
  if (End <= Begin)
    return llvm::Error::success();
  if (madvise(reinterpret_cast<void *>(Begin), End - Begin,
              MADV_POPULATE_WRITE) == 0)
    return llvm::Error::success();
  int Errno = errno;
  if (Errno == EINVAL) {
    // Kernels before 5.14 lack MADV_POPULATE_WRITE: touch each page. The
    // memory is new, its contents undefined.
    for (uintptr_t Page = Begin; Page < End; Page += PageBytes)
      *reinterpret_cast<volatile char *>(Page) = 0;
    return llvm::Error::success();
  }
  return makeError(CUDA_ERROR_OUT_OF_MEMORY,
                   llvm::formatv("The host could not back {0} bytes: {1}.",
                                 End - Begin, std::strerror(Errno)));
}
