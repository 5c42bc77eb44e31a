/*
 * cuda_runtime.h - the CUDA runtime API for C and C++ programs.
 *
 * cucpu's own text. Includes what NVIDIA's CUDA 13.0 cuda_runtime.h includes
 * (the built-in types, library_types.h, channel_descriptor.h,
 * cuda_runtime_api.h, driver_functions.h, vector_functions.h) and, in C++,
 * adds NVIDIA's conveniences with the same names and parameters: templates
 * taking typed pointers (cudaMalloc<T>, cudaMallocHost<T>, ...), symbols by
 * reference (cudaMemcpyToSymbol(symbol, ...) for a __device__ or
 * __constant__ variable), kernels by function pointer (cudaLaunchKernel<T>,
 * cudaFuncGetAttributes<T>, the occupancy calculators, cudaLaunchKernelEx
 * with typed arguments) and a few overloads (cudaEventCreate with flags,
 * cudaMallocHost with flags, cudaGraphInstantiate and cudaGraphExecUpdate in
 * their CUDA 11 forms). None is marked deprecated.
 *
 * It also includes crt/host_runtime.h, the functions a CUDA compiler's host
 * code calls (__cudaPushCallConfiguration for <<<>>>, the registration
 * functions), and, in C++, the texture<> and surface<> reference templates
 * (cuda_texture_types.h, cuda_surface_types.h). With
 * CUDA_ENABLE_DEPRECATED defined, the texture reference API's C++
 * templates (cudaBindTexture(offset, tex, ...), ...) are declared too.
 *
 * The header is read by host compilers and by both passes of cucc (kernel
 * code, __CUCPU__ defined), where cucc's prelude already provides the vector
 * types, their make_* functions and texture<>; the included headers leave
 * those out there.
 */
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__

#include "crt/host_config.h"

#include "builtin_types.h"
#include "library_types.h"

#include "channel_descriptor.h"
#include "cuda_runtime_api.h"
#include "driver_functions.h"

#include "crt/host_defines.h"
#include "crt/host_runtime.h"
#include "vector_functions.h"

#if defined(__CUDACC__)
#include "cuda_device_runtime_api.h"
#include "device_launch_parameters.h"
#endif

#include "cuda_surface_types.h"
#include "cuda_texture_types.h"

#if defined(__cplusplus)

#include <utility>

/* ---- Kernel launches ---- */

/// cudaLaunchKernel for a kernel given as a function pointer.
template <class T>
static __inline__ __host__ cudaError_t
cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                 size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args,
                            sharedMem, stream);
}

#if __cplusplus >= 201103L
/// Launches kernel with a launch configuration and its arguments, each
/// converted to the kernel's parameter type first.
template <typename... ExpTypes, typename... ActTypes>
static __inline__ __host__ cudaError_t
cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                   void (*kernel)(ExpTypes...), ActTypes &&...args) {
  // The lambda's parameters hold the converted arguments while the launch
  // reads them.
  return [&](ExpTypes... converted) {
    void *params[] = {(void *)&converted..., nullptr};
    return ::cudaLaunchKernelExC(config, (const void *)kernel, params);
  }(std::forward<ActTypes>(args)...);
}

/// Launches a context-independent kernel handle with a launch configuration;
/// the arguments are passed as they are.
template <typename... ActTypes>
static __inline__ __host__ cudaError_t
cudaLaunchKernelEx(const cudaLaunchConfig_t *config, const cudaKernel_t kernel,
                   ActTypes &&...args) {
  void *params[] = {(void *)&args..., nullptr};
  return ::cudaLaunchKernelExC(config, (const void *)kernel, params);
}
#endif

/// cudaLaunchCooperativeKernel for a kernel given as a function pointer.
template <class T>
static __inline__ __host__ cudaError_t
cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                            size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim,
                                       args, sharedMem, stream);
}

/* ---- Events and graphs ---- */

