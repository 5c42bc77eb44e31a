//===- CopyEngine.h - Large copies on the device's workers ------*- C++ -*-===//
//
// A GPU moves memory with copy engines that outpace what one CPU core's
// memcpy reaches; cucpu splits a large copy among the workers of the
// device's pool (ThreadPool), in pieces the workers take in turn. A copy
// that runs in a stream's order stays one step of it: it returns once every
// piece is done.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_COPYENGINE_H
#define CUCPU_DRIVER_CORE_COPYENGINE_H

#include <cstddef>

namespace cucpu {

/// Copies smaller than this run on the calling thread: waking the workers
/// would cost more than they save.
inline constexpr size_t ParallelCopyBytes = size_t(4) << 20;
/// The pieces a split copy is dealt in.
inline constexpr size_t CopyPieceBytes = size_t(1) << 20;

/// memmove(\p To, \p From, \p Bytes); split among the \p Workers of device
/// \p DeviceOrdinal's pool when it is at least ParallelCopyBytes and the
/// two ranges do not overlap.
void moveMemory(void *To, const void *From, size_t Bytes, int DeviceOrdinal,
                unsigned Workers);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_COPYENGINE_H
