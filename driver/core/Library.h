//===- Library.h - Context-independent libraries (CUlibrary) ----*- C++ -*-===//
//
// CUDA 12's library API loads an image once for every context: a Library
// keeps the image and loads it as a Module into a context the first time
// that context needs it (a launch, cuKernelGetFunction, cuLibraryGetModule,
// cuLibraryGetGlobal). Its Kernels are context-independent handles for the
// image's __global__ functions; a Kernel used where a CUfunction is expected
// means its Function in the current context.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_LIBRARY_H
#define CUCPU_DRIVER_CORE_LIBRARY_H

#include "core/Function.h"
#include "core/Module.h"
#include "core/Object.h"

#include "cucpu/loader/ModuleImage.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cucpu {

class Context;
class Kernel;

/// A module image loaded for every context (cuLibraryLoadData).
class Library : public Object, public std::enable_shared_from_this<Library> {
public:
  static constexpr ObjectKind Kind = ObjectKind::Library;

  /// Validates the image at \p Data (\p Size bytes, 0 if unknown; the forms
  /// Module::loadBytes accepts), registers the library and its kernels as
  /// handles, and loads it into \p Current (if not null) at once, so that
  /// an image the JIT cannot compile fails here. \p InfoLog receives the
  /// compiler's notes; \p Jit holds the JIT options, which every context's
  /// load uses.
  static llvm::Expected<std::shared_ptr<Library>>
  load(const void *Data, size_t Size, const std::shared_ptr<Context> &Current,
       std::string *InfoLog, const JitOptions &Jit = {});
  ~Library() override;

  /// cuLibraryUnload: waits for the work queued in each context that loaded
  /// it, unloads those modules, and makes the library and its kernels stop
  /// being handles.
  llvm::Error unload();

  /// The library's module in \p Ctx, loaded the first time it is asked for.
  llvm::Expected<std::shared_ptr<Module>>
  module(const std::shared_ptr<Context> &Ctx);
  /// The kernels, in image order.
  const std::vector<std::shared_ptr<Kernel>> &kernels() const {
    return Kernels;
  }
  /// The kernel named \p Name (CUDA_ERROR_NOT_FOUND if none).
  llvm::Expected<std::shared_ptr<Kernel>> kernel(llvm::StringRef Name) const;
  /// Bytes of the image's __constant__ variables.
  uint64_t constantBytes() const { return ConstantBytes; }

private:
  Library() : Object(ObjectKind::Library) {}

  std::vector<uint8_t> Image; ///< The cucpu image, as Module::load reads it.
  uint64_t ConstantBytes = 0;
  unsigned OptLevel = 4; ///< CU_JIT_OPTIMIZATION_LEVEL of every load.
  std::vector<std::shared_ptr<Kernel>> Kernels;

  std::mutex Mutex; ///< Guards Loaded.
  std::vector<std::pair<std::weak_ptr<Context>, std::weak_ptr<Module>>> Loaded;
};

/// A __global__ function of a library, in no particular context (CUkernel).
class Kernel : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::Kernel;

  Kernel(std::weak_ptr<Library> Owner, loader::KernelInfo Info)
      : Object(ObjectKind::Kernel), Owner(std::move(Owner)),
        Info(std::move(Info)) {}

  const std::string &name() const { return Info.Name; }
  /// Parameters and static resources, from the image.
  const loader::KernelInfo &info() const { return Info; }
  /// Null once the library is unloaded.
  std::shared_ptr<Library> library() const { return Owner.lock(); }

  /// The kernel's function in \p Ctx (loading the library there if need
  /// be), with every attribute set through setAttribute() applied.
  llvm::Expected<std::shared_ptr<Function>>
  function(const std::shared_ptr<Context> &Ctx);
  /// cuKernelGetAttribute: the attribute of its function in \p Ctx, or,
  /// with no context (null), of the function the image describes.
  llvm::Expected<int> attribute(const std::shared_ptr<Context> &Ctx,
                                int Attribute);
  /// cuKernelSetAttribute: sets \p Attribute, validated as
  /// cuFuncSetAttribute does, on the kernel's function in \p Ctx (if not
  /// null) and on the functions of contexts that load the library later.
  llvm::Error setAttribute(const std::shared_ptr<Context> &Ctx, int Attribute,
                           int Value);
  /// cuKernelSetCacheConfig, kept the same way.
  llvm::Error setCacheConfig(const std::shared_ptr<Context> &Ctx, int Config);

private:
  /// A function of no module or context, as the image describes the
  /// kernel, with the settings applied: what the attributes are before any
  /// context has loaded the library.
  llvm::Expected<std::unique_ptr<Function>> detachedFunction();
  /// Applies the settings made through setAttribute() and setCacheConfig()
  /// to \p F.
  llvm::Error applySettings(Function &F);
  /// Runs \p Apply on the function in \p Ctx, or on the detached one.
  llvm::Error onFunction(const std::shared_ptr<Context> &Ctx,
                         llvm::function_ref<llvm::Error(Function &)> Apply);

  std::weak_ptr<Library> Owner;
  loader::KernelInfo Info;

  std::mutex Mutex; ///< Guards the settings below.
  std::map<int, int> Attributes;
  std::optional<int> CacheConfig;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_LIBRARY_H