/// cudaEventCreateWithFlags under cudaEventCreate's name.
static __inline__ __host__ cudaError_t cudaEventCreate(cudaEvent_t *event,
                                                       unsigned int flags) {
  return ::cudaEventCreateWithFlags(event, flags);
}

/// cudaGraphInstantiate as CUDA 11 declared it; the error node and log are
/// left untouched.
static __inline__ __host__ cudaError_t cudaGraphInstantiate(
    cudaGraphExec_t *pGraphExec, cudaGraph_t graph, cudaGraphNode_t *pErrorNode,
    char *pLogBuffer, size_t bufferSize) {
  (void)pErrorNode;
  (void)pLogBuffer;
  (void)bufferSize;
  return ::cudaGraphInstantiate(pGraphExec, graph, 0);
}

/// cudaGraphExecUpdate as CUDA 11 declared it: the node that failed and
/// the result, either pointer may be NULL.
static __inline__ __host__ cudaError_t CUDARTAPI
cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                    cudaGraphNode_t *hErrorNode_out,
                    enum cudaGraphExecUpdateResult *updateResult_out) {
  cudaGraphExecUpdateResultInfo info;
  cudaError_t status = ::cudaGraphExecUpdate(hGraphExec, hGraph, &info);
  if (hErrorNode_out)
    *hErrorNode_out = info.errorNode;
  if (updateResult_out)
    *updateResult_out = info.result;
  return status;
}

/// A user object owning objectToWrap, deleted with delete when released.
template <class T>
static __inline__ __host__ cudaError_t
cudaUserObjectCreate(cudaUserObject_t *object_out, T *objectToWrap,
                     unsigned int initialRefcount, unsigned int flags) {
  return ::cudaUserObjectCreate(
      object_out, objectToWrap,
      [](void *object) { delete static_cast<T *>(object); }, initialRefcount,
      flags);
}

/// As above, with the flags as their enumeration.
template <class T>
static __inline__ __host__ cudaError_t
cudaUserObjectCreate(cudaUserObject_t *object_out, T *objectToWrap,
                     unsigned int initialRefcount, cudaUserObjectFlags flags) {
  return cudaUserObjectCreate(object_out, objectToWrap, initialRefcount,
                              (unsigned int)flags);
}

/* ---- Memory ---- */

/// cudaHostAlloc under cudaMallocHost's name.
static __inline__ __host__ cudaError_t cudaMallocHost(void **ptr, size_t size,
                                                      unsigned int flags) {
  return ::cudaHostAlloc(ptr, size, flags);
}

/// cudaHostAlloc for a typed pointer.
template <class T>
static __inline__ __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size,
                                                     unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}

/// cudaHostGetDevicePointer for a typed pointer.
template <class T>
static __inline__ __host__ cudaError_t
cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags) {
  return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}

/// cudaMallocManaged for a typed pointer.
template <class T>
static __inline__ __host__ cudaError_t cudaMallocManaged(
    T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}

/// cudaMemPrefetchBatchAsync for typed pointers.
template <typename T>
static __inline__ __host__ cudaError_t cudaMemPrefetchBatchAsync(
    T **dptrs, size_t *sizes, size_t count,
    struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream) {
  return ::cudaMemPrefetchBatchAsync((void **)dptrs, sizes, count, prefetchLocs,
                                     prefetchLocIdxs, numPrefetchLocs, flags,
                                     stream);
}

/// cudaMemPrefetchBatchAsync with one location for all ranges.
template <typename T>
static __inline__ __host__ cudaError_t cudaMemPrefetchBatchAsync(
    T **dptrs, size_t *sizes, size_t count, struct cudaMemLocation prefetchLocs,
    unsigned long long flags, cudaStream_t stream) {
  size_t index = 0;
  return ::cudaMemPrefetchBatchAsync((void **)dptrs, sizes, count,
                                     &prefetchLocs, &index, 1, flags, stream);
}

