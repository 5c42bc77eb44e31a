//===- HostInfo.cpp - Facts about the host machine ------------------------===//
#include "core/HostInfo.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sched.h>
#include <unistd.h>

using namespace cucpu;

std::string host::cpuName() {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line)) {
    if (Line.rfind("model name", 0) != 0)
      continue;
    size_t Colon = Line.find(':');
    if (Colon == std::string::npos)
      break;
    std::string Name = Line.substr(Colon + 1);
    size_t First = Name.find_first_not_of(" \t");
    size_t Last = Name.find_last_not_of(" \t");
    if (First == std::string::npos)
      break;
    return Name.substr(First, Last - First + 1);
  }
  return "Generic CPU";
}

unsigned host::usableCores() {
  cpu_set_t Set;
  if (sched_getaffinity(0, sizeof(Set), &Set) == 0) {
    int Count = CPU_COUNT(&Set);
    if (Count > 0)
      return static_cast<unsigned>(Count);
  }
  long Online = sysconf(_SC_NPROCESSORS_ONLN);
  return Online > 0 ? static_cast<unsigned>(Online) : 1;
}

int host::clockRateKHz() {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line)) {
    if (Line.rfind("cpu MHz", 0) != 0)
      continue;
    size_t Colon = Line.find(':');
    if (Colon != std::string::npos) {
      double MHz = std::atof(Line.c_str() + Colon + 1);
      if (MHz > 0)
        return static_cast<int>(MHz * 1000);
    }
  }
  return 2000000;
}

int host::lastLevelCacheBytes() {
  for (int Name : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE}) {
    long Bytes = sysconf(Name);
    if (Bytes > 0)
      return static_cast<int>(std::min<long>(Bytes, INT32_MAX));
  }
  return 4 << 20;
}

size_t host::physicalMemory() {
  long Pages = sysconf(_SC_PHYS_PAGES);
  long PageSize = sysconf(_SC_PAGESIZE);
  if (Pages <= 0 || PageSize <= 0)
    return size_t(1) << 30;
  return static_cast<size_t>(Pages) * static_cast<size_t>(PageSize);
}

uint64_t host::machineId() {
  std::ifstream In("/etc/machine-id");
  std::string Id;
  if (!(In >> Id) || Id.empty()) {
    char Name[256] = {};
    gethostname(Name, sizeof(Name) - 1);
    Id = Name;
  }
  // FNV-1a: stable across runs and builds, unlike std::hash.
  uint64_t Hash = 0xcbf29ce484222325ULL;
  for (unsigned char C : Id) {
    Hash ^= C;
    Hash *= 0x100000001b3ULL;
  }
  return Hash;
}

std::optional<size_t> host::parseByteCount(std::string_view Text) {
  size_t Value = 0;
  auto [Ptr, Ec] =
      std::from_chars(Text.data(), Text.data() + Text.size(), Value);
  if (Ec != std::errc() || Ptr == Text.data())
    return std::nullopt;
  std::string_view Suffix(Ptr, Text.data() + Text.size() - Ptr);
  unsigned Shift = 0;
  if (Suffix.empty())
    Shift = 0;
  else if (Suffix.size() <= 3) {
    switch (std::toupper(static_cast<unsigned char>(Suffix[0]))) {
    case 'K':
      Shift = 10;
      break;
    case 'M':
      Shift = 20;
      break;
    case 'G':
      Shift = 30;
      break;
    case 'T':
      Shift = 40;
      break;
    default:
      return std::nullopt;
    }
    if (Suffix.size() > 1 && Suffix.substr(1) != "B" &&
        Suffix.substr(1) != "iB" && Suffix.substr(1) != "b")
      return std::nullopt;
  } else
    return std::nullopt;
  if (Shift && Value > (SIZE_MAX >> Shift))
    return std::nullopt;
  return Value << Shift;
}

std::optional<std::string> host::env(const char *Name) {
  const char *Value = std::getenv(Name);
  if (!Value)
    return std::nullopt;
  return std::string(Value);
}
