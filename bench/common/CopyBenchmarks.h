//===- CopyBenchmarks.h - Host-device copies, any form ----------*- C++ -*-===//
//
// copy.{htod,dtoh}_{pinned,pageable}: CopyBytes between one device buffer
// and page-locked host memory (the form's own) or pageable memory from
// operator new (touched before timing). Each direction is checked once,
// before it is timed, by a round trip through the device.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_COPYBENCHMARKS_H
#define CUCPU_BENCH_COMMON_COPYBENCHMARKS_H

#include "Options.h"

#include <cstddef>

namespace bench {

/// One form's device buffer and page-locked host buffer, both of the size
/// they were made with; every copy is blocking and of that size.
class CopyDevice {
public:
  virtual ~CopyDevice() = default;
  /// The page-locked host buffer.
  virtual unsigned char *pinned() = 0;
  /// Copies \p Host to the device buffer.
  virtual void toDevice(const unsigned char *Host) = 0;
  /// Copies the device buffer to \p Host.
  virtual void toHost(unsigned char *Host) = 0;
};

/// Registers the four copy.* benchmarks; their buffers are made on first
/// use (form::makeCopyDevice).
void registerCopyBenchmarks(const Options &O);

/// Frees the copy benchmarks' buffers (call before exit).
void releaseCopyBenchmarks();

} // namespace bench

#endif