/// cudaMemDiscardAndPrefetchBatchAsync for typed pointers.
template <typename T>
static __inline__ __host__ cudaError_t cudaMemDiscardAndPrefetchBatchAsync(
    T **dptrs, size_t *sizes, size_t count,
    struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream) {
  return ::cudaMemDiscardAndPrefetchBatchAsync((void **)dptrs, sizes, count,
                                               prefetchLocs, prefetchLocIdxs,
                                               numPrefetchLocs, flags, stream);
}

/// cudaMemDiscardAndPrefetchBatchAsync with one location for all ranges.
template <typename T>
static __inline__ __host__ cudaError_t cudaMemDiscardAndPrefetchBatchAsync(
    T **dptrs, size_t *sizes, size_t count, struct cudaMemLocation prefetchLocs,
    unsigned long long flags, cudaStream_t stream) {
  size_t index = 0;
  return ::cudaMemDiscardAndPrefetchBatchAsync(
      (void **)dptrs, sizes, count, &prefetchLocs, &index, 1, flags, stream);
}

/// cudaStreamAttachMemAsync for a typed pointer.
template <class T>
static __inline__ __host__ cudaError_t
cudaStreamAttachMemAsync(cudaStream_t stream, T *devPtr, size_t length = 0,
                         unsigned int flags = cudaMemAttachSingle) {
  return ::cudaStreamAttachMemAsync(stream, (void *)devPtr, length, flags);
}

/// cudaMalloc for a typed pointer.
template <class T>
static __inline__ __host__ cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}

/// cudaMallocHost (with flags, cudaHostAlloc) for a typed pointer.
template <class T>
static __inline__ __host__ cudaError_t cudaMallocHost(T **ptr, size_t size,
                                                      unsigned int flags = 0) {
  return cudaMallocHost((void **)(void *)ptr, size, flags);
}

/// cudaMallocPitch for a typed pointer.
template <class T>
static __inline__ __host__ cudaError_t
cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height) {
  return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}

/// cudaMallocFromPoolAsync under cudaMallocAsync's name.
static __inline__ __host__ cudaError_t cudaMallocAsync(void **ptr, size_t size,
                                                       cudaMemPool_t memPool,
                                                       cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}

/// cudaMallocFromPoolAsync for a typed pointer, under cudaMallocAsync's name.
template <class T>
static __inline__ __host__ cudaError_t cudaMallocAsync(T **ptr, size_t size,
                                                       cudaMemPool_t memPool,
                                                       cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}

/// cudaMallocAsync for a typed pointer.
template <class T>
static __inline__ __host__ cudaError_t cudaMallocAsync(T **ptr, size_t size,
                                                       cudaStream_t stream) {
  return ::cudaMallocAsync((void **)(void *)ptr, size, stream);
}

/// cudaMallocFromPoolAsync for a typed pointer.
template <class T>
static __inline__ __host__ cudaError_t cudaMallocFromPoolAsync(
    T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}

/// cudaMemcpyBatchAsync for typed pointers.
template <typename T, typename U>
static __inline__ __host__ cudaError_t
cudaMemcpyBatchAsync(T *const *dsts, U *const *srcs, const size_t *sizes,
                     size_t count, struct cudaMemcpyAttributes *attrs,
                     size_t *attrsIdxs, size_t numAttrs, cudaStream_t hStream) {
  return ::cudaMemcpyBatchAsync((void *const *)dsts, (const void *const *)srcs,
                                sizes, count, attrs, attrsIdxs, numAttrs,
                                hStream);
}

/// cudaMemcpyBatchAsync with one set of attributes for all copies.
template <typename T, typename U>
static __inline__ __host__ cudaError_t cudaMemcpyBatchAsync(
    T *const *dsts, U *const *srcs, const size_t *sizes, size_t count,
    struct cudaMemcpyAttributes attr, cudaStream_t hStream) {
  size_t index = 0;
  return ::cudaMemcpyBatchAsync((void *const *)dsts, (const void *const *)srcs,
                                sizes, count, &attr, &index, 1, hStream);
}

