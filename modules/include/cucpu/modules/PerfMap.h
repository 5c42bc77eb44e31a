//===- PerfMap.h - JIT-compiled kernels by name for perf --------*- C++ -*-===//
//
// With CUCPU_PERF=1 every function the JIT links is written to
// /tmp/perf-<pid>.map, the file `perf report` reads to name code that no
// binary on disk holds (docs/debugging.md).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_PERFMAP_H
#define CUCPU_MODULES_PERFMAP_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm::orc {
class ObjectLinkingLayer;
} // namespace llvm::orc

namespace cucpu::modules {

/// Whether CUCPU_PERF=1 asks for the perf map.
bool perfMapRequested();

/// The perf map's path for this process: /tmp/perf-<pid>.map.
std::string perfMapPath();

/// How the map names the linked symbol \p Symbol: a kernel's block
/// function, thread entry or work function as "<kernel, demangled> [cucpu
/// block]" (entry, work; a block function for one block shape names it),
/// anything else demangled.
std::string perfMapName(llvm::StringRef Symbol);

/// Appends every function that \p Layer links from now on to the perf map.
void writePerfMap(llvm::orc::ObjectLinkingLayer &Layer);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PERFMAP_H
