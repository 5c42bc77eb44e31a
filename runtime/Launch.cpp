//===- Launch.cpp - <<<>>>, cudaLaunchKernel and kernel attributes --------===//
//
// `kernel<<<grid, block, shared, stream>>>(args)` compiles to
// __cudaPushCallConfiguration(grid, block, shared, stream) followed by a
// call of the kernel's host stub, which pops the configuration
// (__cudaPopCallConfiguration) and calls cudaLaunchKernel with the stub's
// own address and the addresses of its arguments.
//
//===----------------------------------------------------------------------===//
#include "Context.h"
#include "Errors.h"
#include "Registry.h"

#include <type_traits>
#include <vector>

using namespace cucpu;
using namespace cucpu::rt;

namespace {

struct CallConfiguration {
  dim3 Grid;
  dim3 Block;
  size_t SharedMem;
  cudaStream_t Stream;
};

/// Pushed configurations of the calling thread: an argument of a launch
/// may itself launch (`k<<<1, 1>>>(f<<<...>>>())` is not CUDA, but a stub
/// call between push and pop can be), so this is a stack.
thread_local std::vector<CallConfiguration> Configurations;

/// A failed launch: the driver's answer, as NVIDIA's runtime passes it on
/// (observed on an H200: a block or grid too large, or too much shared
/// memory, is cudaErrorInvalidValue, not cudaErrorInvalidConfiguration).
cudaError_t launchError(const char *Function, CUresult R) {
  return failDriver(Function, R);
}

cudaError_t launch(const char *Function, const void *Func, dim3 Grid,
                   dim3 Block, void **Args, size_t SharedMem,
                   cudaStream_t Stream, bool Cooperative) {
  CUDART_CONTEXT_FOR(Function, Ctx);
  CUfunction F;
  CUDART_TRY(findFunction(Function, Func, Ctx, F));
  CUDART_FAIL_IF_FOR(Function, SharedMem > 0xffffffffu, cudaErrorInvalidValue,
                     "Dynamic shared memory of %zu bytes exceeds 4 GiB.",
                     SharedMem);
  CUresult R;
  if (Cooperative) {
    R = cuLaunchCooperativeKernel(F, Grid.x, Grid.y, Grid.z, Block.x, Block.y,
                                  Block.z, static_cast<unsigned>(SharedMem),
                                  Stream, Args);
  } else {
    R = cuLaunchKernel(F, Grid.x, Grid.y, Grid.z, Block.x, Block.y, Block.z,
                       static_cast<unsigned>(SharedMem), Stream, Args, nullptr);
  }
  if (R != CUDA_SUCCESS)
    return launchError(Function, R);
  return cudaSuccess;
}

} // namespace

extern "C" {

unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 GridDim, dim3 BlockDim,
                                               size_t SharedMem,
                                               struct CUstream_st *Stream) {
  Configurations.push_back({GridDim, BlockDim, SharedMem, Stream});
  return 0;
}

cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3 *GridDim, dim3 *BlockDim,
                                                 size_t *SharedMem,
                                                 void *Stream) {
  if (Configurations.empty())
    return fail(__func__, cudaErrorMissingConfiguration,
                "A kernel stub ran without a launch configuration.");
  const CallConfiguration &C = Configurations.back();
  *GridDim = C.Grid;
  *BlockDim = C.Block;
  *SharedMem = C.SharedMem;
  *static_cast<cudaStream_t *>(Stream) = C.Stream;
  Configurations.pop_back();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaLaunchKernel(const void *Func, dim3 GridDim,
                                       dim3 BlockDim, void **Args,
                                       size_t SharedMem, cudaStream_t Stream) {
  return launch(__func__, Func, GridDim, BlockDim, Args, SharedMem, Stream,
                /*Cooperative=*/false);
}

cudaError_t CUDARTAPI cudaLaunchKernel_ptsz(const void *Func, dim3 GridDim,
                                            dim3 BlockDim, void **Args,
                                            size_t SharedMem,
                                            cudaStream_t Stream) {
  return launch(__func__, Func, GridDim, BlockDim, Args, SharedMem,
                Stream ? Stream : cudaStreamPerThread, /*Cooperative=*/false);
}

/// nvcc 13's kernel stubs resolve their kernel once with __cudaGetKernel
/// and launch it with __cudaLaunchKernel. The handle is the stub's own
/// address; the launch resolves it in the current context as
/// cudaLaunchKernel does.
cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t *Kernel,
                                      const void *HostFun) {
  CUDART_FAIL_IF(!Kernel || !HostFun, cudaErrorInvalidValue,
                 "The kernel or host function pointer is null.");
  *Kernel = reinterpret_cast<cudaKernel_t>(const_cast<void *>(HostFun));
  return cudaSuccess;
}

cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t Kernel, dim3 GridDim,
                                         dim3 BlockDim, void **Args,
                                         size_t SharedMem,
                                         cudaStream_t Stream) {
  return launch(__func__, reinterpret_cast<const void *>(Kernel), GridDim,
                BlockDim, Args, SharedMem, Stream, /*Cooperative=*/false);
}

cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t Kernel, dim3 GridDim,
                                              dim3 BlockDim, void **Args,
                                              size_t SharedMem,
                                              cudaStream_t Stream) {
  return launch(__func__, reinterpret_cast<const void *>(Kernel), GridDim,
                BlockDim, Args, SharedMem,
                Stream ? Stream : cudaStreamPerThread, /*Cooperative=*/false);
}

cudaError_t CUDARTAPI cudaLaunchCooperativeKernel(const void *Func,
                                                  dim3 GridDim, dim3 BlockDim,
                                                  void **Args, size_t SharedMem,
                                                  cudaStream_t Stream) {
  return launch(__func__, Func, GridDim, BlockDim, Args, SharedMem, Stream,
                /*Cooperative=*/true);
}

cudaError_t CUDARTAPI cudaLaunchCooperativeKernel_ptsz(
    const void *Func, dim3 GridDim, dim3 BlockDim, void **Args,
    size_t SharedMem, cudaStream_t Stream) {
  return launch(__func__, Func, GridDim, BlockDim, Args, SharedMem,
                Stream ? Stream : cudaStreamPerThread, /*Cooperative=*/true);
}