/* ---- Symbols: __device__ and __constant__ variables by reference ---- */

/// Copies count bytes from src to symbol, offset bytes into it.
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbol(
    const T &symbol, const void *src, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}

/// cudaMemcpyToSymbol, ordered on a stream.
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyToSymbolAsync(
    const T &symbol, const void *src, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
    cudaStream_t stream = 0) {
  return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset,
                                   kind, stream);
}

/// Copies count bytes from symbol, offset bytes into it, to dst.
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyFromSymbol(
    void *dst, const T &symbol, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset,
                                kind);
}

/// cudaMemcpyFromSymbol, ordered on a stream.
template <class T>
static __inline__ __host__ cudaError_t cudaMemcpyFromSymbolAsync(
    void *dst, const T &symbol, size_t count, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
    cudaStream_t stream = 0) {
  return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset,
                                     kind, stream);
}

/// A graph node copying into a symbol.
template <class T>
static __inline__ __host__ cudaError_t cudaGraphAddMemcpyNodeToSymbol(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const T &symbol, const void *src, size_t count, size_t offset,
    enum cudaMemcpyKind kind) {
  return ::cudaGraphAddMemcpyNodeToSymbol(
      pGraphNode, graph, pDependencies, numDependencies, (const void *)&symbol,
      src, count, offset, kind);
}

/// A graph node copying from a symbol.
template <class T>
static __inline__ __host__ cudaError_t cudaGraphAddMemcpyNodeFromSymbol(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
    const T &symbol, size_t count, size_t offset, enum cudaMemcpyKind kind) {
  return ::cudaGraphAddMemcpyNodeFromSymbol(
      pGraphNode, graph, pDependencies, numDependencies, dst,
      (const void *)&symbol, count, offset, kind);
}

/// Makes a copy node copy into a symbol.
template <class T>
static __inline__ __host__ cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(
    cudaGraphNode_t node, const T &symbol, const void *src, size_t count,
    size_t offset, enum cudaMemcpyKind kind) {
  return ::cudaGraphMemcpyNodeSetParamsToSymbol(node, (const void *)&symbol,
                                                src, count, offset, kind);
}

/// Makes a copy node copy from a symbol.
template <class T>
static __inline__ __host__ cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(
    cudaGraphNode_t node, void *dst, const T &symbol, size_t count,
    size_t offset, enum cudaMemcpyKind kind) {
  return ::cudaGraphMemcpyNodeSetParamsFromSymbol(
      node, dst, (const void *)&symbol, count, offset, kind);
}

/// Makes a copy node of an executable graph copy into a symbol.
template <class T>
static __inline__ __host__ cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node, const T &symbol,
    const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind) {
  return ::cudaGraphExecMemcpyNodeSetParamsToSymbol(
      hGraphExec, node, (const void *)&symbol, src, count, offset, kind);
}

/// Makes a copy node of an executable graph copy from a symbol.
template <class T>
static __inline__ __host__ cudaError_t
cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec,
                                           cudaGraphNode_t node, void *dst,
                                           const T &symbol, size_t count,
                                           size_t offset,
                                           enum cudaMemcpyKind kind) {
  return ::cudaGraphExecMemcpyNodeSetParamsFromSymbol(
      hGraphExec, node, dst, (const void *)&symbol, count, offset, kind);
}

/// The device address of a symbol.
template <class T>
static __inline__ __host__ cudaError_t cudaGetSymbolAddress(void **devPtr,
                                                            const T &symbol) {
  return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}

/// The size of a symbol in bytes.
template <class T>
static __inline__ __host__ cudaError_t cudaGetSymbolSize(size_t *size,
                                                         const T &symbol) {
  return ::cudaGetSymbolSize(size, (const void *)&symbol);
}

/* ---- Kernels by function pointer ---- */

/// cudaFuncSetCacheConfig for a kernel.
template <class T>
static __inline__ __host__ cudaError_t
cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig) {
  return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}

