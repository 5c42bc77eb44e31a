//===- Program.h - cucc's whole-program build -------------------*- C++ -*-===//
//
// nvcc's default action and -c, -shared and -lib: every source becomes a
// host object (a .cu through its device stages, clang's host pass embedding
// their fat binary; C and C++ through the host compiler), then the objects
// are linked with the CUDA runtime or archived.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TOOLS_CUCC_PROGRAM_H
#define CUCPU_TOOLS_CUCC_PROGRAM_H

#include "Compiler.h"
#include "Options.h"

#include "llvm/Support/Error.h"

namespace cucpu::cucc {

class Stages;

/// Builds \p Opts.outputPath() for a whole-program output kind (-c: one
/// object per source). Returns 0, or 1 when a compiler or the linker
/// failed (they have printed their diagnostics); cucc's own failures are
/// errors.
llvm::Expected<int> buildProgram(const Options &Opts, const Toolchain &Tools,
                                 Stages &S);

} // namespace cucpu::cucc

#endif // CUCPU_TOOLS_CUCC_PROGRAM_H
