//===- ReadableMemory.h - Which bytes can be read without a fault ---------===//
//
// Entry points such as cuModuleLoadData get a pointer and no size. Before the
// loader reads the extent an image's header claims, it asks the kernel
// whether that memory is mapped and readable, so a damaged header yields an
// error instead of a fault in the caller's process.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_LOADER_READABLEMEMORY_H
#define CUCPU_LOADER_READABLEMEMORY_H

#include <cstddef>

namespace cucpu::loader {

/// How many of the \p Length bytes from \p Data on can be read without a
/// fault: the length of the readable prefix, found without reading the
/// bytes (process_vm_readv on this process, one byte per page; a pipe write
/// where that system call is not allowed). Memory that is mapped without
/// read permission counts as unreadable.
size_t readableLength(const void *Data, size_t Length);

/// Copies the \p Length bytes at \p Data to \p Out without reading them
/// in place (process_vm_readv; where that is not allowed, a copy once
/// readableLength() has vouched for them): no fault, and no instrumented
/// load of memory the process never gave out. False, with \p Out
/// unspecified, if they are not all readable.
bool copyReadable(const void *Data, size_t Length, void *Out);

} // namespace cucpu::loader

#endif // CUCPU_LOADER_READABLEMEMORY_H