/// cudaFuncSetSharedMemConfig for a kernel.
template <class T>
static __inline__ __host__ cudaError_t
cudaFuncSetSharedMemConfig(T *func, enum cudaSharedMemConfig config) {
  return ::cudaFuncSetSharedMemConfig((const void *)func, config);
}

/// cudaFuncGetAttributes for a kernel.
template <class T>
static __inline__ __host__ cudaError_t
cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry) {
  return ::cudaFuncGetAttributes(attr, (const void *)entry);
}

/// cudaFuncSetAttribute for a kernel.
template <class T>
static __inline__ __host__ cudaError_t
cudaFuncSetAttribute(T *func, enum cudaFuncAttribute attr, int value) {
  return ::cudaFuncSetAttribute((const void *)func, attr, value);
}

/// cudaFuncGetName for a kernel.
template <class T>
static __inline__ __host__ cudaError_t CUDARTAPI
cudaFuncGetName(const char **name, T *func) {
  return ::cudaFuncGetName(name, (const void *)func);
}

/// cudaGetKernel for a kernel.
template <class T>
static __inline__ __host__ cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr,
                                                     T *func) {
  return ::cudaGetKernel(kernelPtr, (const void *)func);
}

/* ---- Occupancy ---- */

/// cudaOccupancyMaxActiveBlocksPerMultiprocessor for a kernel.
template <class T>
static __inline__ __host__ cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                              int blockSize,
                                              size_t dynamicSMemSize) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, (const void *)func, blockSize, dynamicSMemSize,
      cudaOccupancyDefault);
}

/// cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags for a kernel.
template <class T>
static __inline__ __host__ cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, T func,
                                                       int blockSize,
                                                       size_t dynamicSMemSize,
                                                       unsigned int flags) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, (const void *)func, blockSize, dynamicSMemSize, flags);
}

/// The block size (at most blockSizeLimit threads, 0: no limit beyond the
/// kernel's) that keeps the most threads resident per multiprocessor, with
/// blockSizeToDynamicSMemSize(blockSize) bytes of dynamic shared memory per
/// block, and the smallest grid that reaches that occupancy on every
/// multiprocessor.
template <typename UnaryFunction, class T>
static __inline__ __host__ cudaError_t
cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func,
    UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0,
    unsigned int flags = 0) {
  if (!minGridSize || !blockSize || !func)
    return cudaErrorInvalidValue;
  int device = 0, multiprocessors = 0, threadsPerMultiprocessor = 0;
  int deviceBlockLimit = 0, warp = 0;
  cudaError_t status = ::cudaGetDevice(&device);
  if (status == cudaSuccess)
    status = ::cudaDeviceGetAttribute(&multiprocessors,
                                      cudaDevAttrMultiProcessorCount, device);
  if (status == cudaSuccess)
    status = ::cudaDeviceGetAttribute(&threadsPerMultiprocessor,
                                      cudaDevAttrMaxThreadsPerMultiProcessor,
                                      device);
  if (status == cudaSuccess)
    status = ::cudaDeviceGetAttribute(&deviceBlockLimit,
                                      cudaDevAttrMaxThreadsPerBlock, device);
  if (status == cudaSuccess)
    status = ::cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  struct cudaFuncAttributes attributes;
  if (status == cudaSuccess)
    status = ::cudaFuncGetAttributes(&attributes, (const void *)func);
  if (status != cudaSuccess)
    return status;
  if (warp <= 0)
    return cudaErrorUnknown;

  int limit = deviceBlockLimit < attributes.maxThreadsPerBlock
                  ? deviceBlockLimit
                  : attributes.maxThreadsPerBlock;
  if (blockSizeLimit > 0 && blockSizeLimit < limit)
    limit = blockSizeLimit;

  // Try each multiple of the warp size from the limit down (the limit itself
  // first if it is not one), keeping the size with the most resident threads.
  int bestSize = 0, bestBlocks = 0, bestThreads = 0;
  for (int aligned = (limit + warp - 1) / warp * warp; aligned > 0;
       aligned -= warp) {
    int size = aligned < limit ? aligned : limit;
    int blocks = 0;
    status = ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        &blocks, (const void *)func, size,
        (size_t)blockSizeToDynamicSMemSize(size), flags);
    if (status != cudaSuccess)
      return status;
    if (blocks * size > bestThreads) {
      bestSize = size;
      bestBlocks = blocks;
      bestThreads = blocks * size;
    }
    if (bestThreads == threadsPerMultiprocessor)
      break;
  }
  *minGridSize = bestBlocks * multiprocessors;
  *blockSize = bestSize;
  return cudaSuccess;
}

/// cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags without flags.
template <typename UnaryFunction, class T>
static __inline__ __host__ cudaError_t
cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int *minGridSize, int *blockSize, T func,
    UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, blockSizeToDynamicSMemSize, blockSizeLimit,
      cudaOccupancyDefault);
}

/// The same dynamic shared memory size for every block size.
class __cudaOccupancyB2DHelper {
  size_t n;

public:
  inline __host__ __cudaOccupancyB2DHelper(size_t n_) : n(n_) {}
  inline __host__ size_t operator()(int) { return n; }
};

/// The best block size with dynamicSMemSize bytes of dynamic shared memory
/// per block (see cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags).
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(
    int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0,
    int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, __cudaOccupancyB2DHelper(dynamicSMemSize),
      blockSizeLimit, cudaOccupancyDefault);
}

/// cudaOccupancyMaxPotentialBlockSize with occupancy flags.
template <class T>
static __inline__ __host__ cudaError_t
cudaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
                                            T func, size_t dynamicSMemSize = 0,
                                            int blockSizeLimit = 0,
                                            unsigned int flags = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, __cudaOccupancyB2DHelper(dynamicSMemSize),
      blockSizeLimit, flags);
}

/// cudaOccupancyAvailableDynamicSMemPerBlock for a kernel.
template <class T>
static __inline__ __host__ cudaError_t
cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, T *func,
                                          int numBlocks, int blockSize) {
  return ::cudaOccupancyAvailableDynamicSMemPerBlock(
      dynamicSmemSize, (const void *)func, numBlocks, blockSize);
}

/// cudaOccupancyMaxPotentialClusterSize for a kernel.
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialClusterSize(
    int *clusterSize, T *func, const cudaLaunchConfig_t *config) {
  return ::cudaOccupancyMaxPotentialClusterSize(clusterSize, (const void *)func,
                                                config);
}

/// cudaOccupancyMaxActiveClusters for a kernel.
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveClusters(
    int *numClusters, T *func, const cudaLaunchConfig_t *config) {
  return ::cudaOccupancyMaxActiveClusters(numClusters, (const void *)func,
                                          config);
}

/* ---- Libraries ---- */

/// cudaLibraryGetGlobal for a typed pointer.
template <class T>
static __inline__ __host__ cudaError_t cudaLibraryGetGlobal(
    T **dptr, size_t *bytes, cudaLibrary_t library, const char *name) {
  return ::cudaLibraryGetGlobal((void **)(void *)dptr, bytes, library, name);
}

/// cudaLibraryGetManaged for a typed pointer.
template <class T>
static __inline__ __host__ cudaError_t cudaLibraryGetManaged(
    T **dptr, size_t *bytes, cudaLibrary_t library, const char *name) {
  return ::cudaLibraryGetManaged((void **)(void *)dptr, bytes, library, name);
}

/// cudaLibraryGetUnifiedFunction for a typed function pointer.
template <class T>
static __inline__ __host__ cudaError_t cudaLibraryGetUnifiedFunction(
    T **fptr, cudaLibrary_t library, const char *symbol) {
  return ::cudaLibraryGetUnifiedFunction((void **)(void *)fptr, library,
                                         symbol);
}

