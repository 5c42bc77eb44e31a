//===- DevicePrintf.h - Device printf formatted on the host -----*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_DEVICEPRINTF_H
#define CUCPU_DRIVER_CORE_DEVICEPRINTF_H

#include <string>

namespace cucpu {

/// Formats \p Format with the arguments of NVVM's vprintf ABI: packed in
/// \p Args in order, each at its natural alignment, after C's default
/// argument promotions (so integers are 4 or 8 bytes, floating point is a
/// double, pointers and strings are 8 bytes). Appends the text to \p Out and
/// returns the number of characters written.
int formatDevicePrintf(const char *Format, const char *Args, std::string &Out);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_DEVICEPRINTF_H
