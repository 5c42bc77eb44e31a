//===- JitSession.h - The process-wide ORC JIT ------------------*- C++ -*-===//
//
// One LLJIT per process (created on first use, never destroyed: modules may
// be unloaded by static destructors of the program). Each loaded module gets
// a JITDylib of its own, which links against a shared JITDylib holding
// cucpu's runtime library.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_JITSESSION_H
#define CUCPU_MODULES_JITSESSION_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace cucpu::modules {

/// The process's JIT.
class JitSession {
public:
  /// The session, created on the first call (thread-safe). The error of a
  /// failed creation is returned to every caller.
  static llvm::Expected<JitSession &> get();

  /// The LLJIT instance.
  llvm::orc::LLJIT &jit() { return *J; }
  /// A builder for target machines like the JIT's (host CPU and features).
  const llvm::orc::JITTargetMachineBuilder &machineBuilder() const {
    return Builder;
  }
  /// A new, empty JITDylib that resolves cucpu's runtime library and the
  /// absolute symbols \p Extra (the engine's services).
  llvm::Expected<llvm::orc::JITDylib &>
  createModuleDylib(const llvm::StringMap<void *> &Extra);
  /// Frees \p JD and all code and data in it.
  llvm::Error removeModuleDylib(llvm::orc::JITDylib &JD);

private:
  JitSession(std::unique_ptr<llvm::orc::LLJIT> J,
             llvm::orc::JITTargetMachineBuilder Builder,
             llvm::orc::JITDylib &Runtime)
      : J(std::move(J)), Builder(std::move(Builder)), Runtime(Runtime) {}

  std::unique_ptr<llvm::orc::LLJIT> J;
  llvm::orc::JITTargetMachineBuilder Builder;
  llvm::orc::JITDylib &Runtime;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_JITSESSION_H
