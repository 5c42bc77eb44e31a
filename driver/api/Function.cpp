//===- Function.cpp - Function attributes and occupancy entry points ------===//
#include "api/Handles.h"
#include "api/Kernels.h"
#include "core/EntryPoint.h"
#include "core/LaunchConfig.h"

#include <algorithm>

using namespace cucpu;
using namespace cucpu::api;

llvm::Expected<std::shared_ptr<Function>> api::lookupFunction(CUfunction H) {
  return lookupHandle<Function>(H, {"function"});
}

llvm::Expected<std::shared_ptr<Function>>
api::launchableFunction(CUfunction H, const std::shared_ptr<Context> &Ctx) {
  if (auto K = HandleRegistry::get().findAs<Kernel>(H))
    return K->function(Ctx);
  return lookupFunction(H);
}

llvm::Expected<std::shared_ptr<Library>> api::lookupLibrary(CUlibrary H) {
  return lookupHandle<Library>(H, {"library"});
}

llvm::Expected<std::shared_ptr<Kernel>> api::lookupKernel(CUkernel H) {
  return lookupHandle<Kernel>(H, {"kernel"});
}

llvm::Expected<std::shared_ptr<Module>> api::lookupModule(CUmodule H) {
  return lookupHandle<Module>(H, {"module"});
}

