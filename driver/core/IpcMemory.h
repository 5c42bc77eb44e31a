//===- IpcMemory.h - Memory shared with other processes ---------*- C++ -*-===//
//
// cuIpcGetMemHandle and cuIpcOpenMemHandle between processes of one user.
// Device memory is private host memory until its first export: then its
// pages move into a memfd (contents copied, the range remapped in place
// with MAP_SHARED | MAP_FIXED), and the handle names the exporting process
// and the descriptor. An importer opens /proc/<pid>/fd/<fd> and maps it.
// cuMemAlloc gives every device allocation pages of its own (Context.cpp),
// so that no other data moves with it.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_IPCMEMORY_H
#define CUCPU_DRIVER_CORE_IPCMEMORY_H

#include <cuda.h>

#include "core/MemoryRegistry.h"

#include "llvm/Support/Error.h"

namespace cucpu::ipc {

/// The handle of device allocation \p A (exporting it on first use).
llvm::Expected<CUipcMemHandle> exportMemory(const Allocation &A);

/// Ends the export of \p A, if any, before its storage is freed: its pages
/// become private again, so that the heap never hands shared memory out.
void unexport(const Allocation &A);

/// Maps the memory \p Handle names; returns the allocation to record in the
/// opening context (MemoryKind::IpcImported).
llvm::Expected<Allocation> openMemory(const CUipcMemHandle &Handle);

/// Unmaps what openMemory mapped for \p A.
void closeMemory(const Allocation &A);

} // namespace cucpu::ipc

#endif // CUCPU_DRIVER_CORE_IPCMEMORY_H
