//===- Function.cpp - A kernel of a loaded module (CUfunction) ------------===//
#include "core/Function.h"

#include "core/Device.h"
#include "core/Error.h"

#include <cstring>

using namespace cucpu;

namespace {
/// Registers per thread cucpu reports (a plausible figure: no register file
/// limits a CPU thread).
constexpr int ReportedRegisters = 32;
/// PTX and binary version reported for every kernel (compute capability 7.5).
constexpr int ReportedVersion = 75;
} // namespace

Function::Function(std::weak_ptr<Module> Owner, std::weak_ptr<Context> Ctx,
                   std::string Name, modules::KernelEntry Kernel,
                   uint64_t ConstantBytes)
    : Object(ObjectKind::Function), Owner(std::move(Owner)),
      Ctx(std::move(Ctx)), Name(std::move(Name)), Kernel(Kernel),
      ConstantBytes(ConstantBytes),
      MaxDynamicShared(SharedMemoryPerBlock -
                       static_cast<int>(Kernel.StaticShared)) {
  if (MaxDynamicShared < 0)
    MaxDynamicShared = 0;
}

unsigned Function::maxThreadsPerBlock() const {
  unsigned Bound = Kernel.Info ? Kernel.Info->MaxThreadsPerBlock : 0;
  return Bound == 0 || Bound > MaxThreadsPerBlock ? MaxThreadsPerBlock : Bound;
}

unsigned Function::paramBytes() const {
  return Kernel.Info ? Kernel.Info->ParamBytes : 0;
}

unsigned Function::maxDynamicShared() const {
  std::lock_guard Lock(Mutex);
  return static_cast<unsigned>(MaxDynamicShared);
}

llvm::Expected<int> Function::attribute(int Attribute) const {
  std::lock_guard Lock(Mutex);
  switch (Attribute) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    return static_cast<int>(maxThreadsPerBlock());
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    return static_cast<int>(Kernel.StaticShared);
  case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
    return static_cast<int>(ConstantBytes);
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    return 0;
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    return ReportedRegisters;
  case CU_FUNC_ATTRIBUTE_PTX_VERSION:
  case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
    return ReportedVersion;
  case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
    return 0;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    return MaxDynamicShared;
  case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    return Carveout;
  case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
  case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
  case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
    return 0;
  default:
    return makeError(
        CUDA_ERROR_INVALID_VALUE,
        llvm::formatv("{0} is not a valid CUfunction_attribute.", Attribute));
  }
}

llvm::Error Function::setAttribute(int Attribute, int Value) {
  std::lock_guard Lock(Mutex);
  switch (Attribute) {
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: {
    int Limit =
        SharedMemoryPerBlockOptIn - static_cast<int>(Kernel.StaticShared);
    CU_INVALID_IF(Value < 0 || Value > Limit, CUDA_ERROR_INVALID_VALUE,
                  "The dynamic shared memory size {0} is outside [0, {1}] "
                  "(the opt-in maximum {2} less the kernel's {3} static "
                  "bytes).",
                  Value, Limit, SharedMemoryPerBlockOptIn, Kernel.StaticShared);
    MaxDynamicShared = Value;
    return llvm::Error::success();
  }
  case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    CU_INVALID_IF(Value < -1 || Value > 100, CUDA_ERROR_INVALID_VALUE,
                  "The shared memory carveout {0} is neither -1 nor a "
                  "percentage.",
                  Value);
    Carveout = Value;
    return llvm::Error::success();
  default:
    return makeError(
        CUDA_ERROR_INVALID_VALUE,
        llvm::formatv("Function attribute {0} cannot be set.", Attribute));
  }
}

llvm::Error Function::setCacheConfig(int Config) {
  CU_INVALID_IF(
      Config < CU_FUNC_CACHE_PREFER_NONE || Config > CU_FUNC_CACHE_PREFER_EQUAL,
      CUDA_ERROR_INVALID_VALUE, "{0} is not a valid CUfunc_cache.", Config);
  std::lock_guard Lock(Mutex);
  CacheConfig = Config;
  return llvm::Error::success();
}

