/*
 * cuda_runtime_api.h - the C interface of the CUDA runtime API (libcudart).
 *
 * cucpu's own text. Every function NVIDIA's CUDA 13.0 cuda_runtime_api.h
 * declares is declared here with the same name, parameter and return types,
 * default arguments (C++ only) and C linkage, as tests/abi checks; nothing is
 * marked deprecated, so that programs written for older CUDA versions build
 * without warnings. The header is valid C99 and C++; the C++ conveniences
 * (templates, overloads taking references) are in cuda_runtime.h.
 *
 * Per-thread default stream: when CUDA_API_PER_THREAD_DEFAULT_STREAM is
 * defined before the first include (nvcc's --default-stream per-thread), the
 * functions that use the default stream are renamed to their _ptds
 * (synchronous) or _ptsz (stream-ordered) symbols, exactly as with NVIDIA's
 * header, so one libcudart serves both kinds of program.
 *
 * Texture and surface references (removed from CUDA 12's headers):
 * defining CUDA_ENABLE_DEPRECATED before the first include also
 * declares cudaBindTexture, cudaBindTexture2D, cudaBindTextureToArray,
 * cudaBindTextureToMipmappedArray, cudaUnbindTexture,
 * cudaGetTextureAlignmentOffset and cudaGetTextureReference (and, in
 * cuda_runtime.h, their C++ templates) with CUDA 11's signatures, for older
 * programs that bind texture<> variables.
 *
 * The functions a CUDA compiler's host code calls (__cudaRegisterFatBinary,
 * __cudaPushCallConfiguration, ...) are in crt/host_runtime.h, which
 * cuda_runtime.h includes.
 */
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__

/// The CUDA version this runtime implements: 1000 * major + 10 * minor.
#define CUDART_VERSION 13000

/// The API version a program asks for (__CUDA_API_VER_MAJOR__/MINOR__), by
/// default this runtime's.
#if defined(__CUDA_API_VER_MAJOR__) && defined(__CUDA_API_VER_MINOR__)
#define __CUDART_API_VERSION                                                   \
  ((__CUDA_API_VER_MAJOR__ * 1000) + (__CUDA_API_VER_MINOR__ * 10))
#else
#define __CUDART_API_VERSION CUDART_VERSION
#endif

#include "builtin_types.h"
#include "crt/host_defines.h"

/*
 * Per-thread default stream. __CUDA_API_VERSION_INTERNAL (defined by the
 * library's own sources and by tests/abi) declares every symbol under its
 * real name instead.
 */
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM) ||                             \
    defined(__CUDA_API_VERSION_INTERNAL)
#define __CUDART_API_PER_THREAD_DEFAULT_STREAM
#define __CUDART_API_PTDS(api) api##_ptds
#define __CUDART_API_PTSZ(api) api##_ptsz
#else
#define __CUDART_API_PTDS(api) api
#define __CUDART_API_PTSZ(api) api
#endif

#if defined(__CUDART_API_PER_THREAD_DEFAULT_STREAM) &&                         \
    !defined(__CUDA_API_VERSION_INTERNAL)
/* Synchronous calls: _ptds. Calls taking a stream argument: _ptsz. */
#define cudaMemcpy __CUDART_API_PTDS(cudaMemcpy)
#define cudaMemcpyToSymbol __CUDART_API_PTDS(cudaMemcpyToSymbol)
#define cudaMemcpyFromSymbol __CUDART_API_PTDS(cudaMemcpyFromSymbol)
#define cudaMemcpy2D __CUDART_API_PTDS(cudaMemcpy2D)
#define cudaMemcpyToArray __CUDART_API_PTDS(cudaMemcpyToArray)
#define cudaMemcpy2DToArray __CUDART_API_PTDS(cudaMemcpy2DToArray)
#define cudaMemcpyFromArray __CUDART_API_PTDS(cudaMemcpyFromArray)
#define cudaMemcpy2DFromArray __CUDART_API_PTDS(cudaMemcpy2DFromArray)
#define cudaMemcpyArrayToArray __CUDART_API_PTDS(cudaMemcpyArrayToArray)
#define cudaMemcpy2DArrayToArray __CUDART_API_PTDS(cudaMemcpy2DArrayToArray)
#define cudaMemcpy3D __CUDART_API_PTDS(cudaMemcpy3D)
#define cudaMemcpy3DPeer __CUDART_API_PTDS(cudaMemcpy3DPeer)
#define cudaMemset __CUDART_API_PTDS(cudaMemset)
#define cudaMemset2D __CUDART_API_PTDS(cudaMemset2D)
#define cudaMemset3D __CUDART_API_PTDS(cudaMemset3D)
#define cudaGraphInstantiateWithParams                                         \
  __CUDART_API_PTSZ(cudaGraphInstantiateWithParams)
#define cudaGraphUpload __CUDART_API_PTSZ(cudaGraphUpload)
#define cudaGraphLaunch __CUDART_API_PTSZ(cudaGraphLaunch)
#define cudaStreamBeginCapture __CUDART_API_PTSZ(cudaStreamBeginCapture)
#define cudaStreamBeginCaptureToGraph                                          \
  __CUDART_API_PTSZ(cudaStreamBeginCaptureToGraph)
#define cudaStreamEndCapture __CUDART_API_PTSZ(cudaStreamEndCapture)
#define cudaStreamGetCaptureInfo __CUDART_API_PTSZ(cudaStreamGetCaptureInfo)
#define cudaStreamUpdateCaptureDependencies                                    \
  __CUDART_API_PTSZ(cudaStreamUpdateCaptureDependencies)
#define cudaStreamIsCapturing __CUDART_API_PTSZ(cudaStreamIsCapturing)
#define cudaMemcpyAsync __CUDART_API_PTSZ(cudaMemcpyAsync)
#define cudaMemcpyToSymbolAsync __CUDART_API_PTSZ(cudaMemcpyToSymbolAsync)
#define cudaMemcpyFromSymbolAsync __CUDART_API_PTSZ(cudaMemcpyFromSymbolAsync)
#define cudaMemcpy2DAsync __CUDART_API_PTSZ(cudaMemcpy2DAsync)
#define cudaMemcpyToArrayAsync __CUDART_API_PTSZ(cudaMemcpyToArrayAsync)
#define cudaMemcpy2DToArrayAsync __CUDART_API_PTSZ(cudaMemcpy2DToArrayAsync)
#define cudaMemcpyFromArrayAsync __CUDART_API_PTSZ(cudaMemcpyFromArrayAsync)
#define cudaMemcpy2DFromArrayAsync __CUDART_API_PTSZ(cudaMemcpy2DFromArrayAsync)
#define cudaMemcpy3DAsync __CUDART_API_PTSZ(cudaMemcpy3DAsync)
#define cudaMemcpy3DPeerAsync __CUDART_API_PTSZ(cudaMemcpy3DPeerAsync)
#define cudaMemcpyBatchAsync __CUDART_API_PTSZ(cudaMemcpyBatchAsync)
#define cudaMemcpy3DBatchAsync __CUDART_API_PTSZ(cudaMemcpy3DBatchAsync)
#define cudaMemsetAsync __CUDART_API_PTSZ(cudaMemsetAsync)
#define cudaMemset2DAsync __CUDART_API_PTSZ(cudaMemset2DAsync)
#define cudaMemset3DAsync __CUDART_API_PTSZ(cudaMemset3DAsync)
#define cudaStreamQuery __CUDART_API_PTSZ(cudaStreamQuery)
#define cudaStreamGetDevice __CUDART_API_PTSZ(cudaStreamGetDevice)
#define cudaStreamGetFlags __CUDART_API_PTSZ(cudaStreamGetFlags)
#define cudaStreamGetId __CUDART_API_PTSZ(cudaStreamGetId)
#define cudaStreamGetPriority __CUDART_API_PTSZ(cudaStreamGetPriority)
#define cudaEventRecord __CUDART_API_PTSZ(cudaEventRecord)
#define cudaEventRecordWithFlags __CUDART_API_PTSZ(cudaEventRecordWithFlags)
#define cudaStreamWaitEvent __CUDART_API_PTSZ(cudaStreamWaitEvent)
#define cudaStreamAddCallback __CUDART_API_PTSZ(cudaStreamAddCallback)
#define cudaStreamAttachMemAsync __CUDART_API_PTSZ(cudaStreamAttachMemAsync)
#define cudaStreamSynchronize __CUDART_API_PTSZ(cudaStreamSynchronize)
#define cudaSignalExternalSemaphoresAsync                                      \
  __CUDART_API_PTSZ(cudaSignalExternalSemaphoresAsync)
