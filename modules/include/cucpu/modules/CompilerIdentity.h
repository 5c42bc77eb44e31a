//===- CompilerIdentity.h - Which code compiles the kernels -----*- C++ -*-===//
//
// The compute cache keeps object code across processes and builds. Its keys
// name the code that produced an object: a hash of cucpu's compiler sources,
// made at build time, and the GNU build id of LLVM's shared library. A
// changed pass, front end or code generator never reads an object an older
// one wrote, and no version number has to be bumped by hand; builds of the
// same sources (Debug, sanitizers) share their objects.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_COMPILERIDENTITY_H
#define CUCPU_MODULES_COMPILERIDENTITY_H

#include <string>

namespace cucpu::modules {

/// The GNU build id, in lower-case hex, of the loaded binary whose code or
/// data holds \p Address; empty if that binary has none.
std::string buildIdOf(const void *Address);

/// The SHA-256 of the sources that change what a module image compiles to
/// (modules/, ptx/, loader/, the PTX JIT; modules/CMakeLists.txt lists them).
const char *compilerSourceId();

/// The identity of the code that compiles kernels: compilerSourceId(),
/// LLVM's version, and the build id of the shared LLVM library when LLVM is
/// one (a library without a build id is named by a hash of its file).
/// Computed once per process.
const std::string &compilerIdentity();

} // namespace cucpu::modules

#endif // CUCPU_MODULES_COMPILERIDENTITY_H
