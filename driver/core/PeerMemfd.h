//===- PeerMemfd.h - Memfds shared with other processes ---------*- C++ -*-===//
//
// IPC handles name a memfd by the exporting process's id and descriptor; a
// process opens it through /proc/<pid>/fd/<fd>. The memfd's name tells the
// driver's own memfds from any other file.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_PEERMEMFD_H
#define CUCPU_DRIVER_CORE_PEERMEMFD_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>

namespace cucpu {

/// Whether descriptor \p Fd of this process is a memfd named \p Name.
bool isMemfdNamed(int Fd, llvm::StringRef Name);

/// A descriptor of this process (the caller's to close) for memfd \p Fd of
/// process \p Pid, if it is a memfd named \p Name of \p Bytes bytes (any
/// size when none); else CUDA_ERROR_INVALID_VALUE naming \p What.
llvm::Expected<int> openPeerMemfd(int Pid, int Fd, llvm::StringRef Name,
                                  std::optional<uint64_t> Bytes,
                                  llvm::StringRef What);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_PEERMEMFD_H
