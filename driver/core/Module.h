//===- Module.h - A loaded module (CUmodule) --------------------*- C++ -*-===//
//
// "The CUDA driver API does not attempt to lazily allocate the resources
// needed by a module" (E.4.1): loading compiles every kernel at once. A
// module is owned by its context and owns its functions; its __device__ and
// __constant__ variables are known to the context's memory registry, so the
// addresses cuModuleGetGlobal hands out work with cuMemcpy*.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_MODULE_H
#define CUCPU_DRIVER_CORE_MODULE_H

#include "core/Function.h"
#include "core/JitOptions.h"
#include "core/Object.h"
#include "core/Surface.h"
#include "core/Texture.h"

#include "cucpu/modules/JitModule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace cucpu {

class Context;

/// The CUresult error for an error of loader/ or modules/: a malformed image
/// (CUDA_ERROR_INVALID_IMAGE), one for NVIDIA's GPUs only
/// (CUDA_ERROR_NO_BINARY_FOR_GPU), IR the CPU cannot run, a missing symbol.
llvm::Error toCuError(llvm::Error E);

/// A module image compiled for the host, with its functions.
class Module : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::Module;

  /// Reads, validates and compiles the cucpu image \p Image for \p Ctx;
  /// registers the module and its functions as handles and makes \p Ctx
  /// their owner. Errors: CUDA_ERROR_INVALID_IMAGE (malformed),
  /// CUDA_ERROR_NO_BINARY_FOR_GPU, CUDA_ERROR_NOT_SUPPORTED (IR the CPU
  /// cannot run). \p InfoLog receives the compiler's notes; \p OptLevel is
  /// CU_JIT_OPTIMIZATION_LEVEL (0-4).
  static llvm::Expected<std::shared_ptr<Module>>
  load(const std::shared_ptr<Context> &Ctx, llvm::ArrayRef<uint8_t> Image,
       std::string *InfoLog, unsigned OptLevel = 4);
  /// Loads whatever \p Data holds (\p Size bytes, 0 if unknown): see
  /// imageBytes(). \p Jit: the load's JIT options.
  static llvm::Expected<std::shared_ptr<Module>>
  loadBytes(const std::shared_ptr<Context> &Ctx, const void *Data, size_t Size,
            std::string *InfoLog, const JitOptions &Jit = {});
  /// The cucpu image to load from \p Data (\p Size bytes, 0 if unknown),
  /// copied: a cucpu image; PTX text, JIT-compiled (or the image cucc's PTX
  /// carries); a fat binary (or nvcc's wrapper of one) holding either (its
  /// cucpu image, else its best PTX: loader::chooseEntry). NVIDIA cubins
  /// give CUDA_ERROR_NO_BINARY_FOR_GPU, malformed bytes
  /// CUDA_ERROR_INVALID_IMAGE, each with a message saying what to do;
  /// CUDA_DISABLE_PTX_JIT and CUDA_FORCE_PTX_JIT apply. \p Relocatable: for
  /// a link, where PTX may leave .extern symbols to other inputs. Nothing
  /// is compiled for the host.
  static llvm::Expected<std::vector<uint8_t>>
  imageBytes(const void *Data, size_t Size, const JitOptions &Jit = {},
             std::string *InfoLog = nullptr, bool Relocatable = false);
  ~Module() override;

  /// cuModuleUnload: the module and its functions stop being handles and
  /// the context lets go of it.
  void unload();

  std::shared_ptr<Context> context() const { return Owner.lock(); }
  /// The kernel named \p Name (CUDA_ERROR_NOT_FOUND if none).
  llvm::Expected<std::shared_ptr<Function>>
  function(llvm::StringRef Name) const;
  /// Every kernel, in image order.
  const std::vector<std::shared_ptr<Function>> &functions() const {
    return Functions;
  }
  /// The variable named \p Name (CUDA_ERROR_NOT_FOUND if none).
  llvm::Expected<modules::GlobalEntry> global(llvm::StringRef Name) const;
  /// Kernel \p Name's block function compiled for blocks of \p Shape
  /// (modules/include/cucpu/modules/Specialization.h); null if an earlier
  /// attempt failed.
  llvm::Expected<CucpuBlockEntry>
  specializedBlock(llvm::StringRef Name, const std::array<unsigned, 3> &Shape);
  /// Kernel \p Name's thread entry, for the fiber engine; compiled the first
  /// time it is asked for unless the load compiled it.
  llvm::Expected<CucpuThreadEntry> threadEntry(llvm::StringRef Name);
  /// The texture reference named \p Name (CUDA_ERROR_NOT_FOUND if none).
  llvm::Expected<std::shared_ptr<TexRef>> texRef(llvm::StringRef Name) const;
  /// Whether \p T is one of this module's texture references.
  bool ownsTexRef(const TexRef &T) const;
  /// The surface reference named \p Name (CUDA_ERROR_NOT_FOUND if none).
  llvm::Expected<std::shared_ptr<SurfRef>> surfRef(llvm::StringRef Name) const;
  /// The texture and surface references as a launch reads them, in image
  /// order (CucpuBlock::TexRefs); \p Keep receives what they read.
  std::vector<CucpuTexture>
  textureTable(std::vector<std::shared_ptr<const void>> &Keep) const;

private:
  Module() : Object(ObjectKind::Module) {}

  std::weak_ptr<Context> Owner;
  std::unique_ptr<modules::JitModule> Jit;
  std::vector<std::shared_ptr<Function>> Functions;
  /// The image's references in image order: each entry is a texture
  /// reference (TexRefs) or a surface reference (SurfRefs); the other
  /// vector holds null there.
  std::vector<std::shared_ptr<TexRef>> TexRefs;
  std::vector<std::shared_ptr<SurfRef>> SurfRefs;
  std::vector<uintptr_t> GlobalBases; ///< Registered in the context's memory.
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_MODULE_H