#define cudaWaitExternalSemaphoresAsync                                        \
  __CUDART_API_PTSZ(cudaWaitExternalSemaphoresAsync)
#define cudaLaunchKernel __CUDART_API_PTSZ(cudaLaunchKernel)
#define cudaLaunchKernelExC __CUDART_API_PTSZ(cudaLaunchKernelExC)
#define cudaLaunchHostFunc __CUDART_API_PTSZ(cudaLaunchHostFunc)
#define cudaMemPrefetchAsync __CUDART_API_PTSZ(cudaMemPrefetchAsync)
#define cudaMemPrefetchBatchAsync __CUDART_API_PTSZ(cudaMemPrefetchBatchAsync)
#define cudaMemDiscardBatchAsync __CUDART_API_PTSZ(cudaMemDiscardBatchAsync)
#define cudaMemDiscardAndPrefetchBatchAsync                                    \
  __CUDART_API_PTSZ(cudaMemDiscardAndPrefetchBatchAsync)
#define cudaLaunchCooperativeKernel                                            \
  __CUDART_API_PTSZ(cudaLaunchCooperativeKernel)
#define cudaStreamCopyAttributes __CUDART_API_PTSZ(cudaStreamCopyAttributes)
#define cudaStreamGetAttribute __CUDART_API_PTSZ(cudaStreamGetAttribute)
#define cudaStreamSetAttribute __CUDART_API_PTSZ(cudaStreamSetAttribute)
#define cudaMallocAsync __CUDART_API_PTSZ(cudaMallocAsync)
#define cudaFreeAsync __CUDART_API_PTSZ(cudaFreeAsync)
#define cudaMallocFromPoolAsync __CUDART_API_PTSZ(cudaMallocFromPoolAsync)
#define cudaGetDriverEntryPoint __CUDART_API_PTSZ(cudaGetDriverEntryPoint)
#define cudaGetDriverEntryPointByVersion                                       \
  __CUDART_API_PTSZ(cudaGetDriverEntryPointByVersion)
#endif

/// A default argument, in C++ only (C has none).
#if defined(__cplusplus)
#define __CUCPU_DV(v) = v
#else
#define __CUCPU_DV(v)
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* ---- Devices: selection, properties, limits, flags and IPC handles. ---- */

/// Destroys the primary context of the current device and everything in it.
extern __host__ cudaError_t CUDARTAPI cudaDeviceReset(void);
/// Waits until all work queued on the current device has finished.
extern __host__ cudaError_t CUDARTAPI cudaDeviceSynchronize(void);
extern __host__ cudaError_t CUDARTAPI cudaDeviceSetLimit(enum cudaLimit limit,
                                                         size_t value);
extern __host__ cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t *pValue,
                                                         enum cudaLimit limit);
extern __host__ cudaError_t CUDARTAPI cudaDeviceGetTexture1DLinearMaxWidth(
    size_t *maxWidthInElements, const struct cudaChannelFormatDesc *fmtDesc,
    int device);
extern __host__ cudaError_t CUDARTAPI
cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig);
extern __host__ cudaError_t CUDARTAPI
cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
extern __host__ cudaError_t CUDARTAPI
cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
extern __host__ cudaError_t CUDARTAPI
cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
extern __host__ cudaError_t CUDARTAPI cudaDeviceGetPCIBusId(char *pciBusId,
                                                            int len,
                                                            int device);
extern __host__ cudaError_t CUDARTAPI
cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event);
extern __host__ cudaError_t CUDARTAPI
cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle);
extern __host__ cudaError_t CUDARTAPI
cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr);
extern __host__ cudaError_t CUDARTAPI cudaIpcOpenMemHandle(
    void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaIpcCloseMemHandle(void *devPtr);
extern __host__ cudaError_t CUDARTAPI cudaDeviceFlushGPUDirectRDMAWrites(
    enum cudaFlushGPUDirectRDMAWritesTarget target,
    enum cudaFlushGPUDirectRDMAWritesScope scope);
extern __host__ cudaError_t CUDARTAPI cudaDeviceRegisterAsyncNotification(
    int device, cudaAsyncCallback callbackFunc, void *userData,
    cudaAsyncCallbackHandle_t *callback);
extern __host__ cudaError_t CUDARTAPI cudaDeviceUnregisterAsyncNotification(
    int device, cudaAsyncCallbackHandle_t callback);
extern __host__ cudaError_t CUDARTAPI
cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig);
extern __host__ cudaError_t CUDARTAPI
cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);

/* ---- Errors: the last error of the calling thread and its names. ---- */

/// Returns the last error of the calling thread and resets it to cudaSuccess.
extern __host__ cudaError_t CUDARTAPI cudaGetLastError(void);
/// Returns the last error of the calling thread without resetting it.
extern __host__ cudaError_t CUDARTAPI cudaPeekAtLastError(void);
/// The enumerator name of an error code, e.g. "cudaErrorInvalidValue".
extern __host__ const char *CUDARTAPI cudaGetErrorName(cudaError_t error);
/// A sentence describing an error code.
extern __host__ const char *CUDARTAPI cudaGetErrorString(cudaError_t error);
extern __host__ cudaError_t CUDARTAPI cudaGetDeviceCount(int *count);
/// Fills a cudaDeviceProp for a device.
extern __host__ cudaError_t CUDARTAPI
cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
/// One integer attribute of a device.
extern __host__ cudaError_t CUDARTAPI
cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
extern __host__ cudaError_t CUDARTAPI cudaDeviceGetHostAtomicCapabilities(
    unsigned int *capabilities, const enum cudaAtomicOperation *operations,
    unsigned int count, int device);
extern __host__ cudaError_t CUDARTAPI
cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
extern __host__ cudaError_t CUDARTAPI
cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
extern __host__ cudaError_t CUDARTAPI
cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
extern __host__ cudaError_t CUDARTAPI cudaDeviceGetNvSciSyncAttributes(
    void *nvSciSyncAttrList, int device, int flags);
extern __host__ cudaError_t CUDARTAPI cudaDeviceGetP2PAttribute(
    int *value, enum cudaDeviceP2PAttr attr, int srcDevice, int dstDevice);
extern __host__ cudaError_t CUDARTAPI cudaDeviceGetP2PAtomicCapabilities(
    unsigned int *capabilities, const enum cudaAtomicOperation *operations,
    unsigned int count, int srcDevice, int dstDevice);
extern __host__ cudaError_t CUDARTAPI
cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
/// Initialises a device's primary context ahead of its first use.
extern __host__ cudaError_t CUDARTAPI cudaInitDevice(int device,
                                                     unsigned int deviceFlags,
                                                     unsigned int flags);
/// Makes a device current for the calling host thread.
extern __host__ cudaError_t CUDARTAPI cudaSetDevice(int device);
extern __host__ cudaError_t CUDARTAPI cudaGetDevice(int *device);
extern __host__ cudaError_t CUDARTAPI cudaSetValidDevices(int *device_arr,
                                                          int len);