/* ---- Texture references (only with CUDA_ENABLE_DEPRECATED) ---- */
#if defined(CUDA_ENABLE_DEPRECATED)

/// Binds linear memory to a texture<> with an explicit channel format.
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t
cudaBindTexture(size_t *offset, const struct texture<T, dim, readMode> &tex,
                const void *devPtr, const struct cudaChannelFormatDesc &desc,
                size_t size = UINT_MAX) {
  return ::cudaBindTexture(offset, &tex, devPtr, &desc, size);
}

/// Binds linear memory to a texture<> with the texture's channel format.
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t
cudaBindTexture(size_t *offset, const struct texture<T, dim, readMode> &tex,
                const void *devPtr, size_t size = UINT_MAX) {
  return ::cudaBindTexture(offset, &tex, devPtr, &tex.channelDesc, size);
}

/// Binds pitched 2D memory to a texture<> with an explicit channel format.
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t
cudaBindTexture2D(size_t *offset, const struct texture<T, dim, readMode> &tex,
                  const void *devPtr, const struct cudaChannelFormatDesc &desc,
                  size_t width, size_t height, size_t pitch) {
  return ::cudaBindTexture2D(offset, &tex, devPtr, &desc, width, height, pitch);
}

/// Binds pitched 2D memory to a texture<> with the texture's channel format.
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t cudaBindTexture2D(
    size_t *offset, const struct texture<T, dim, readMode> &tex,
    const void *devPtr, size_t width, size_t height, size_t pitch) {
  return ::cudaBindTexture2D(offset, &tex, devPtr, &tex.channelDesc, width,
                             height, pitch);
}

/// Binds an array to a texture<> with an explicit channel format.
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t cudaBindTextureToArray(
    const struct texture<T, dim, readMode> &tex, cudaArray_const_t array,
    const struct cudaChannelFormatDesc &desc) {
  return ::cudaBindTextureToArray(&tex, array, &desc);
}

/// Binds an array to a texture<> with the array's channel format.
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t cudaBindTextureToArray(
    const struct texture<T, dim, readMode> &tex, cudaArray_const_t array) {
  struct cudaChannelFormatDesc desc;
  cudaError_t status = ::cudaGetChannelDesc(&desc, array);
  return status == cudaSuccess ? cudaBindTextureToArray(tex, array, desc)
                               : status;
}

/// Binds a mipmapped array to a texture<> with an explicit channel format.
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t
cudaBindTextureToMipmappedArray(const struct texture<T, dim, readMode> &tex,
                                cudaMipmappedArray_const_t mipmappedArray,
                                const struct cudaChannelFormatDesc &desc) {
  return ::cudaBindTextureToMipmappedArray(&tex, mipmappedArray, &desc);
}

/// Binds a mipmapped array to a texture<> with the format of its level 0.
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t
cudaBindTextureToMipmappedArray(const struct texture<T, dim, readMode> &tex,
                                cudaMipmappedArray_const_t mipmappedArray) {
  struct cudaChannelFormatDesc desc;
  cudaArray_t level0;
  cudaError_t status = ::cudaGetMipmappedArrayLevel(&level0, mipmappedArray, 0);
  if (status == cudaSuccess)
    status = ::cudaGetChannelDesc(&desc, level0);
  return status == cudaSuccess
             ? cudaBindTextureToMipmappedArray(tex, mipmappedArray, desc)
             : status;
}

/// Unbinds a texture<>.
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t
cudaUnbindTexture(const struct texture<T, dim, readMode> &tex) {
  return ::cudaUnbindTexture(&tex);
}

/// The offset cudaBindTexture reported for a texture<>.
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t cudaGetTextureAlignmentOffset(
    size_t *offset, const struct texture<T, dim, readMode> &tex) {
  return ::cudaGetTextureAlignmentOffset(offset, &tex);
}

#endif /* CUDA_ENABLE_DEPRECATED */

#endif /* __cplusplus */

#endif /* __CUDA_RUNTIME_H__ */
