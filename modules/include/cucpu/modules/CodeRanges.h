//===- CodeRanges.h - Where JIT-compiled code lies --------------*- C++ -*-===//
//
// The address ranges of every executable section the JIT has linked, kept
// so that a signal handler can tell a fault in kernel code from a fault
// anywhere else: isJitCode() takes no lock and allocates nothing.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_CODERANGES_H
#define CUCPU_MODULES_CODERANGES_H

#include <cstdint>
#include <memory>

namespace llvm::orc {
class ObjectLinkingLayer;
} // namespace llvm::orc

namespace cucpu::modules {

/// Whether \p Address lies in code the JIT has linked and not yet freed.
/// Async-signal-safe.
bool isJitCode(uintptr_t Address);

/// Makes \p Layer record the executable sections it links (and forget them
/// when their module is removed).
void trackCodeRanges(llvm::orc::ObjectLinkingLayer &Layer);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_CODERANGES_H