extern __host__ cudaError_t CUDARTAPI cudaSetDeviceFlags(unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaGetDeviceFlags(unsigned int *flags);

/* ---- Streams: creation, attributes, ordering, callbacks and capture. ---- */

/// What cudaStreamAddCallback calls: the stream, its status (cudaSuccess or
/// its sticky error) and the registered user data.
typedef void(CUDART_CB *cudaStreamCallback_t)(cudaStream_t stream,
                                              cudaError_t status,
                                              void *userData);

extern __host__ cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t *pStream);
extern __host__ cudaError_t CUDARTAPI
cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaStreamCreateWithPriority(
    cudaStream_t *pStream, unsigned int flags, int priority);
extern __host__ cudaError_t CUDARTAPI
cudaStreamGetPriority(cudaStream_t hStream, int *priority);
extern __host__ cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t hStream,
                                                         unsigned int *flags);
/// A process-unique identifier of a stream.
extern __host__ cudaError_t CUDARTAPI
cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId);
extern __host__ cudaError_t CUDARTAPI cudaStreamGetDevice(cudaStream_t hStream,
                                                          int *device);
extern __host__ cudaError_t CUDARTAPI cudaCtxResetPersistingL2Cache(void);
extern __host__ cudaError_t CUDARTAPI
cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src);
extern __host__ cudaError_t CUDARTAPI
cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                       cudaStreamAttrValue *value_out);
extern __host__ cudaError_t CUDARTAPI
cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                       const cudaStreamAttrValue *value);
extern __host__ cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream);
/// Makes later work of the stream wait for the event's last record.
extern __host__ cudaError_t CUDARTAPI cudaStreamWaitEvent(
    cudaStream_t stream, cudaEvent_t event, unsigned int flags __CUCPU_DV(0));
/// Calls a host function once the stream's earlier work is done (prefer
/// cudaLaunchHostFunc).
extern __host__ cudaError_t CUDARTAPI
cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                      void *userData, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI
cudaStreamSynchronize(cudaStream_t stream);
/// cudaSuccess if all work of the stream has finished, cudaErrorNotReady if
/// not.
extern __host__ cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream);
/// Changes which streams may access a managed allocation (cudaMemAttach*
/// flags).
extern __host__ cudaError_t CUDARTAPI cudaStreamAttachMemAsync(
    cudaStream_t stream, void *devPtr, size_t length __CUCPU_DV(0),
    unsigned int flags __CUCPU_DV(cudaMemAttachSingle));
extern __host__ cudaError_t CUDARTAPI
cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
extern __host__ cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph(
    cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
    enum cudaStreamCaptureMode mode);
/// Swaps the calling thread's capture interaction mode with *mode.
extern __host__ cudaError_t CUDARTAPI
cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);
extern __host__ cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t stream,
                                                           cudaGraph_t *pGraph);
extern __host__ cudaError_t CUDARTAPI cudaStreamIsCapturing(
    cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus);
/// Capture status of a stream and, if capturing, its graph and current
/// dependencies.
extern __host__ cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(
    cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
    unsigned long long *id_out __CUCPU_DV(0),
    cudaGraph_t *graph_out __CUCPU_DV(0),
    const cudaGraphNode_t **dependencies_out __CUCPU_DV(0),
    const cudaGraphEdgeData **edgeData_out __CUCPU_DV(0),
    size_t *numDependencies_out __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies(
    cudaStream_t stream, cudaGraphNode_t *dependencies,
    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
    unsigned int flags __CUCPU_DV(0));

/* ---- Events. ---- */

extern __host__ cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t *event);
extern __host__ cudaError_t CUDARTAPI
cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI
cudaEventRecord(cudaEvent_t event, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI
cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream __CUCPU_DV(0),
                         unsigned int flags __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t event);
extern __host__ cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event);
extern __host__ cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event);
/// Milliseconds between two recorded events.
extern __host__ cudaError_t CUDARTAPI cudaEventElapsedTime(float *ms,
                                                           cudaEvent_t start,
                                                           cudaEvent_t end);

/* ---- External memory and semaphores imported from other APIs. ---- */

extern __host__ cudaError_t CUDARTAPI cudaImportExternalMemory(
    cudaExternalMemory_t *extMem_out,
    const struct cudaExternalMemoryHandleDesc *memHandleDesc);
extern __host__ cudaError_t CUDARTAPI cudaExternalMemoryGetMappedBuffer(
    void **devPtr, cudaExternalMemory_t extMem,
    const struct cudaExternalMemoryBufferDesc *bufferDesc);
extern __host__ cudaError_t CUDARTAPI cudaExternalMemoryGetMappedMipmappedArray(
    cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem,
    const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc);
extern __host__ cudaError_t CUDARTAPI
cudaDestroyExternalMemory(cudaExternalMemory_t extMem);
extern __host__ cudaError_t CUDARTAPI cudaImportExternalSemaphore(
    cudaExternalSemaphore_t *extSem_out,
    const struct cudaExternalSemaphoreHandleDesc *semHandleDesc);
extern __host__ cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreSignalParams *paramsArray,
    unsigned int numExtSems, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreWaitParams *paramsArray,
    unsigned int numExtSems, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI
cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem);

/* ---- Kernel launches and function attributes. ---- */

/// Launches a kernel given its host-side stub address; args holds one pointer
/// per parameter.
extern __host__ cudaError_t CUDARTAPI
cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                 size_t sharedMem, cudaStream_t stream);
/// Launches a kernel with a launch configuration carrying attributes (C form of
/// cudaLaunchKernelEx).
extern __host__ cudaError_t CUDARTAPI cudaLaunchKernelExC(
    const cudaLaunchConfig_t *config, const void *func, void **args);
/// Launches a kernel whose blocks may synchronise with each other (grid sync).
extern __host__ cudaError_t CUDARTAPI
cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                            void **args, size_t sharedMem, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI
cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
/// Attributes of a kernel given by its host-side stub address.
extern __host__ cudaError_t CUDARTAPI
cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
extern __host__ cudaError_t CUDARTAPI
cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
/// The device name of a kernel given by its host-side stub address.
extern __host__ cudaError_t CUDARTAPI cudaFuncGetName(const char **name,
                                                      const void *func);
extern __host__ cudaError_t CUDARTAPI cudaFuncGetParamInfo(const void *func,
                                                           size_t paramIndex,
                                                           size_t *paramOffset,
                                                           size_t *paramSize);
/// Queues a host function on a stream.
extern __host__ cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t stream,
                                                         cudaHostFn_t fn,
                                                         void *userData);
extern __host__ cudaError_t CUDARTAPI
cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config);

/* ---- Occupancy calculator. ---- */

/// How many blocks of blockSize threads fit on one multiprocessor at a time.
extern __host__ cudaError_t CUDARTAPI
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                              int blockSize,
                                              size_t dynamicSMemSize);
/// Dynamic shared memory per block left when numBlocks blocks share a
/// multiprocessor.
extern __host__ cudaError_t CUDARTAPI cudaOccupancyAvailableDynamicSMemPerBlock(
    size_t *dynamicSmemSize, const void *func, int numBlocks, int blockSize);
extern __host__ cudaError_t CUDARTAPI
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                       const void *func,
                                                       int blockSize,
                                                       size_t dynamicSMemSize,
                                                       unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaOccupancyMaxPotentialClusterSize(
    int *clusterSize, const void *func, const cudaLaunchConfig_t *launchConfig);
extern __host__ cudaError_t CUDARTAPI cudaOccupancyMaxActiveClusters(
    int *numClusters, const void *func, const cudaLaunchConfig_t *launchConfig);

/* ---- Memory: allocation, copies, fills, arrays and managed memory. ---- */

