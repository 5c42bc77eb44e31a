//===- LoadedModule.h - A module image compiled into the JIT -----*- C++ -*-===//
#ifndef CUCPU_MODULES_LOADEDMODULE_H
#define CUCPU_MODULES_LOADEDMODULE_H

#include "JitModule.h"

#include "llvm/ADT/StringMap.h"

#include <string>

namespace llvm::orc {
class JITDylib;
} // namespace llvm::orc

namespace cucpu::modules {

/// The JitModule of JitModule::load: owns its JITDylib, which holds the
/// module's code and its instance of every module-scope variable.
class LoadedModule final : public JitModule {
public:
  /// Takes \p Dylib, already linked; \p Kernels and \p Globals are resolved.
  LoadedModule(loader::ModuleImage Image, llvm::orc::JITDylib &Dylib,
               llvm::StringMap<KernelEntry> Kernels,
               llvm::StringMap<GlobalEntry> Globals);
  ~LoadedModule() override;

  llvm::Expected<KernelEntry> kernel(llvm::StringRef Name) const override;
  llvm::Expected<GlobalEntry> global(llvm::StringRef Name) const override;
  const loader::ModuleImage &image() const override { return Image; }
  /// The name of the module's JITDylib (tests check that unloading frees it).
  std::string dylibName() const;

private:
  loader::ModuleImage Image;
  llvm::orc::JITDylib &Dylib;
  llvm::StringMap<KernelEntry> Kernels;
  llvm::StringMap<GlobalEntry> Globals;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_LOADEDMODULE_H