CUCPU_EXPORT CUresult CUDAAPI cuFuncGetAttribute(int *Value,
                                                 CUfunction_attribute Attrib,
                                                 CUfunction H) {
  return CU_ENTRY(Value, Attrib, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Value, CUDA_ERROR_INVALID_VALUE,
                  "The value pointer is NULL.");
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    CU_TRY_ASSIGN(*Value, F->attribute(Attrib));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuFuncSetAttribute(CUfunction H,
                                                 CUfunction_attribute Attrib,
                                                 int Value) {
  return CU_ENTRY(H, Attrib, Value).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    return F->setAttribute(Attrib, Value);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction H,
                                                   CUfunc_cache Config) {
  return CU_ENTRY(H, Config).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    return F->setCacheConfig(Config);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuFuncSetSharedMemConfig(CUfunction H,
                                                       CUsharedconfig Config) {
  return CU_ENTRY(H, Config).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    CU_INVALID_IF(Config < CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE ||
                      Config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0} is not a valid CUsharedconfig.",
                  static_cast<int>(Config));
    // Shared memory has no banks on the CPU; the preference changes nothing
    // (as on NVIDIA's devices since compute capability 5.0).
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuFuncGetModule(CUmodule *Out, CUfunction H) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The module pointer is NULL.");
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    std::shared_ptr<Module> M = F->module();
    CU_INVALID_IF(!M, CUDA_ERROR_INVALID_HANDLE,
                  "The module of the function has been unloaded.");
    *Out = toHandle(*M);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuFuncGetName(const char **Name, CUfunction H) {
  return CU_ENTRY(Name, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Name, CUDA_ERROR_INVALID_VALUE, "The name pointer is NULL.");
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    *Name = F->name().c_str(); // Valid while the module is loaded.
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuFuncGetParamInfo(CUfunction H, size_t Index,
                                                 size_t *Offset, size_t *Size) {
  return CU_ENTRY(H, Index, Offset, Size).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Offset && !Size, CUDA_ERROR_INVALID_VALUE,
                  "Both the offset and the size pointers are NULL.");
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    const loader::KernelInfo *Info = F->kernel().Info;
    size_t Count = Info ? Info->Params.size() : 0;
    CU_INVALID_IF(Index >= Count, CUDA_ERROR_INVALID_VALUE,
                  "Kernel {0} has {1} parameters; there is none at index {2}.",
                  F->name(), Count, Index);
    if (Offset)
      *Offset = Info->Params[Index].Offset;
    if (Size)
      *Size = Info->Params[Index].Size;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuFuncIsLoaded(CUfunctionLoadingState *State,
                                             CUfunction H) {
  return CU_ENTRY(State, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!State, CUDA_ERROR_INVALID_VALUE,
                  "The state pointer is NULL.");
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    // Modules load eagerly (cuModuleGetLoadingMode).
    *State = CU_FUNCTION_LOADING_STATE_LOADED;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuFuncLoad(CUfunction H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    return llvm::Error::success(); // Already loaded with its module.
  });
}

//===----------------------------------------------------------------------===//
// Occupancy
//
// A simple model of one worker as a multiprocessor, with the figures the
// device reports: 1024 threads, 16 blocks and 64 KiB of shared memory per
// multiprocessor, threads allocated in whole warps of 32.
//===----------------------------------------------------------------------===//

namespace {
constexpr int ThreadsPerSm = 1024;
constexpr int BlocksPerSm = 16;
constexpr int SharedPerSm = 64 * 1024;

/// Blocks of \p BlockSize threads and \p Dynamic bytes of dynamic shared
/// memory that fit on one multiprocessor. Only the device's block limit
/// counts, not the kernel's __launch_bounds__: NVIDIA's calculator answers
/// for a block size above the bound as for any other (observed on an H200,
/// tests/runtime Launch.OccupancyIgnoresLaunchBounds), though such a launch
/// fails.
int activeBlocks(const Function &F, int BlockSize, size_t Dynamic) {
  if (BlockSize <= 0 || static_cast<unsigned>(BlockSize) > MaxThreadsPerBlock)
    return 0;
  int Warps = (BlockSize + 31) / 32;
  int Blocks = std::min(BlocksPerSm, ThreadsPerSm / (Warps * 32));
  size_t Shared = F.kernel().StaticShared + Dynamic;
  if (Shared > 0)
    Blocks = std::min<int>(Blocks, static_cast<int>(SharedPerSm / Shared));
  return Blocks;
}

} // namespace

llvm::Error api::checkCooperativeFit(const Function &F, const Device &D,
                                     const LaunchRequest &R) {
  uint64_t Blocks = uint64_t(R.Grid[0]) * R.Grid[1] * R.Grid[2];
  uint64_t Fit = uint64_t(activeBlocks(F, R.Block[0] * R.Block[1] * R.Block[2],
                                       R.DynamicShared)) *
                 D.workers();
  CU_INVALID_IF(Blocks > Fit, CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
                "A cooperative grid of {0} blocks is larger than the {1} the "
                "device holds at once (cuOccupancyMaxActiveBlocksPer"
                "Multiprocessor times the multiprocessor count).",
                Blocks, Fit);
  return llvm::Error::success();
}

namespace {

llvm::Error checkOccupancyFlags(unsigned Flags) {
  CU_INVALID_IF(Flags != CU_OCCUPANCY_DEFAULT &&
                    Flags != CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE,
                CUDA_ERROR_INVALID_VALUE, "{0} is not a valid occupancy flag.",
                Flags);
  return llvm::Error::success();
}

llvm::Error maxActiveBlocks(int *NumBlocks, CUfunction H, int BlockSize,
                            size_t Dynamic, unsigned Flags) {
  CU_INVALID_IF(!NumBlocks, CUDA_ERROR_INVALID_VALUE,
                "The block count pointer is NULL.");
  CU_TRY(checkOccupancyFlags(Flags));
  CU_TRY(current::require());
  CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
  CU_INVALID_IF(BlockSize <= 0, CUDA_ERROR_INVALID_VALUE,
                "The block size {0} must be positive.", BlockSize);
  *NumBlocks = activeBlocks(*F, BlockSize, Dynamic);
  return llvm::Error::success();
}

llvm::Error maxPotentialBlockSize(int *MinGrid, int *BlockSize, CUfunction H,
                                  CUoccupancyB2DSize ToDynamic, size_t Dynamic,
                                  int Limit, unsigned Flags) {
  CU_INVALID_IF(!MinGrid || !BlockSize, CUDA_ERROR_INVALID_VALUE,
                "The grid size and block size pointers must not be NULL.");
  CU_TRY(checkOccupancyFlags(Flags));
  CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
  CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
  int Max = static_cast<int>(F->maxThreadsPerBlock());
  if (Limit > 0)
    Max = std::min(Max, Limit);
  int BestSize = 0, BestThreads = 0, BestBlocks = 0;
  for (int Size = Max; Size > 0; Size -= (Size % 32 ? Size % 32 : 32)) {
    size_t Dyn = ToDynamic ? ToDynamic(Size) : Dynamic;
    int Blocks = activeBlocks(*F, Size, Dyn);
    if (Blocks * Size > BestThreads) {
      BestThreads = Blocks * Size;
      BestSize = Size;
      BestBlocks = Blocks;
    }
  }
  *BlockSize = BestSize;
  *MinGrid = BestBlocks * static_cast<int>(C->device().workers());
  return llvm::Error::success();
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(
    int *NumBlocks, CUfunction H, int BlockSize, size_t Dynamic) {
  return CU_ENTRY(NumBlocks, H, BlockSize, Dynamic).run([&] {
    return maxActiveBlocks(NumBlocks, H, BlockSize, Dynamic, 0);
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *NumBlocks,
                                                     CUfunction H,
                                                     int BlockSize,
                                                     size_t Dynamic,
                                                     unsigned int Flags) {
  return CU_ENTRY(NumBlocks, H, BlockSize, Dynamic, Flags).run([&] {
    return maxActiveBlocks(NumBlocks, H, BlockSize, Dynamic, Flags);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(
    int *MinGrid, int *BlockSize, CUfunction H, CUoccupancyB2DSize ToDynamic,
    size_t Dynamic, int Limit) {
  return CU_ENTRY(MinGrid, BlockSize, H, Dynamic, Limit).run([&] {
    return maxPotentialBlockSize(MinGrid, BlockSize, H, ToDynamic, Dynamic,
                                 Limit, 0);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuOccupancyMaxPotentialBlockSizeWithFlags(
    int *MinGrid, int *BlockSize, CUfunction H, CUoccupancyB2DSize ToDynamic,
    size_t Dynamic, int Limit, unsigned int Flags) {
  return CU_ENTRY(MinGrid, BlockSize, H, Dynamic, Limit, Flags).run([&] {
    return maxPotentialBlockSize(MinGrid, BlockSize, H, ToDynamic, Dynamic,
                                 Limit, Flags);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuOccupancyAvailableDynamicSMemPerBlock(
    size_t *Bytes, CUfunction H, int NumBlocks, int BlockSize) {
  return CU_ENTRY(Bytes, H, NumBlocks, BlockSize).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Bytes, CUDA_ERROR_INVALID_VALUE,
                  "The size pointer is NULL.");
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, lookupFunction(H));
    CU_INVALID_IF(NumBlocks <= 0 || BlockSize <= 0, CUDA_ERROR_INVALID_VALUE,
                  "The block count {0} and block size {1} must be positive.",
                  NumBlocks, BlockSize);
    // The model of activeBlocks(): what a multiprocessor's shared memory
    // leaves each of NumBlocks blocks, none if their threads do not fit.
    if (activeBlocks(*F, BlockSize, 0) < NumBlocks) {
      *Bytes = 0;
      return llvm::Error::success();
    }
    size_t PerBlock = SharedPerSm / static_cast<size_t>(NumBlocks);
    size_t Static = F->kernel().StaticShared;
    *Bytes = std::min<size_t>(PerBlock - std::min(PerBlock, Static),
                              F->maxDynamicShared());
    return llvm::Error::success();
  });
}
