//===- PerThread.cpp - The per-thread default stream's entry points -------===//
//
// A program compiled with `--default-stream per-thread` (or that defines
// CUDA_API_PER_THREAD_DEFAULT_STREAM) calls the _ptsz and _ptds names of the
// functions that use a default stream. In a _ptsz function, stream 0 means
// the calling thread's default stream (cudaStreamPerThread). A _ptds
// function (a synchronous call) behaves as its plain form, which also
// orders it after the legacy default stream: stronger ordering than NVIDIA
// promises, never a different result (docs/runtime.md).
//
//===----------------------------------------------------------------------===//
#include <cuda_runtime_api.h>

namespace {
cudaStream_t perThread(cudaStream_t S) { return S ? S : cudaStreamPerThread; }
} // namespace

/// Defines Name_ptsz(Params) as Name(Args) with the stream argument
/// (named Stream) mapped by perThread.
#define CUDART_PTSZ(Name, Params, ...)                                         \
  cudaError_t CUDARTAPI Name##_ptsz Params { return Name(__VA_ARGS__); }
#define CUDART_PTDS(Name, Params, ...)                                         \
  cudaError_t CUDARTAPI Name##_ptds Params { return Name(__VA_ARGS__); }

extern "C" {

CUDART_PTSZ(cudaMemcpyAsync,
            (void *D, const void *S, size_t N, cudaMemcpyKind K,
             cudaStream_t Stream),
            D, S, N, K, perThread(Stream))
CUDART_PTSZ(cudaMemcpy2DAsync,
            (void *D, size_t DP, const void *S, size_t SP, size_t W, size_t H,
             cudaMemcpyKind K, cudaStream_t Stream),
            D, DP, S, SP, W, H, K, perThread(Stream))
CUDART_PTSZ(cudaMemcpy3DAsync,
            (const cudaMemcpy3DParms *P, cudaStream_t Stream), P,
            perThread(Stream))
CUDART_PTSZ(cudaMemcpy3DPeerAsync,
            (const cudaMemcpy3DPeerParms *P, cudaStream_t Stream), P,
            perThread(Stream))
CUDART_PTSZ(cudaMemcpy2DToArrayAsync,
            (cudaArray_t D, size_t X, size_t Y, const void *S, size_t SP,
             size_t W, size_t H, cudaMemcpyKind K, cudaStream_t Stream),
            D, X, Y, S, SP, W, H, K, perThread(Stream))
CUDART_PTSZ(cudaMemcpy2DFromArrayAsync,
            (void *D, size_t DP, cudaArray_const_t S, size_t X, size_t Y,
             size_t W, size_t H, cudaMemcpyKind K, cudaStream_t Stream),
            D, DP, S, X, Y, W, H, K, perThread(Stream))
CUDART_PTSZ(cudaMemcpyToArrayAsync,
            (cudaArray_t D, size_t X, size_t Y, const void *S, size_t N,
             cudaMemcpyKind K, cudaStream_t Stream),
            D, X, Y, S, N, K, perThread(Stream))
CUDART_PTSZ(cudaMemcpyFromArrayAsync,
            (void *D, cudaArray_const_t S, size_t X, size_t Y, size_t N,
             cudaMemcpyKind K, cudaStream_t Stream),
            D, S, X, Y, N, K, perThread(Stream))
CUDART_PTSZ(cudaMemcpyToSymbolAsync,
            (const void *Sym, const void *S, size_t N, size_t O,
             cudaMemcpyKind K, cudaStream_t Stream),
            Sym, S, N, O, K, perThread(Stream))
CUDART_PTSZ(cudaMemcpyFromSymbolAsync,
            (void *D, const void *Sym, size_t N, size_t O, cudaMemcpyKind K,
             cudaStream_t Stream),
            D, Sym, N, O, K, perThread(Stream))
CUDART_PTSZ(cudaMemsetAsync, (void *D, int V, size_t N, cudaStream_t Stream), D,
            V, N, perThread(Stream))
CUDART_PTSZ(cudaMemset2DAsync,
            (void *D, size_t P, int V, size_t W, size_t H, cudaStream_t Stream),
            D, P, V, W, H, perThread(Stream))
CUDART_PTSZ(cudaMemset3DAsync,
            (cudaPitchedPtr P, int V, cudaExtent E, cudaStream_t Stream), P, V,
            E, perThread(Stream))
CUDART_PTSZ(cudaMallocAsync, (void **P, size_t N, cudaStream_t Stream), P, N,
            perThread(Stream))
CUDART_PTSZ(cudaFreeAsync, (void *P, cudaStream_t Stream), P, perThread(Stream))
CUDART_PTSZ(cudaStreamSynchronize, (cudaStream_t Stream), perThread(Stream))
CUDART_PTSZ(cudaStreamQuery, (cudaStream_t Stream), perThread(Stream))
CUDART_PTSZ(cudaStreamWaitEvent,
            (cudaStream_t Stream, cudaEvent_t E, unsigned F), perThread(Stream),
            E, F)
CUDART_PTSZ(cudaStreamAddCallback,
            (cudaStream_t Stream, cudaStreamCallback_t C, void *U, unsigned F),
            perThread(Stream), C, U, F)
CUDART_PTSZ(cudaLaunchHostFunc, (cudaStream_t Stream, cudaHostFn_t Fn, void *U),
            perThread(Stream), Fn, U)
CUDART_PTSZ(cudaEventRecord, (cudaEvent_t E, cudaStream_t Stream), E,
            perThread(Stream))
CUDART_PTSZ(cudaEventRecordWithFlags,
            (cudaEvent_t E, cudaStream_t Stream, unsigned F), E,
            perThread(Stream), F)
CUDART_PTSZ(cudaStreamGetPriority, (cudaStream_t Stream, int *P),
            perThread(Stream), P)
CUDART_PTSZ(cudaStreamGetAttribute,
            (cudaStream_t Stream, cudaStreamAttrID Id, cudaStreamAttrValue *V),
            perThread(Stream), Id, V)
CUDART_PTSZ(cudaStreamSetAttribute,
            (cudaStream_t Stream, cudaStreamAttrID Id,
             const cudaStreamAttrValue *V),
            perThread(Stream), Id, V)
cudaError_t CUDARTAPI cudaStreamCopyAttributes_ptsz(cudaStream_t Dst,
                                                    cudaStream_t Src) {
  return cudaStreamCopyAttributes(perThread(Dst), perThread(Src));
}
CUDART_PTSZ(cudaStreamGetFlags, (cudaStream_t Stream, unsigned *F),
            perThread(Stream), F)
CUDART_PTSZ(cudaStreamGetId, (cudaStream_t Stream, unsigned long long *Id),
            perThread(Stream), Id)
CUDART_PTSZ(cudaStreamGetDevice, (cudaStream_t Stream, int *D),
            perThread(Stream), D)
CUDART_PTSZ(cudaStreamIsCapturing,
            (cudaStream_t Stream, cudaStreamCaptureStatus *S),
            perThread(Stream), S)
CUDART_PTSZ(cudaStreamBeginCapture,
            (cudaStream_t Stream, cudaStreamCaptureMode M), perThread(Stream),
            M)
CUDART_PTSZ(cudaStreamEndCapture, (cudaStream_t Stream, cudaGraph_t *G),
            perThread(Stream), G)
CUDART_PTSZ(cudaStreamGetCaptureInfo,
            (cudaStream_t Stream, cudaStreamCaptureStatus *S,
             unsigned long long *Id, cudaGraph_t *G, const cudaGraphNode_t **D,
             const cudaGraphEdgeData **E, size_t *N),
            perThread(Stream), S, Id, G, D, E, N)
CUDART_PTSZ(cudaGraphLaunch, (cudaGraphExec_t G, cudaStream_t Stream), G,
            perThread(Stream))
CUDART_PTSZ(cudaGraphUpload, (cudaGraphExec_t G, cudaStream_t Stream), G,
            perThread(Stream))
CUDART_PTSZ(cudaStreamAttachMemAsync,
            (cudaStream_t Stream, void *P, size_t N, unsigned F),
            perThread(Stream), P, N, F)
CUDART_PTSZ(cudaMemPrefetchAsync,
            (const void *P, size_t N, cudaMemLocation L, unsigned F,
             cudaStream_t Stream),
            P, N, L, F, perThread(Stream))
CUDART_PTSZ(cudaGetDriverEntryPoint,
            (const char *S, void **F, unsigned long long Flags,
             cudaDriverEntryPointQueryResult *R),
            S, F, Flags, R)
CUDART_PTSZ(cudaGetDriverEntryPointByVersion,
            (const char *S, void **F, unsigned V, unsigned long long Flags,
             cudaDriverEntryPointQueryResult *R),
            S, F, V, Flags, R)

CUDART_PTDS(cudaMemcpy, (void *D, const void *S, size_t N, cudaMemcpyKind K), D,
            S, N, K)
CUDART_PTDS(cudaMemcpy2D,
            (void *D, size_t DP, const void *S, size_t SP, size_t W, size_t H,
             cudaMemcpyKind K),
            D, DP, S, SP, W, H, K)
CUDART_PTDS(cudaMemcpy3D, (const cudaMemcpy3DParms *P), P)
CUDART_PTDS(cudaMemcpy3DPeer, (const cudaMemcpy3DPeerParms *P), P)
CUDART_PTDS(cudaMemcpy2DToArray,
            (cudaArray_t D, size_t X, size_t Y, const void *S, size_t SP,
             size_t W, size_t H, cudaMemcpyKind K),
            D, X, Y, S, SP, W, H, K)
CUDART_PTDS(cudaMemcpy2DFromArray,
            (void *D, size_t DP, cudaArray_const_t S, size_t X, size_t Y,
             size_t W, size_t H, cudaMemcpyKind K),
            D, DP, S, X, Y, W, H, K)
CUDART_PTDS(cudaMemcpyArrayToArray,
            (cudaArray_t D, size_t DX, size_t DY, cudaArray_const_t S,
             size_t SX, size_t SY, size_t N, cudaMemcpyKind K),
            D, DX, DY, S, SX, SY, N, K)
CUDART_PTDS(cudaMemcpy2DArrayToArray,
            (cudaArray_t D, size_t DX, size_t DY, cudaArray_const_t S,
             size_t SX, size_t SY, size_t W, size_t H, cudaMemcpyKind K),
            D, DX, DY, S, SX, SY, W, H, K)
CUDART_PTDS(cudaMemcpyToSymbol,
            (const void *Sym, const void *S, size_t N, size_t O,
             cudaMemcpyKind K),
            Sym, S, N, O, K)
CUDART_PTDS(cudaMemcpyFromSymbol,
            (void *D, const void *Sym, size_t N, size_t O, cudaMemcpyKind K), D,
            Sym, N, O, K)
CUDART_PTDS(cudaMemcpyToArray,
            (cudaArray_t D, size_t X, size_t Y, const void *S, size_t N,
             cudaMemcpyKind K),
            D, X, Y, S, N, K)
CUDART_PTDS(cudaMemcpyFromArray,
            (void *D, cudaArray_const_t S, size_t X, size_t Y, size_t N,
             cudaMemcpyKind K),
            D, S, X, Y, N, K)
CUDART_PTDS(cudaMemset, (void *D, int V, size_t N), D, V, N)
CUDART_PTDS(cudaMemset2D, (void *D, size_t P, int V, size_t W, size_t H), D, P,
            V, W, H)
CUDART_PTDS(cudaMemset3D, (cudaPitchedPtr P, int V, cudaExtent E), P, V, E)

// The upload stream is a field of the parameters, which the call also
// writes its results to: stream 0 there is mapped around the call.
cudaError_t CUDARTAPI
cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                                    cudaGraphInstantiateParams *Params) {
  if (!Params || Params->uploadStream)
    return cudaGraphInstantiateWithParams(Exec, Graph, Params);
  Params->uploadStream = cudaStreamPerThread;
  cudaError_t Result = cudaGraphInstantiateWithParams(Exec, Graph, Params);
  Params->uploadStream = nullptr;
  return Result;
}

} // extern "C"
