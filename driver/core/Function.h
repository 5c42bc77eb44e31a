//===- Function.h - A kernel of a loaded module (CUfunction) ----*- C++ -*-===//
//
// A Function is owned by its Module. Besides the compiled kernel it keeps the
// state of the seeds' legacy launch API: "The cuParam*() family provides the
// parameters for the next time the kernel is launched with cuLaunchGrid() or
// cuLaunch()" (§4.5.3.5), with the block shape and dynamic shared size of
// cuFuncSetBlockShape / cuFuncSetSharedSize; all persist until changed.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_FUNCTION_H
#define CUCPU_DRIVER_CORE_FUNCTION_H

#include "core/LaunchConfig.h"
#include "core/Object.h"

#include "cucpu/modules/JitModule.h"

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace cucpu {

class Context;
class Module;

/// The legacy launch state of a function, copied at a launch.
struct LegacyLaunchState {
  std::array<unsigned, 3> BlockShape = {1, 1, 1};
  unsigned SharedBytes = 0;
  unsigned ParamBytes = 0;
  alignas(16) std::array<char, MaxParamBytes> Params{};
  /// Set by a cuParamSet* call that reached past the buffer; the next launch
  /// reports it.
  std::string ParamOverflow;
};

/// A __global__ function of a loaded module.
class Function : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::Function;

  Function(std::weak_ptr<Module> Owner, std::weak_ptr<Context> Ctx,
           std::string Name, modules::KernelEntry Kernel,
           uint64_t ConstantBytes);

  const std::string &name() const { return Name; }
  const modules::KernelEntry &kernel() const { return Kernel; }
  /// The module (null once unloaded) and the context it belongs to.
  std::shared_ptr<Module> module() const { return Owner.lock(); }
  std::shared_ptr<Context> context() const { return Ctx.lock(); }
  /// Largest block this kernel may run (1024 or its __launch_bounds__).
  unsigned maxThreadsPerBlock() const;
  /// Bytes of its parameter buffer, from the image.
  unsigned paramBytes() const;

  /// cuFuncGetAttribute / cuFuncSetAttribute.
  llvm::Expected<int> attribute(int Attribute) const;
  llvm::Error setAttribute(int Attribute, int Value);
  /// cuFuncSetCacheConfig (a preference only).
  llvm::Error setCacheConfig(int Config);
  /// Largest dynamic shared memory a launch may ask for.
  unsigned maxDynamicShared() const;

  /// cuFuncSetBlockShape, validated as NVIDIA does, at the call.
  llvm::Error setBlockShape(int X, int Y, int Z);
  /// cuFuncSetSharedSize.
  llvm::Error setSharedSize(unsigned Bytes);
  /// cuParamSetSize.
  llvm::Error setParamSize(unsigned Bytes);
  /// cuParamSeti/f/v: copies \p Bytes at \p Offset of the parameter buffer.
  llvm::Error setParam(int Offset, const void *Data, unsigned Bytes);
  /// A copy of the legacy state for a launch; takes a pending overflow.
  LegacyLaunchState takeLegacyState();
  /// Counts a launch; returns how many came before it.
  uint64_t countLaunch() {
    return Launches.fetch_add(1, std::memory_order_relaxed);
  }

private:
  std::weak_ptr<Module> Owner;
  std::weak_ptr<Context> Ctx;
  std::string Name;
  modules::KernelEntry Kernel;
  uint64_t ConstantBytes;

  mutable std::mutex Mutex;
  LegacyLaunchState Legacy;
  int MaxDynamicShared;
  int Carveout = -1;
  int CacheConfig = CU_FUNC_CACHE_PREFER_NONE;
  std::atomic<uint64_t> Launches{0};
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_FUNCTION_H
