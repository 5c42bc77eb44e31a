//===- Compiler.h - From a module image's IR to an object file --*- C++ -*-===//
//
// The steps JitModule::load and the launch-time specializations share:
// parse and verify the image's bitcode, lower it to the host
// (modules/passes), optimize, and generate code for the host CPU.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_COMPILER_H
#define CUCPU_MODULES_COMPILER_H

#include "cucpu/modules/ComputeCache.h"
#include "cucpu/modules/JitModule.h"
#include "cucpu/modules/Lowering.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace cucpu::modules {

class JitSession;

/// An image's IR lowered for the host, not yet optimized, with its context
/// and a target machine for the host. Use under Context's lock.
struct LoweredModule {
  llvm::orc::ThreadSafeContext Context;
  std::unique_ptr<llvm::Module> IR;
  std::unique_ptr<llvm::TargetMachine> Machine;
  /// What it was lowered for (Target.Machine is Machine).
  LoweringTarget Target;
  /// Errors LLVM reported through the context (code generation).
  std::unique_ptr<std::string> Diagnostics;
};

/// A target to lower for with \p TM, whose external symbols are the runtime
/// library's functions (the caller adds the engine's services).
LoweringTarget loweringTarget(llvm::TargetMachine &TM, bool Memcheck);

/// What the passes must know of \p Image (attachImageDescription).
ImageDescription describeImage(const loader::ModuleImage &Image);

/// The compute cache \p Options name.
ComputeCache computeCache(const JitOptions &Options);

/// Parses and verifies \p Image's IR, names the module \p Key and lowers it
/// (its results: readLoweringResults(*IR)).
/// Errors: an invalid image (JitErrorKind::InvalidImage) or a compiler
/// failure.
llvm::Expected<std::unique_ptr<LoweredModule>>
lowerImage(const loader::ModuleImage &Image, const JitOptions &Options,
           JitSession &Session, llvm::StringRef Key);

/// Optimizes \p M (in \p Lowered's context) at \p Options' level and
/// generates its object file.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
emitObject(llvm::Module &M, LoweredModule &Lowered, const JitOptions &Options);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_COMPILER_H