cudaError_t CUDARTAPI cudaFuncGetAttributes(struct cudaFuncAttributes *Attr,
                                            const void *Func) {
  CUDART_FAIL_IF(!Attr, cudaErrorInvalidValue,
                 "The attributes pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUfunction F;
  CUDART_TRY(findFunction(__func__, Func, Ctx, F));
  auto Get = [&](CUfunction_attribute A, auto &Field) -> CUresult {
    int Value = 0;
    CUresult R = cuFuncGetAttribute(&Value, A, F);
    Field = static_cast<std::remove_reference_t<decltype(Field)>>(Value);
    return R;
  };
  *Attr = {};
  CUDART_DRIVER(
      Get(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, Attr->sharedSizeBytes));
  CUDART_DRIVER(Get(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, Attr->constSizeBytes));
  CUDART_DRIVER(Get(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, Attr->localSizeBytes));
  CUDART_DRIVER(
      Get(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, Attr->maxThreadsPerBlock));
  CUDART_DRIVER(Get(CU_FUNC_ATTRIBUTE_NUM_REGS, Attr->numRegs));
  CUDART_DRIVER(Get(CU_FUNC_ATTRIBUTE_PTX_VERSION, Attr->ptxVersion));
  CUDART_DRIVER(Get(CU_FUNC_ATTRIBUTE_BINARY_VERSION, Attr->binaryVersion));
  CUDART_DRIVER(Get(CU_FUNC_ATTRIBUTE_CACHE_MODE_CA, Attr->cacheModeCA));
  CUDART_DRIVER(Get(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    Attr->maxDynamicSharedSizeBytes));
  CUDART_DRIVER(Get(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                    Attr->preferredShmemCarveout));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFuncSetAttribute(const void *Func,
                                           enum cudaFuncAttribute Attr,
                                           int Value) {
  CUDART_CONTEXT(Ctx);
  CUfunction F;
  CUDART_TRY(findFunction(__func__, Func, Ctx, F));
  // cudaFuncAttribute's values are those of CUfunction_attribute's settable
  // members (8: maximum dynamic shared size, 9: carveout, ...).
  CUDART_DRIVER(
      cuFuncSetAttribute(F, static_cast<CUfunction_attribute>(Attr), Value));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFuncSetCacheConfig(const void *Func,
                                             enum cudaFuncCache Config) {
  CUDART_CONTEXT(Ctx);
  CUfunction F;
  CUDART_TRY(findFunction(__func__, Func, Ctx, F));
  CUDART_DRIVER(cuFuncSetCacheConfig(F, static_cast<CUfunc_cache>(Config)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFuncSetSharedMemConfig(const void *Func,
                                                 enum cudaSharedMemConfig C) {
  CUDART_CONTEXT(Ctx);
  CUfunction F;
  CUDART_TRY(findFunction(__func__, Func, Ctx, F));
  CUDART_DRIVER(cuFuncSetSharedMemConfig(F, static_cast<CUsharedconfig>(C)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *NumBlocks, const void *Func, int BlockSize, size_t DynamicSMemSize) {
  CUDART_CONTEXT(Ctx);
  CUfunction F;
  CUDART_TRY(findFunction(__func__, Func, Ctx, F));
  CUDART_DRIVER(cuOccupancyMaxActiveBlocksPerMultiprocessor(
      NumBlocks, F, BlockSize, DynamicSMemSize));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *NumBlocks, const void *Func, int BlockSize, size_t DynamicSMemSize,
    unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  CUfunction F;
  CUDART_TRY(findFunction(__func__, Func, Ctx, F));
  CUDART_DRIVER(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      NumBlocks, F, BlockSize, DynamicSMemSize, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaOccupancyAvailableDynamicSMemPerBlock(
    size_t *DynamicSmemSize, const void *Func, int NumBlocks, int BlockSize) {
  CUDART_CONTEXT(Ctx);
  CUfunction F;
  CUDART_TRY(findFunction(__func__, Func, Ctx, F));
  CUDART_DRIVER(cuOccupancyAvailableDynamicSMemPerBlock(DynamicSmemSize, F,
                                                        NumBlocks, BlockSize));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaLaunchKernelExC(const cudaLaunchConfig_t *Config,
                                          const void *Func, void **Args) {
  CUDART_FAIL_IF(!Config, cudaErrorInvalidValue,
                 "The launch configuration is null.");
  CUDART_FAIL_IF(Config->dynamicSmemBytes > 0xffffffffu, cudaErrorInvalidValue,
                 "Dynamic shared memory of %zu bytes exceeds 4 GiB.",
                 Config->dynamicSmemBytes);
  CUDART_CONTEXT(Ctx);
  CUfunction F;
  CUDART_TRY(findFunction(__func__, Func, Ctx, F));
  // cudaLaunchAttribute has CUlaunchAttribute's layout and values.
  static_assert(sizeof(cudaLaunchAttribute) == sizeof(CUlaunchAttribute));
  CUlaunchConfig C = {};
  C.gridDimX = Config->gridDim.x;
  C.gridDimY = Config->gridDim.y;
  C.gridDimZ = Config->gridDim.z;
  C.blockDimX = Config->blockDim.x;
  C.blockDimY = Config->blockDim.y;
  C.blockDimZ = Config->blockDim.z;
  C.sharedMemBytes = static_cast<unsigned>(Config->dynamicSmemBytes);
  C.hStream = Config->stream;
  C.attrs = reinterpret_cast<CUlaunchAttribute *>(Config->attrs);
  C.numAttrs = Config->numAttrs;
  if (CUresult R = cuLaunchKernelEx(&C, F, Args, nullptr))
    return launchError(__func__, R);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *Config,
                                               const void *Func, void **Args) {
  if (!Config || Config->stream)
    return cudaLaunchKernelExC(Config, Func, Args);
  cudaLaunchConfig_t PerThread = *Config;
  PerThread.stream = cudaStreamPerThread;
  return cudaLaunchKernelExC(&PerThread, Func, Args);
}

cudaError_t CUDARTAPI cudaFuncGetParamInfo(const void *Func, size_t Index,
                                           size_t *Offset, size_t *Size) {
  CUDART_CONTEXT(Ctx);
  CUfunction F;
  CUDART_TRY(findFunction(__func__, Func, Ctx, F));
  CUDART_DRIVER(cuFuncGetParamInfo(F, Index, Offset, Size));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetFuncBySymbol(cudaFunction_t *Function,
                                          const void *Symbol) {
  CUDART_FAIL_IF(!Function, cudaErrorInvalidValue,
                 "The function pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUfunction F;
  CUDART_TRY(findFunction(__func__, Symbol, Ctx, F));
  *Function = F;
  return cudaSuccess;
}

} // extern "C"
