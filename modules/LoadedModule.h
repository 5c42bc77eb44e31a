//===- LoadedModule.h - A module image compiled into the JIT -----*- C++ -*-===//
#ifndef CUCPU_MODULES_LOADEDMODULE_H
#define CUCPU_MODULES_LOADEDMODULE_H

#include "JitModule.h"

#include "llvm/ADT/StringMap.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace llvm {
class MemoryBuffer;
namespace orc {
class JITDylib;
} // namespace orc
} // namespace llvm

namespace cucpu::modules {

class JitSession;
struct LoweredModule;

/// The JitModule of JitModule::load: owns its JITDylib, which holds the
/// module's code and its instance of every module-scope variable.
class LoadedModule final : public JitModule {
public:
  /// Takes \p Dylib, already linked; \p Kernels and \p Globals are resolved.
  /// \p Key (the compute cache's) and \p Options compiled the module.
  LoadedModule(loader::ModuleImage Image, llvm::orc::JITDylib &Dylib,
               llvm::StringMap<KernelEntry> Kernels,
               llvm::StringMap<GlobalEntry> Globals, std::string Key,
               JitOptions Options);
  ~LoadedModule() override;

  llvm::Expected<KernelEntry> kernel(llvm::StringRef Name) const override;
  llvm::Expected<GlobalEntry> global(llvm::StringRef Name) const override;
  const loader::ModuleImage &image() const override { return Image; }
  llvm::Expected<CucpuBlockEntry>
  specializedBlock(llvm::StringRef Name, const BlockShape &Shape) override;
  /// The name of the module's JITDylib (tests check that unloading frees it).
  std::string dylibName() const;

private:
  loader::ModuleImage Image;
  llvm::orc::JITDylib &Dylib;
  llvm::StringMap<KernelEntry> Kernels;
  llvm::StringMap<GlobalEntry> Globals;
  std::string Key;
  JitOptions Options;

  /// The specialized block functions compiled so far, by kernel and shape.
  std::mutex SpecializeMutex;
  std::map<std::pair<std::string, BlockShape>, CucpuBlockEntry> Specialized;
  /// The module's lowered IR, once a specialization needed it.
  std::unique_ptr<LoweredModule> Lowered;

  /// The object of kernel \p Name's block function for \p Shape, compiled
  /// now (lowering the image first if no specialization did yet).
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
  specializedObject(llvm::StringRef Name, const BlockShape &Shape,
                    JitSession &Session);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_LOADEDMODULE_H