llvm::Error Function::setBlockShape(int X, int Y, int Z) {
  // NVIDIA checks the shape at this call (observed: (2000,1,1) and (0,1,1)
  // give CUDA_ERROR_INVALID_VALUE here, not at the launch).
  const int Dims[3] = {X, Y, Z};
  const char Names[3] = {'x', 'y', 'z'};
  for (int I = 0; I < 3; ++I) {
    CU_INVALID_IF(Dims[I] < 1, CUDA_ERROR_INVALID_VALUE,
                  "Block dimension {0} ({1}) must be at least 1.", Names[I],
                  Dims[I]);
    CU_INVALID_IF(static_cast<unsigned>(Dims[I]) > MaxBlockDim[I],
                  CUDA_ERROR_INVALID_VALUE,
                  "Block dimension {0} ({1}) exceeds the maximum ({2}).",
                  Names[I], Dims[I], MaxBlockDim[I]);
  }
  uint64_t Threads = uint64_t(X) * Y * Z;
  CU_INVALID_IF(Threads > MaxThreadsPerBlock, CUDA_ERROR_INVALID_VALUE,
                "A block of {0}x{1}x{2} has {3} threads, more than the "
                "maximum ({4}).",
                X, Y, Z, Threads, MaxThreadsPerBlock);
  std::lock_guard Lock(Mutex);
  Legacy.BlockShape = {unsigned(X), unsigned(Y), unsigned(Z)};
  return llvm::Error::success();
}

llvm::Error Function::setSharedSize(unsigned Bytes) {
  CU_INVALID_IF(Bytes > static_cast<unsigned>(SharedMemoryPerBlock),
                CUDA_ERROR_INVALID_VALUE,
                "The dynamic shared memory size {0} exceeds the maximum "
                "({1}).",
                Bytes, SharedMemoryPerBlock);
  std::lock_guard Lock(Mutex);
  Legacy.SharedBytes = Bytes;
  return llvm::Error::success();
}

llvm::Error Function::setParamSize(unsigned Bytes) {
  CU_INVALID_IF(Bytes > MaxParamBytes, CUDA_ERROR_INVALID_VALUE,
                "The parameter size {0} exceeds the maximum ({1}).", Bytes,
                MaxParamBytes);
  std::lock_guard Lock(Mutex);
  Legacy.ParamBytes = Bytes;
  return llvm::Error::success();
}

llvm::Error Function::setParam(int Offset, const void *Data, unsigned Bytes) {
  CU_INVALID_IF(Bytes > 0 && !Data, CUDA_ERROR_INVALID_VALUE,
                "The parameter value pointer is NULL.");
  CU_INVALID_IF(Offset < 0, CUDA_ERROR_INVALID_VALUE,
                "The parameter offset {0} is negative.", Offset);
  std::lock_guard Lock(Mutex);
  if (uint64_t(Offset) + Bytes > MaxParamBytes) {
    // NVIDIA does not check the offset at this call (observed:
    // cuParamSeti(f, 5000, v) succeeds). Nothing is written; the next launch
    // reports it.
    Legacy.ParamOverflow = llvm::formatv(
        "A parameter of {0} bytes was set at offset {1}, past the end of the "
        "{2}-byte parameter buffer.",
        Bytes, Offset, MaxParamBytes);
    return llvm::Error::success();
  }
  if (Bytes)
    std::memcpy(Legacy.Params.data() + Offset, Data, Bytes);
  return llvm::Error::success();
}

LegacyLaunchState Function::takeLegacyState() {
  std::lock_guard Lock(Mutex);
  LegacyLaunchState Copy = Legacy;
  Legacy.ParamOverflow.clear();
  return Copy;
}
