//===- JitStats.h - Counters of the JIT, for tests and logs -----*- C++ -*-===//
#ifndef CUCPU_MODULES_JITSTATS_H
#define CUCPU_MODULES_JITSTATS_H

#include <cstdint>

namespace cucpu::modules {

/// How many modules this process compiled to machine code (cache misses).
uint64_t compiledModuleCount();
/// How many module loads this process served from the compute cache.
uint64_t cachedModuleCount();
/// How many block functions this process compiled (compute-cache misses)
/// and linked for a launch's block shape (Specialization.h).
uint64_t specializedBlockCount();
/// How many thread entries this process compiled (compute-cache misses) and
/// linked after their module's load (JitModule::threadEntry).
uint64_t lateThreadEntryCount();

} // namespace cucpu::modules

#endif // CUCPU_MODULES_JITSTATS_H
