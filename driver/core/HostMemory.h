//===- HostMemory.h - How much memory the host can really back --*- C++ -*-===//
//
// Device memory is host memory, so an allocation is only as good as the
// host's ability to back it. Linux overcommits: malloc succeeds for memory
// that does not exist and the process is killed when it touches it. The
// driver therefore checks each allocation against what the host (and the
// process's memory cgroup) has available, keeps a headroom for everything
// else, and commits the pages at once, so that the next check sees them.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_HOSTMEMORY_H
#define CUCPU_DRIVER_CORE_HOSTMEMORY_H

#include "llvm/Support/Error.h"

#include <cstddef>
#include <optional>
#include <string_view>

namespace cucpu::host {

/// The host's page size.
size_t pageBytes();

/// The memory this process may use: physical memory, or less where a memory
/// cgroup (v1 or v2) limits it.
size_t memoryLimit();

/// Bytes this process could allocate now: MemAvailable, or less where the
/// memory cgroup's limit is nearer.
size_t availableMemory();

/// Memory the driver leaves to the rest of the process and the host: a
/// sixteenth of memoryLimit(), at least 256 MiB and at most 2 GiB.
size_t memoryHeadroom();

/// What availableMemory() allows the driver to hand out: it less the
/// headroom, or 0.
size_t allocatableMemory();

/// What the driver may still hand out: allocatableMemory() as last read (a
/// reading is reused for 50 ms), less what was handed out since.
size_t backableMemory();

/// CUDA_ERROR_OUT_OF_MEMORY with a message naming \p What when \p Bytes more
/// would eat into the headroom; otherwise takes them from backableMemory().
llvm::Error checkHostCanBack(size_t Bytes, std::string_view What);

/// Makes the host back [Base, Base + Bytes) now (MADV_POPULATE_WRITE), so
/// that the memory is counted as used; CUDA_ERROR_OUT_OF_MEMORY when the
/// kernel refuses. Only whole pages inside the range are touched.
llvm::Error commitPages(void *Base, size_t Bytes);

/// The limit of a memory cgroup as written in memory.max (v2) or
/// memory.limit_in_bytes (v1): a byte count, or none for "max" or a value
/// too large to be a real limit.
std::optional<size_t> parseCgroupLimit(std::string_view Text);

} // namespace cucpu::host

#endif // CUCPU_DRIVER_CORE_HOSTMEMORY_H
