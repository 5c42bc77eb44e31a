//===- LoadedModule.h - A module image compiled into the JIT ----*- C++ -*-===//
#ifndef CUCPU_MODULES_LOADEDMODULE_H
#define CUCPU_MODULES_LOADEDMODULE_H

#include "cucpu/modules/JitModule.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace llvm {
class MemoryBuffer;
class Module;
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
  llvm::Expected<CucpuThreadEntry> threadEntry(llvm::StringRef Name) override;
  /// The name of the module's JITDylib (tests check that unloading frees it).
  std::string dylibName() const;

private:
  loader::ModuleImage Image;
  llvm::orc::JITDylib &Dylib;
  llvm::StringMap<KernelEntry> Kernels;
  llvm::StringMap<GlobalEntry> Globals;
  std::string Key;
  JitOptions Options;

  /// Held while compiling code after the load (specializations, thread
  /// entries); guards what follows.
  std::mutex CompileMutex;
  /// The specialized block functions compiled so far, by kernel and shape.
  std::map<std::pair<std::string, BlockShape>, CucpuBlockEntry> Specialized;
  /// The thread entries compiled after the load, by kernel.
  llvm::StringMap<CucpuThreadEntry> LateEntries;
  /// The module's lowered IR, once code compiled after the load needed it.
  std::unique_ptr<LoweredModule> Lowered;

  /// Makes the module that defines one function compiled after the load,
  /// from the lowered IR.
  using LateExtract =
      llvm::function_ref<llvm::Expected<std::unique_ptr<llvm::Module>>(
          const llvm::Module &Lowered)>;
  /// The address of \p Symbol, which \p Extract's module defines: its
  /// object from the compute cache, or compiled now (\p Compiled), then
  /// linked into the module's JITDylib.
  llvm::Expected<void *> compileLate(llvm::StringRef Symbol,
                                     LateExtract Extract, bool &Compiled);
  /// The object of \p Extract's module, compiled now (lowering the image
  /// first if nothing compiled after the load did yet).
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
  lateObject(LateExtract Extract, JitSession &Session);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_LOADEDMODULE_H