/// Allocates managed memory, reachable from the host and every device.
extern __host__ cudaError_t CUDARTAPI
cudaMallocManaged(void **devPtr, size_t size,
                  unsigned int flags __CUCPU_DV(cudaMemAttachGlobal));
extern __host__ cudaError_t CUDARTAPI cudaMalloc(void **devPtr, size_t size);
/// Allocates page-locked host memory.
extern __host__ cudaError_t CUDARTAPI cudaMallocHost(void **ptr, size_t size);
/// Allocates a 2D region whose rows start at a pitch suitable for coalesced
/// access.
extern __host__ cudaError_t CUDARTAPI cudaMallocPitch(void **devPtr,
                                                      size_t *pitch,
                                                      size_t width,
                                                      size_t height);
extern __host__ cudaError_t CUDARTAPI cudaMallocArray(
    cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
    size_t height __CUCPU_DV(0), unsigned int flags __CUCPU_DV(0));
/// Frees memory from cudaMalloc, cudaMallocPitch or cudaMallocManaged; NULL is
/// allowed.
extern __host__ cudaError_t CUDARTAPI cudaFree(void *devPtr);
extern __host__ cudaError_t CUDARTAPI cudaFreeHost(void *ptr);
extern __host__ cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t array);
extern __host__ cudaError_t CUDARTAPI
cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray);
/// Allocates page-locked host memory with cudaHostAlloc* flags.
extern __host__ cudaError_t CUDARTAPI cudaHostAlloc(void **pHost, size_t size,
                                                    unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaHostRegister(void *ptr, size_t size,
                                                       unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaHostUnregister(void *ptr);
/// The device address of mapped page-locked host memory.
extern __host__ cudaError_t CUDARTAPI
cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaHostGetFlags(unsigned int *pFlags,
                                                       void *pHost);
extern __host__ cudaError_t CUDARTAPI
cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
extern __host__ cudaError_t CUDARTAPI
cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                  struct cudaExtent extent, unsigned int flags __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMallocMipmappedArray(
    cudaMipmappedArray_t *mipmappedArray,
    const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
    unsigned int numLevels, unsigned int flags __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaGetMipmappedArrayLevel(
    cudaArray_t *levelArray, cudaMipmappedArray_const_t mipmappedArray,
    unsigned int level);
extern __host__ cudaError_t CUDARTAPI
cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
extern __host__ cudaError_t CUDARTAPI
cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p);
extern __host__ cudaError_t CUDARTAPI cudaMemcpy3DAsync(
    const struct cudaMemcpy3DParms *p, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync(
    const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream __CUCPU_DV(0));
/// Free and total memory of the current device.
extern __host__ cudaError_t CUDARTAPI cudaMemGetInfo(size_t *free,
                                                     size_t *total);
/// Format, extent and flags of an array.
extern __host__ cudaError_t CUDARTAPI
cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                 unsigned int *flags, cudaArray_t array);
extern __host__ cudaError_t CUDARTAPI cudaArrayGetPlane(
    cudaArray_t *pPlaneArray, cudaArray_t hArray, unsigned int planeIdx);
extern __host__ cudaError_t CUDARTAPI cudaArrayGetMemoryRequirements(
    struct cudaArrayMemoryRequirements *memoryRequirements, cudaArray_t array,
    int device);
extern __host__ cudaError_t CUDARTAPI cudaMipmappedArrayGetMemoryRequirements(
    struct cudaArrayMemoryRequirements *memoryRequirements,
    cudaMipmappedArray_t mipmap, int device);
extern __host__ cudaError_t CUDARTAPI cudaArrayGetSparseProperties(
    struct cudaArraySparseProperties *sparseProperties, cudaArray_t array);
extern __host__ cudaError_t CUDARTAPI cudaMipmappedArrayGetSparseProperties(
    struct cudaArraySparseProperties *sparseProperties,
    cudaMipmappedArray_t mipmap);
/// Copies count bytes; with cudaMemcpyDefault the direction is inferred from
/// the pointers.
extern __host__ cudaError_t CUDARTAPI cudaMemcpy(void *dst, const void *src,
                                                 size_t count,
                                                 enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaMemcpyPeer(void *dst, int dstDevice,
                                                     const void *src,
                                                     int srcDevice,
                                                     size_t count);
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2D(void *dst, size_t dpitch,
                                                   const void *src,
                                                   size_t spitch, size_t width,
                                                   size_t height,
                                                   enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DToArray(
    cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
    size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DFromArray(
    void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
    size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(
    cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
    cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
    size_t height,
    enum cudaMemcpyKind kind __CUCPU_DV(cudaMemcpyDeviceToDevice));
/// Copies into a __device__ or __constant__ variable given by its host shadow's
/// address.
extern __host__ cudaError_t CUDARTAPI
cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                   size_t offset __CUCPU_DV(0),
                   enum cudaMemcpyKind kind __CUCPU_DV(cudaMemcpyHostToDevice));
/// Copies from a __device__ or __constant__ variable given by its host shadow's
/// address.
extern __host__ cudaError_t CUDARTAPI cudaMemcpyFromSymbol(
    void *dst, const void *symbol, size_t count, size_t offset __CUCPU_DV(0),
    enum cudaMemcpyKind kind __CUCPU_DV(cudaMemcpyDeviceToHost));
extern __host__ cudaError_t CUDARTAPI
cudaMemcpyAsync(void *dst, const void *src, size_t count,
                enum cudaMemcpyKind kind, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI
cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                    size_t count, cudaStream_t stream __CUCPU_DV(0));
/// Performs count copies on a stream, with per-copy attributes chosen by
/// attrsIdxs.
extern __host__ cudaError_t CUDARTAPI cudaMemcpyBatchAsync(
    void *const *dsts, const void *const *srcs, const size_t *sizes,
    size_t count, struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
    size_t numAttrs, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI
cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                       unsigned long long flags, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DAsync(
    void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
    size_t height, enum cudaMemcpyKind kind, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(
    cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
    size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
    cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(
    void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
    size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
    cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(
    const void *symbol, const void *src, size_t count, size_t offset,
    enum cudaMemcpyKind kind, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(
    void *dst, const void *symbol, size_t count, size_t offset,
    enum cudaMemcpyKind kind, cudaStream_t stream __CUCPU_DV(0));
/// Fills count bytes with the low byte of value.
extern __host__ cudaError_t CUDARTAPI cudaMemset(void *devPtr, int value,
                                                 size_t count);
extern __host__ cudaError_t CUDARTAPI cudaMemset2D(void *devPtr, size_t pitch,
                                                   int value, size_t width,
                                                   size_t height);
extern __host__ cudaError_t CUDARTAPI cudaMemset3D(
    struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
extern __host__ cudaError_t CUDARTAPI cudaMemsetAsync(
    void *devPtr, int value, size_t count, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI
cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                  size_t height, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI
cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                  struct cudaExtent extent, cudaStream_t stream __CUCPU_DV(0));
/// The device address of a __device__ variable given by its host shadow's
/// address.
extern __host__ cudaError_t CUDARTAPI cudaGetSymbolAddress(void **devPtr,
                                                           const void *symbol);
/// The size of a __device__ variable given by its host shadow's address.
extern __host__ cudaError_t CUDARTAPI cudaGetSymbolSize(size_t *size,
                                                        const void *symbol);
extern __host__ cudaError_t CUDARTAPI cudaMemPrefetchAsync(
    const void *devPtr, size_t count, struct cudaMemLocation location,
    unsigned int flags, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemPrefetchBatchAsync(
    void **dptrs, size_t *sizes, size_t count,
    struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI
cudaMemDiscardBatchAsync(void **dptrs, size_t *sizes, size_t count,
                         unsigned long long flags, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI cudaMemDiscardAndPrefetchBatchAsync(
    void **dptrs, size_t *sizes, size_t count,
    struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI
cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
              struct cudaMemLocation location);
extern __host__ cudaError_t CUDARTAPI cudaMemRangeGetAttribute(
    void *data, size_t dataSize, enum cudaMemRangeAttribute attribute,
    const void *devPtr, size_t count);
extern __host__ cudaError_t CUDARTAPI cudaMemRangeGetAttributes(
    void **data, size_t *dataSizes, enum cudaMemRangeAttribute *attributes,
    size_t numAttributes, const void *devPtr, size_t count);
extern __host__ cudaError_t CUDARTAPI
cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                  const void *src, size_t count, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI
cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                    size_t hOffset, size_t count, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaMemcpyArrayToArray(
    cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
    cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t count,
    enum cudaMemcpyKind kind __CUCPU_DV(cudaMemcpyDeviceToDevice));
extern __host__ cudaError_t CUDARTAPI cudaMemcpyToArrayAsync(
    cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
    size_t count, enum cudaMemcpyKind kind, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync(
    void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
    size_t count, enum cudaMemcpyKind kind, cudaStream_t stream __CUCPU_DV(0));

/* ---- Stream-ordered allocation and memory pools. ---- */

extern __host__ cudaError_t CUDARTAPI cudaMallocAsync(void **devPtr,
                                                      size_t size,
                                                      cudaStream_t hStream);
extern __host__ cudaError_t CUDARTAPI cudaFreeAsync(void *devPtr,
                                                    cudaStream_t hStream);
extern __host__ cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t memPool,
                                                        size_t minBytesToKeep);
extern __host__ cudaError_t CUDARTAPI cudaMemPoolSetAttribute(
    cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
extern __host__ cudaError_t CUDARTAPI cudaMemPoolGetAttribute(
    cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
extern __host__ cudaError_t CUDARTAPI
cudaMemPoolSetAccess(cudaMemPool_t memPool,
                     const struct cudaMemAccessDesc *descList, size_t count);
extern __host__ cudaError_t CUDARTAPI
cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                     struct cudaMemLocation *location);
extern __host__ cudaError_t CUDARTAPI cudaMemPoolCreate(
    cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps);
extern __host__ cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t memPool);
extern __host__ cudaError_t CUDARTAPI cudaMemGetDefaultMemPool(
    cudaMemPool_t *memPool, struct cudaMemLocation *location,
    enum cudaMemAllocationType type);
extern __host__ cudaError_t CUDARTAPI
cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                  enum cudaMemAllocationType type);
extern __host__ cudaError_t CUDARTAPI
cudaMemSetMemPool(struct cudaMemLocation *location,
                  enum cudaMemAllocationType type, cudaMemPool_t memPool);
extern __host__ cudaError_t CUDARTAPI cudaMallocFromPoolAsync(
    void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI cudaMemPoolExportToShareableHandle(
    void *shareableHandle, cudaMemPool_t memPool,
    enum cudaMemAllocationHandleType handleType, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaMemPoolImportFromShareableHandle(
    cudaMemPool_t *memPool, void *shareableHandle,
    enum cudaMemAllocationHandleType handleType, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaMemPoolExportPointer(
    struct cudaMemPoolPtrExportData *exportData, void *ptr);
extern __host__ cudaError_t CUDARTAPI
cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool,
                         struct cudaMemPoolPtrExportData *exportData);

/* ---- Pointer attributes (unified addressing). ---- */

/// Memory type, device and addresses of any pointer; unregistered host pointers
/// are cudaMemoryTypeUnregistered.
extern __host__ cudaError_t CUDARTAPI cudaPointerGetAttributes(
    struct cudaPointerAttributes *attributes, const void *ptr);

/* ---- Peer access between devices. ---- */

extern __host__ cudaError_t CUDARTAPI
cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
extern __host__ cudaError_t CUDARTAPI
cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI
cudaDeviceDisablePeerAccess(int peerDevice);

/* ---- Graphics resources (interoperability with graphics APIs). ---- */

extern __host__ cudaError_t CUDARTAPI
cudaGraphicsUnregisterResource(cudaGraphicsResource_t resource);
extern __host__ cudaError_t CUDARTAPI cudaGraphicsResourceSetMapFlags(
    cudaGraphicsResource_t resource, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI
cudaGraphicsMapResources(int count, cudaGraphicsResource_t *resources,
                         cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI
cudaGraphicsUnmapResources(int count, cudaGraphicsResource_t *resources,
                           cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaGraphicsResourceGetMappedPointer(
    void **devPtr, size_t *size, cudaGraphicsResource_t resource);
extern __host__ cudaError_t CUDARTAPI cudaGraphicsSubResourceGetMappedArray(
    cudaArray_t *array, cudaGraphicsResource_t resource,
    unsigned int arrayIndex, unsigned int mipLevel);
extern __host__ cudaError_t CUDARTAPI
cudaGraphicsResourceGetMappedMipmappedArray(
    cudaMipmappedArray_t *mipmappedArray, cudaGraphicsResource_t resource);

/* ---- Texture objects and channel descriptors. ---- */

extern __host__ cudaError_t CUDARTAPI
cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array);
/// A channel descriptor from bit counts and a kind.
extern __host__ struct cudaChannelFormatDesc CUDARTAPI
cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);
extern __host__ cudaError_t CUDARTAPI cudaCreateTextureObject(
    cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
    const struct cudaTextureDesc *pTexDesc,
    const struct cudaResourceViewDesc *pResViewDesc);
extern __host__ cudaError_t CUDARTAPI
cudaDestroyTextureObject(cudaTextureObject_t texObject);
extern __host__ cudaError_t CUDARTAPI cudaGetTextureObjectResourceDesc(
    struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject);
extern __host__ cudaError_t CUDARTAPI cudaGetTextureObjectTextureDesc(
    struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject);
extern __host__ cudaError_t CUDARTAPI cudaGetTextureObjectResourceViewDesc(
    struct cudaResourceViewDesc *pResViewDesc, cudaTextureObject_t texObject);

/* ---- Surface objects. ---- */

extern __host__ cudaError_t CUDARTAPI cudaCreateSurfaceObject(
    cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc);
extern __host__ cudaError_t CUDARTAPI
cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
extern __host__ cudaError_t CUDARTAPI cudaGetSurfaceObjectResourceDesc(
    struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject);

/* ---- Versions of the driver and of this runtime. ---- */

/// The CUDA version of the installed driver (libcuda), 1000 * major + 10 *
/// minor.
extern __host__ cudaError_t CUDARTAPI cudaDriverGetVersion(int *driverVersion);
/// The CUDA version of this runtime, 1000 * major + 10 * minor.
extern __host__ cudaError_t CUDARTAPI
cudaRuntimeGetVersion(int *runtimeVersion);

/* ---- Error log callbacks. ---- */

/// What cudaLogsRegisterCallback calls for each log message (length in
/// bytes).
typedef void(CUDART_CB *cudaLogsCallback_t)(void *data, cudaLogLevel logLevel,
                                            char *message, size_t length);

extern __host__ cudaError_t CUDARTAPI
cudaLogsRegisterCallback(cudaLogsCallback_t callbackFunc, void *userData,
                         cudaLogsCallbackHandle *callback_out);
extern __host__ cudaError_t CUDARTAPI
cudaLogsUnregisterCallback(cudaLogsCallbackHandle callback);
extern __host__ cudaError_t CUDARTAPI
cudaLogsCurrent(cudaLogIterator *iterator_out, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaLogsDumpToFile(
    cudaLogIterator *iterator, const char *pathToFile, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaLogsDumpToMemory(
    cudaLogIterator *iterator, char *buffer, size_t *size, unsigned int flags);

/* ---- Graphs: nodes, edges, instantiation, update and launch. ---- */

extern __host__ cudaError_t CUDARTAPI cudaGraphCreate(cudaGraph_t *pGraph,
                                                      unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaGraphAddKernelNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const struct cudaKernelNodeParams *pNodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphKernelNodeGetParams(
    cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphKernelNodeSetParams(
    cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams);
extern __host__ cudaError_t CUDARTAPI
cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc);
extern __host__ cudaError_t CUDARTAPI cudaGraphKernelNodeGetAttribute(
    cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
    cudaKernelNodeAttrValue *value_out);
extern __host__ cudaError_t CUDARTAPI cudaGraphKernelNodeSetAttribute(
    cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
    const cudaKernelNodeAttrValue *value);
extern __host__ cudaError_t CUDARTAPI cudaGraphAddMemcpyNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const struct cudaMemcpy3DParms *pCopyParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeToSymbol(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const void *symbol, const void *src, size_t count, size_t offset,
    enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeFromSymbol(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
    const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaGraphAddMemcpyNode1D(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
    const void *src, size_t count, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaGraphMemcpyNodeGetParams(
    cudaGraphNode_t node, struct cudaMemcpy3DParms *pNodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams(
    cudaGraphNode_t node, const struct cudaMemcpy3DParms *pNodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsToSymbol(
    cudaGraphNode_t node, const void *symbol, const void *src, size_t count,
    size_t offset, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsFromSymbol(
    cudaGraphNode_t node, void *dst, const void *symbol, size_t count,
    size_t offset, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI
cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src,
                               size_t count, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaGraphAddMemsetNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const struct cudaMemsetParams *pMemsetParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphMemsetNodeGetParams(
    cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphMemsetNodeSetParams(
    cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphAddHostNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const struct cudaHostNodeParams *pNodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphHostNodeGetParams(
    cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphHostNodeSetParams(
    cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams);
extern __host__ cudaError_t CUDARTAPI
cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                           const cudaGraphNode_t *pDependencies,
                           size_t numDependencies, cudaGraph_t childGraph);
extern __host__ cudaError_t CUDARTAPI
cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph);
extern __host__ cudaError_t CUDARTAPI cudaGraphAddEmptyNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies);
extern __host__ cudaError_t CUDARTAPI
cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                            const cudaGraphNode_t *pDependencies,
                            size_t numDependencies, cudaEvent_t event);
extern __host__ cudaError_t CUDARTAPI
cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out);
extern __host__ cudaError_t CUDARTAPI
cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);
extern __host__ cudaError_t CUDARTAPI
cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                          const cudaGraphNode_t *pDependencies,
                          size_t numDependencies, cudaEvent_t event);
extern __host__ cudaError_t CUDARTAPI
cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out);
extern __host__ cudaError_t CUDARTAPI
cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);
extern __host__ cudaError_t CUDARTAPI cudaGraphAddExternalSemaphoresSignalNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const struct cudaExternalSemaphoreSignalNodeParams *nodeParams);
extern __host__ cudaError_t CUDARTAPI
cudaGraphExternalSemaphoresSignalNodeGetParams(
    cudaGraphNode_t hNode,
    struct cudaExternalSemaphoreSignalNodeParams *params_out);
extern __host__ cudaError_t CUDARTAPI
cudaGraphExternalSemaphoresSignalNodeSetParams(
    cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreSignalNodeParams *nodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphAddExternalSemaphoresWaitNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    const struct cudaExternalSemaphoreWaitNodeParams *nodeParams);
extern __host__ cudaError_t CUDARTAPI
cudaGraphExternalSemaphoresWaitNodeGetParams(
    cudaGraphNode_t hNode,
    struct cudaExternalSemaphoreWaitNodeParams *params_out);
extern __host__ cudaError_t CUDARTAPI
cudaGraphExternalSemaphoresWaitNodeSetParams(
    cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreWaitNodeParams *nodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphAddMemAllocNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies,
    struct cudaMemAllocNodeParams *nodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphMemAllocNodeGetParams(
    cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out);
extern __host__ cudaError_t CUDARTAPI cudaGraphAddMemFreeNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dptr);
extern __host__ cudaError_t CUDARTAPI
cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out);
extern __host__ cudaError_t CUDARTAPI cudaDeviceGraphMemTrim(int device);
extern __host__ cudaError_t CUDARTAPI cudaDeviceGetGraphMemAttribute(
    int device, enum cudaGraphMemAttributeType attr, void *value);
extern __host__ cudaError_t CUDARTAPI cudaDeviceSetGraphMemAttribute(
    int device, enum cudaGraphMemAttributeType attr, void *value);
extern __host__ cudaError_t CUDARTAPI cudaGraphClone(cudaGraph_t *pGraphClone,
                                                     cudaGraph_t originalGraph);
extern __host__ cudaError_t CUDARTAPI
cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                         cudaGraph_t clonedGraph);
extern __host__ cudaError_t CUDARTAPI
cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType);
extern __host__ cudaError_t CUDARTAPI cudaGraphGetNodes(cudaGraph_t graph,
                                                        cudaGraphNode_t *nodes,
                                                        size_t *numNodes);
extern __host__ cudaError_t CUDARTAPI cudaGraphGetRootNodes(
    cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes);
extern __host__ cudaError_t CUDARTAPI
cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                  cudaGraphEdgeData *edgeData, size_t *numEdges);
extern __host__ cudaError_t CUDARTAPI cudaGraphNodeGetDependencies(
    cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
    cudaGraphEdgeData *edgeData, size_t *pNumDependencies);
extern __host__ cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes(
    cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
    cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes);
extern __host__ cudaError_t CUDARTAPI cudaGraphAddDependencies(
    cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
    const cudaGraphEdgeData *edgeData, size_t numDependencies);
extern __host__ cudaError_t CUDARTAPI cudaGraphRemoveDependencies(
    cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
    const cudaGraphEdgeData *edgeData, size_t numDependencies);
extern __host__ cudaError_t CUDARTAPI
cudaGraphDestroyNode(cudaGraphNode_t node);
/// Turns a graph into an executable graph (cudaGraphInstantiateFlag* flags).
extern __host__ cudaError_t CUDARTAPI
cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                     unsigned long long flags __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI
cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                              unsigned long long flags __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI
cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                               cudaGraphInstantiateParams *instantiateParams);
extern __host__ cudaError_t CUDARTAPI
cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags);
extern __host__ cudaError_t CUDARTAPI cudaGraphExecKernelNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
    const struct cudaKernelNodeParams *pNodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
    const struct cudaMemcpy3DParms *pNodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsToSymbol(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node, const void *symbol,
    const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI
cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec,
                                           cudaGraphNode_t node, void *dst,
                                           const void *symbol, size_t count,
                                           size_t offset,
                                           enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams1D(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst,
    const void *src, size_t count, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaGraphExecMemsetNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
    const struct cudaMemsetParams *pNodeParams);
extern __host__ cudaError_t CUDARTAPI
cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                               const struct cudaHostNodeParams *pNodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphExecChildGraphNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t node, cudaGraph_t childGraph);
extern __host__ cudaError_t CUDARTAPI cudaGraphExecEventRecordNodeSetEvent(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event);
extern __host__ cudaError_t CUDARTAPI cudaGraphExecEventWaitNodeSetEvent(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event);
extern __host__ cudaError_t CUDARTAPI
cudaGraphExecExternalSemaphoresSignalNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreSignalNodeParams *nodeParams);
extern __host__ cudaError_t CUDARTAPI
cudaGraphExecExternalSemaphoresWaitNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreWaitNodeParams *nodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphNodeSetEnabled(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int isEnabled);
extern __host__ cudaError_t CUDARTAPI cudaGraphNodeGetEnabled(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int *isEnabled);
extern __host__ cudaError_t CUDARTAPI
cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                    cudaGraphExecUpdateResultInfo *resultInfo);
extern __host__ cudaError_t CUDARTAPI cudaGraphUpload(cudaGraphExec_t graphExec,
                                                      cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t graphExec,
                                                      cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI
cudaGraphExecDestroy(cudaGraphExec_t graphExec);
extern __host__ cudaError_t CUDARTAPI cudaGraphDestroy(cudaGraph_t graph);
extern __host__ cudaError_t CUDARTAPI
cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaUserObjectCreate(
    cudaUserObject_t *object_out, void *ptr, cudaHostFn_t destroy,
    unsigned int initialRefcount, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI
cudaUserObjectRetain(cudaUserObject_t object, unsigned int count __CUCPU_DV(1));
extern __host__ cudaError_t CUDARTAPI cudaUserObjectRelease(
    cudaUserObject_t object, unsigned int count __CUCPU_DV(1));
extern __host__ cudaError_t CUDARTAPI cudaGraphRetainUserObject(
    cudaGraph_t graph, cudaUserObject_t object,
    unsigned int count __CUCPU_DV(1), unsigned int flags __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI
cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object,
                           unsigned int count __CUCPU_DV(1));
extern __host__ cudaError_t CUDARTAPI cudaGraphAddNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
    const cudaGraphNode_t *pDependencies,
    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
    struct cudaGraphNodeParams *nodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphNodeSetParams(
    cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams);
extern __host__ cudaError_t CUDARTAPI
cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                           struct cudaGraphNodeParams *nodeParams);
extern __host__ cudaError_t CUDARTAPI cudaGraphConditionalHandleCreate(
    cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
    unsigned int defaultLaunchValue __CUCPU_DV(0),
    unsigned int flags __CUCPU_DV(0));

/* ---- Driver API entry points by name. ---- */

/// The address of a driver API function by name (see also
/// cudaGetDriverEntryPointByVersion).
extern __host__ cudaError_t CUDARTAPI cudaGetDriverEntryPoint(
    const char *symbol, void **funcPtr, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *driverStatus __CUCPU_DV(NULL));
/// The address of a driver API function by name, as of a given CUDA version.
extern __host__ cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion(
    const char *symbol, void **funcPtr, unsigned int cudaVersion,
    unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *driverStatus __CUCPU_DV(NULL));

/* ---- Libraries and kernels loaded from images (context-independent). ---- */

extern __host__ cudaError_t CUDARTAPI cudaLibraryLoadData(
    cudaLibrary_t *library, const void *code, enum cudaJitOption *jitOptions,
    void **jitOptionsValues, unsigned int numJitOptions,
    enum cudaLibraryOption *libraryOptions, void **libraryOptionValues,
    unsigned int numLibraryOptions);
extern __host__ cudaError_t CUDARTAPI cudaLibraryLoadFromFile(
    cudaLibrary_t *library, const char *fileName,
    enum cudaJitOption *jitOptions, void **jitOptionsValues,
    unsigned int numJitOptions, enum cudaLibraryOption *libraryOptions,
    void **libraryOptionValues, unsigned int numLibraryOptions);
extern __host__ cudaError_t CUDARTAPI cudaLibraryUnload(cudaLibrary_t library);
extern __host__ cudaError_t CUDARTAPI cudaLibraryGetKernel(
    cudaKernel_t *pKernel, cudaLibrary_t library, const char *name);
extern __host__ cudaError_t CUDARTAPI cudaLibraryGetGlobal(
    void **dptr, size_t *bytes, cudaLibrary_t library, const char *name);
extern __host__ cudaError_t CUDARTAPI cudaLibraryGetManaged(
    void **dptr, size_t *bytes, cudaLibrary_t library, const char *name);
extern __host__ cudaError_t CUDARTAPI cudaLibraryGetUnifiedFunction(
    void **fptr, cudaLibrary_t library, const char *symbol);
extern __host__ cudaError_t CUDARTAPI
cudaLibraryGetKernelCount(unsigned int *count, cudaLibrary_t lib);
extern __host__ cudaError_t CUDARTAPI cudaLibraryEnumerateKernels(
    cudaKernel_t *kernels, unsigned int numKernels, cudaLibrary_t lib);
extern __host__ cudaError_t CUDARTAPI cudaKernelSetAttributeForDevice(
    cudaKernel_t kernel, enum cudaFuncAttribute attr, int value, int device);
extern __host__ cudaError_t CUDARTAPI cudaGetExportTable(
    const void **ppExportTable, const cudaUUID_t *pExportTableId);

/* ---- Conversions between runtime and driver API handles. ---- */

/// The driver API function handle of a kernel given by its host-side stub
/// address.
extern __host__ cudaError_t CUDARTAPI
cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr);
/// The context-independent kernel handle of a kernel given by its host-side
/// stub address.
extern __host__ cudaError_t CUDARTAPI cudaGetKernel(cudaKernel_t *kernelPtr,
                                                    const void *entryFuncAddr);

/* ---- Texture references (CUDA 11; only with CUDA_ENABLE_DEPRECATED).
 * ---- */
#if defined(CUDA_ENABLE_DEPRECATED)
/// Binds linear memory to a texture reference; *offset receives the
/// misalignment of devPtr in bytes, which fetches must add.
extern __host__ cudaError_t CUDARTAPI cudaBindTexture(
    size_t *offset, const struct textureReference *texref, const void *devPtr,
    const struct cudaChannelFormatDesc *desc, size_t size __CUCPU_DV(UINT_MAX));
/// Binds pitched 2D linear memory to a texture reference.
extern __host__ cudaError_t CUDARTAPI
cudaBindTexture2D(size_t *offset, const struct textureReference *texref,
                  const void *devPtr, const struct cudaChannelFormatDesc *desc,
                  size_t width, size_t height, size_t pitch);
/// Binds an array to a texture reference.
extern __host__ cudaError_t CUDARTAPI cudaBindTextureToArray(
    const struct textureReference *texref, cudaArray_const_t array,
    const struct cudaChannelFormatDesc *desc);
/// Binds a mipmapped array to a texture reference.
extern __host__ cudaError_t CUDARTAPI
cudaBindTextureToMipmappedArray(const struct textureReference *texref,
                                cudaMipmappedArray_const_t mipmappedArray,
                                const struct cudaChannelFormatDesc *desc);
/// Unbinds a texture reference.
extern __host__ cudaError_t CUDARTAPI
cudaUnbindTexture(const struct textureReference *texref);
/// The offset cudaBindTexture reported for a bound texture reference.
extern __host__ cudaError_t CUDARTAPI cudaGetTextureAlignmentOffset(
    size_t *offset, const struct textureReference *texref);
/// The texture reference of a texture<> variable given by its address.
extern __host__ cudaError_t CUDARTAPI cudaGetTextureReference(
    const struct textureReference **texref, const void *symbol);
#endif

/*
 * The per-thread default stream symbols under their real names, for the
 * library that defines them (__CUDA_API_VERSION_INTERNAL).
 */
#if defined(__CUDA_API_VERSION_INTERNAL)
extern __host__ cudaError_t CUDARTAPI cudaMemcpy_ptds(void *dst,
                                                      const void *src,
                                                      size_t count,
                                                      enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaMemcpyToSymbol_ptds(
    const void *symbol, const void *src, size_t count,
    size_t offset __CUCPU_DV(0),
    enum cudaMemcpyKind kind __CUCPU_DV(cudaMemcpyHostToDevice));
extern __host__ cudaError_t CUDARTAPI cudaMemcpyFromSymbol_ptds(
    void *dst, const void *symbol, size_t count, size_t offset __CUCPU_DV(0),
    enum cudaMemcpyKind kind __CUCPU_DV(cudaMemcpyDeviceToHost));
extern __host__ cudaError_t CUDARTAPI
cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                  size_t width, size_t height, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI
cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                       const void *src, size_t count, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DToArray_ptds(
    cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
    size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaMemcpyFromArray_ptds(
    void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
    size_t count, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DFromArray_ptds(
    void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
    size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaMemcpyArrayToArray_ptds(
    cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
    cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t count,
    enum cudaMemcpyKind kind __CUCPU_DV(cudaMemcpyDeviceToDevice));
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray_ptds(
    cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
    cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
    size_t height,
    enum cudaMemcpyKind kind __CUCPU_DV(cudaMemcpyDeviceToDevice));
extern __host__ cudaError_t CUDARTAPI
cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p);
extern __host__ cudaError_t CUDARTAPI
cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p);
extern __host__ cudaError_t CUDARTAPI cudaMemset_ptds(void *devPtr, int value,
                                                      size_t count);
extern __host__ cudaError_t CUDARTAPI cudaMemset2D_ptds(void *devPtr,
                                                        size_t pitch, int value,
                                                        size_t width,
                                                        size_t height);
extern __host__ cudaError_t CUDARTAPI cudaMemset3D_ptds(
    struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
extern __host__ cudaError_t CUDARTAPI cudaGraphInstantiateWithParams_ptsz(
    cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
    cudaGraphInstantiateParams *instantiateParams);
extern __host__ cudaError_t CUDARTAPI
cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI
cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI cudaStreamBeginCapture_ptsz(
    cudaStream_t stream, enum cudaStreamCaptureMode mode);
extern __host__ cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph_ptsz(
    cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
    enum cudaStreamCaptureMode mode);
extern __host__ cudaError_t CUDARTAPI
cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph);
extern __host__ cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_ptsz(
    cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
    unsigned long long *id_out __CUCPU_DV(0),
    cudaGraph_t *graph_out __CUCPU_DV(0),
    const cudaGraphNode_t **dependencies_out __CUCPU_DV(0),
    const cudaGraphEdgeData **edgeData_out __CUCPU_DV(0),
    size_t *numDependencies_out __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_ptsz(
    cudaStream_t stream, cudaGraphNode_t *dependencies,
    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
    unsigned int flags __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaStreamIsCapturing_ptsz(
    cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus);
extern __host__ cudaError_t CUDARTAPI cudaMemcpyAsync_ptsz(
    void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
    cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync_ptsz(
    const void *symbol, const void *src, size_t count, size_t offset,
    enum cudaMemcpyKind kind, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync_ptsz(
    void *dst, const void *symbol, size_t count, size_t offset,
    enum cudaMemcpyKind kind, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DAsync_ptsz(
    void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
    size_t height, enum cudaMemcpyKind kind, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpyToArrayAsync_ptsz(
    cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
    size_t count, enum cudaMemcpyKind kind, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync_ptsz(
    cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
    size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
    cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync_ptsz(
    void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
    size_t count, enum cudaMemcpyKind kind, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync_ptsz(
    void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
    size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
    cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpy3DAsync_ptsz(
    const struct cudaMemcpy3DParms *p, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync_ptsz(
    const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemcpyBatchAsync_ptsz(
    void *const *dsts, const void *const *srcs, const size_t *sizes,
    size_t count, struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
    size_t numAttrs, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI
cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                            unsigned long long flags, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI cudaMemsetAsync_ptsz(
    void *devPtr, int value, size_t count, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI
cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
                       size_t height, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemset3DAsync_ptsz(
    struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
    cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaStreamQuery_ptsz(cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI
cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device);
extern __host__ cudaError_t CUDARTAPI
cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags);
extern __host__ cudaError_t CUDARTAPI
cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId);
extern __host__ cudaError_t CUDARTAPI
cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority);
extern __host__ cudaError_t CUDARTAPI
cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaEventRecordWithFlags_ptsz(
    cudaEvent_t event, cudaStream_t stream __CUCPU_DV(0),
    unsigned int flags __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaStreamWaitEvent_ptsz(
    cudaStream_t stream, cudaEvent_t event, unsigned int flags __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI
cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback,
                           void *userData, unsigned int flags);
extern __host__ cudaError_t CUDARTAPI cudaStreamAttachMemAsync_ptsz(
    cudaStream_t stream, void *devPtr, size_t length __CUCPU_DV(0),
    unsigned int flags __CUCPU_DV(cudaMemAttachSingle));
extern __host__ cudaError_t CUDARTAPI
cudaStreamSynchronize_ptsz(cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreSignalParams *paramsArray,
    unsigned int numExtSems, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreWaitParams *paramsArray,
    unsigned int numExtSems, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI
cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                      void **args, size_t sharedMem, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI cudaLaunchKernelExC_ptsz(
    const cudaLaunchConfig_t *config, const void *func, void **args);
extern __host__ cudaError_t CUDARTAPI
cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData);
extern __host__ cudaError_t CUDARTAPI cudaMemPrefetchAsync_ptsz(
    const void *devPtr, size_t count, struct cudaMemLocation location,
    unsigned int flags, cudaStream_t stream __CUCPU_DV(0));
extern __host__ cudaError_t CUDARTAPI cudaMemPrefetchBatchAsync_ptsz(
    void **dptrs, size_t *sizes, size_t count,
    struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI
cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                              unsigned long long flags, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI cudaMemDiscardAndPrefetchBatchAsync_ptsz(
    void **dptrs, size_t *sizes, size_t count,
    struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
    size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI cudaLaunchCooperativeKernel_ptsz(
    const void *func, dim3 gridDim, dim3 blockDim, void **args,
    size_t sharedMem, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI
cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src);
extern __host__ cudaError_t CUDARTAPI
cudaStreamGetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                            cudaStreamAttrValue *value_out);
extern __host__ cudaError_t CUDARTAPI
cudaStreamSetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                            const cudaStreamAttrValue *value);
extern __host__ cudaError_t CUDARTAPI
cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream);
extern __host__ cudaError_t CUDARTAPI cudaFreeAsync_ptsz(void *devPtr,
                                                         cudaStream_t hStream);
extern __host__ cudaError_t CUDARTAPI cudaMallocFromPoolAsync_ptsz(
    void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);
extern __host__ cudaError_t CUDARTAPI cudaGetDriverEntryPoint_ptsz(
    const char *symbol, void **funcPtr, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *driverStatus __CUCPU_DV(NULL));
extern __host__ cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion_ptsz(
    const char *symbol, void **funcPtr, unsigned int cudaVersion,
    unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *driverStatus __CUCPU_DV(NULL));
#elif defined(__CUDART_API_PER_THREAD_DEFAULT_STREAM)
/* A CUDA compiler's kernel stubs call cudaLaunchKernel and cudaLaunchKernelExC
 * by name, whatever the macros above say; these forward to the _ptsz symbols.
 */
#undef cudaLaunchKernel
/// cudaLaunchKernel on the per-thread default stream.
static __inline__ __host__ cudaError_t
cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                 size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchKernel_ptsz(func, gridDim, blockDim, args, sharedMem,
                               stream);
}
#define cudaLaunchKernel __CUDART_API_PTSZ(cudaLaunchKernel)
#undef cudaLaunchKernelExC
/// cudaLaunchKernelExC on the per-thread default stream.
static __inline__ __host__ cudaError_t cudaLaunchKernelExC(
    const cudaLaunchConfig_t *config, const void *func, void **args) {
  return cudaLaunchKernelExC_ptsz(config, func, args);
}
#define cudaLaunchKernelExC __CUDART_API_PTSZ(cudaLaunchKernelExC)
#endif

#if defined(__cplusplus)
} /* extern "C" */
#endif

#undef __CUCPU_DV

#endif /* __CUDA_RUNTIME_API_H__ */
