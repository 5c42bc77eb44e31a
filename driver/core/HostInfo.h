//===- HostInfo.h - Facts about the host machine ----------------*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_HOSTINFO_H
#define CUCPU_DRIVER_CORE_HOSTINFO_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cucpu::host {

/// The CPU's marketing name from /proc/cpuinfo ("model name"), or a
/// generic name when it cannot be read.
std::string cpuName();

/// Number of CPU cores this process may run on (its affinity mask).
unsigned usableCores();

/// The CPU's clock in kHz ("cpu MHz" of /proc/cpuinfo), or 2 GHz.
int clockRateKHz();

/// The last-level cache in bytes (L3, else L2), or 4 MiB.
int lastLevelCacheBytes();

/// Physical memory in bytes.
size_t physicalMemory();

/// A stable 64-bit identity of this machine (from /etc/machine-id, else the
/// host name).
uint64_t machineId();

/// Parses a byte count with an optional K/M/G/T suffix (powers of 1024).
std::optional<size_t> parseByteCount(std::string_view Text);

/// The value of environment variable \p Name, if set.
std::optional<std::string> env(const char *Name);

} // namespace cucpu::host

#endif // CUCPU_DRIVER_CORE_HOSTINFO_H
