//===- MemoryTest.cu - cudaMalloc*, cudaMemcpy*, cudaMemset*, pointers ----===//

#include "RuntimeTest.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <vector>

using namespace curt;

__global__ void memAddOne(int *Data, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] += 1;
}

using Memory = RuntimeTest;

static std::vector<int> iota(int N, int First = 0) {
  std::vector<int> V(N);
  std::iota(V.begin(), V.end(), First);
  return V;
}

TEST_F(Memory, MallocAndFree) {
  void *P = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&P, 1 << 20)) << "1 MiB";
  EXPECT_NE(nullptr, P) << "a real pointer";
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(P) % 256)
      << "cudaMalloc memory is aligned to at least 256 bytes";
  EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "free it";
}

TEST_F(Memory, MallocNullOutputRejected) {
  EXPECT_CUDA(cudaErrorInvalidValue, cudaMalloc(nullptr, 4))
      << "a null pointer is invalid";
  (void)cudaGetLastError();
}

TEST_F(Memory, MallocZeroBytes) {
  void *P = reinterpret_cast<void *>(0x1);
  EXPECT_CUDA(cudaSuccess, cudaMalloc(&P, 0))
      << "a zero-byte request succeeds in the runtime";
  EXPECT_EQ(nullptr, P) << "and gives the null pointer";
  EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "which may be freed";
}

TEST_F(Memory, MallocTooMuchFails) {
  void *P = nullptr;
  EXPECT_CUDA(cudaErrorMemoryAllocation, cudaMalloc(&P, size_t(1) << 50))
      << "a petabyte cannot be allocated";
  EXPECT_CUDA(cudaErrorMemoryAllocation, cudaGetLastError())
      << "the failure is the last error";
  EXPECT_CUDA(cudaSuccess, cudaGetLastError()) << "and not sticky: it clears";
  EXPECT_CUDA(cudaSuccess, cudaMalloc(&P, 64)) << "the device still works";
  EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "cleanup";
}

TEST_F(Memory, FreeNullIsANoOp) {
  EXPECT_CUDA(cudaSuccess, cudaFree(nullptr))
      << "cudaFree(0) is documented to do nothing";
}

TEST_F(Memory, DoubleFreeRejected) {
  void *P = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&P, 64)) << "an allocation";
  EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "free it";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaFree(P))
      << "the second free names no allocation";
  (void)cudaGetLastError();
}

TEST_F(Memory, FreeOfHostPointerRejected) {
  int Local = 0;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaFree(&Local))
      << "a stack address is not a device allocation";
  (void)cudaGetLastError();
}

TEST_F(Memory, MemcpyEveryKind) {
  const int N = 1000;
  std::vector<int> In = iota(N), Mid(N, -1), Out(N, -2);
  int *A = nullptr, *B = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&A, N * sizeof(int))) << "buffer A";
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&B, N * sizeof(int))) << "buffer B";
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy(A, In.data(), N * sizeof(int), cudaMemcpyHostToDevice))
      << "host to device";
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy(B, A, N * sizeof(int), cudaMemcpyDeviceToDevice))
      << "device to device";
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(Mid.data(), B, N * sizeof(int),
                                      cudaMemcpyDeviceToHost))
      << "device to host";
  EXPECT_EQ(In, Mid) << "the data made the round trip";
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(Out.data(), Mid.data(), N * sizeof(int),
                                      cudaMemcpyHostToHost))
      << "host to host";
  EXPECT_EQ(In, Out) << "a host-to-host copy copies";
  EXPECT_CUDA(cudaSuccess, cudaFree(A)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(B)) << "cleanup";
}

TEST_F(Memory, MemcpyDefaultInfersTheDirection) {
  const int N = 256;
  std::vector<int> In = iota(N, 7), Out(N, 0);
  int *A = nullptr, *B = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&A, N * sizeof(int))) << "buffer A";
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&B, N * sizeof(int))) << "buffer B";
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy(A, In.data(), N * sizeof(int), cudaMemcpyDefault))
      << "UVA: the runtime sees that the source is host memory";
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(B, A, N * sizeof(int), cudaMemcpyDefault))
      << "device to device by inference";
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy(Out.data(), B, N * sizeof(int), cudaMemcpyDefault))
      << "device to host by inference";
  EXPECT_EQ(In, Out) << "the data made the round trip";
  EXPECT_CUDA(cudaSuccess, cudaFree(A)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(B)) << "cleanup";
}

TEST_F(Memory, MemcpyInvalidKindRejected) {
  int *A = nullptr;
  int Host = 0;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&A, sizeof(int))) << "buffer";
  EXPECT_CUDA(cudaErrorInvalidMemcpyDirection,
              cudaMemcpy(A, &Host, sizeof(int), static_cast<cudaMemcpyKind>(7)))
      << "7 is no cudaMemcpyKind";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaFree(A)) << "cleanup";
}

TEST_F(Memory, MemcpyZeroBytesSucceeds) {
  int Host = 0;
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(&Host, &Host, 0, cudaMemcpyHostToHost))
      << "copying nothing succeeds";
}

TEST_F(Memory, MemcpyAfterKernelSeesItsResult) {
  const int N = 4096;
  std::vector<int> In = iota(N), Out(N);
  int *A = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&A, N * sizeof(int))) << "buffer";
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpy(A, In.data(), N * sizeof(int), cudaMemcpyHostToDevice))
      << "upload";
  memAddOne<<<(N + 255) / 256, 256>>>(A, N);
  EXPECT_CUDA(cudaSuccess, cudaGetLastError()) << "the launch is accepted";
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(Out.data(), A, N * sizeof(int),
                                      cudaMemcpyDeviceToHost))
      << "a synchronous copy waits for the kernel before it";
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(I + 1, Out[I]) << "element " << I << " was incremented";
  EXPECT_CUDA(cudaSuccess, cudaFree(A)) << "cleanup";
}

TEST_F(Memory, MemsetUsesTheLowByte) {
  const int N = 1000;
  unsigned char *A = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&A, N)) << "buffer";
  EXPECT_CUDA(cudaSuccess, cudaMemset(A, 0x1AB, N))
      << "the value is converted to unsigned char";
  std::vector<unsigned char> Out(N);
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(Out.data(), A, N, cudaMemcpyDeviceToHost))
      << "read back";
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(0xAB, Out[I]) << "byte " << I;
  EXPECT_CUDA(cudaSuccess, cudaMemset(A + 10, 0, 5)) << "a sub-range";
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(Out.data(), A, N, cudaMemcpyDeviceToHost))
      << "read back";
  EXPECT_EQ(0xAB, Out[9]) << "before the range";
  EXPECT_EQ(0, Out[10]) << "in the range";
  EXPECT_EQ(0, Out[14]) << "in the range";
  EXPECT_EQ(0xAB, Out[15]) << "after the range";
  EXPECT_CUDA(cudaSuccess, cudaFree(A)) << "cleanup";
}

TEST_F(Memory, MemsetOfNonDevicePointerRejected) {
  EXPECT_CUDA(cudaErrorInvalidValue, cudaMemset(nullptr, 0, 16))
      << "the null pointer is no device memory";
  (void)cudaGetLastError();
}

TEST_F(Memory, MallocPitchAndMemcpy2D) {
  const size_t W = 100, H = 37; // W bytes per row
  void *D = nullptr;
  size_t Pitch = 0;
  ASSERT_CUDA(cudaSuccess, cudaMallocPitch(&D, &Pitch, W, H)) << "2D buffer";
  EXPECT_GE(Pitch, W) << "a row fits in the pitch";
  int Align = 0;
  ASSERT_CUDA(cudaSuccess, cudaDeviceGetAttribute(
                               &Align, cudaDevAttrTexturePitchAlignment, 0))
      << "the pitch alignment";
  EXPECT_EQ(0u, Pitch % Align) << "rows are aligned for textures";
  report("cudaMallocPitch(100 bytes).pitch", Pitch);
  std::vector<unsigned char> In(W * H), Out(W * H, 0);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<unsigned char>(I * 7);
  EXPECT_CUDA(cudaSuccess, cudaMemcpy2D(D, Pitch, In.data(), W, W, H,
                                        cudaMemcpyHostToDevice))
      << "upload row by row";
  EXPECT_CUDA(cudaSuccess, cudaMemcpy2D(Out.data(), W, D, Pitch, W, H,
                                        cudaMemcpyDeviceToHost))
      << "download row by row";
  EXPECT_EQ(In, Out) << "the rows made the round trip";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Memory, Memcpy2DSubRectangle) {
  const size_t W = 16, H = 8;
  std::vector<unsigned char> Host(W * H, 0);
  void *D = nullptr;
  size_t Pitch = 0;
  ASSERT_CUDA(cudaSuccess, cudaMallocPitch(&D, &Pitch, W, H)) << "2D buffer";
  ASSERT_CUDA(cudaSuccess, cudaMemset2D(D, Pitch, 0, W, H)) << "clear";
  EXPECT_CUDA(cudaSuccess,
              cudaMemset2D(static_cast<char *>(D) + Pitch + 2, Pitch, 9, 3, 2))
      << "a 3x2 rectangle at (2, 1)";
  EXPECT_CUDA(cudaSuccess, cudaMemcpy2D(Host.data(), W, D, Pitch, W, H,
                                        cudaMemcpyDeviceToHost))
      << "download";
  int Nines = 0;
  for (unsigned char C : Host)
    Nines += C == 9;
  EXPECT_EQ(6, Nines) << "exactly the rectangle was set";
  EXPECT_EQ(9, Host[1 * W + 2]) << "its first byte";
  EXPECT_EQ(9, Host[2 * W + 4]) << "its last byte";
  EXPECT_EQ(0, Host[2 * W + 5]) << "right of it";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Memory, Memcpy2DWidthAbovePitchRejected) {
  void *D = nullptr;
  size_t Pitch = 0;
  ASSERT_CUDA(cudaSuccess, cudaMallocPitch(&D, &Pitch, 64, 4)) << "2D buffer";
  std::vector<unsigned char> Host(4096);
  EXPECT_CUDA(
      cudaErrorInvalidPitchValue,
      cudaMemcpy2D(Host.data(), 32, D, Pitch, 64, 4, cudaMemcpyDeviceToHost))
      << "a 64-byte row does not fit a 32-byte destination pitch";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Memory, Memcpy2DOfOneRowTakesAnyPitch) {
  // A pitch is checked only when there are rows between (expectations from
  // NVIDIA's runtime on an H200).
  const size_t W = 9 * sizeof(float4);
  std::vector<unsigned char> In(W), Out(W, 0);
  std::iota(In.begin(), In.end(), 1);
  void *D = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&D, W)) << "one row";
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy2D(D, 0, In.data(), 0, W, 1, cudaMemcpyHostToDevice))
      << "one row, both pitches 0";
  EXPECT_CUDA(cudaSuccess, cudaMemcpy2DAsync(Out.data(), 0, D, 4096, W, 1,
                                             cudaMemcpyDeviceToHost, 0))
      << "one row, destination pitch 0";
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "copies done";
  EXPECT_EQ(In, Out) << "the row arrived";
  EXPECT_CUDA(cudaErrorInvalidPitchValue,
              cudaMemcpy2D(D, 0, In.data(), 0, W, 2, cudaMemcpyHostToDevice))
      << "two rows need a pitch";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaErrorInvalidValue, cudaMemcpy2D(D, 100, In.data(), 100, W, 1,
                                                  cudaMemcpyHostToDevice))
      << "one row: a pitch other than 0 must hold the row";
  (void)cudaGetLastError();

  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float4>();
  cudaArray_t A = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocArray(&A, &Desc, 9, 2)) << "9 x 2 array";
  EXPECT_CUDA(cudaSuccess, cudaMemcpy2DToArray(A, 0, 0, In.data(), 0, W, 1,
                                               cudaMemcpyHostToDevice))
      << "one row into the array, pitch 0";
  std::fill(Out.begin(), Out.end(), 0);
  EXPECT_CUDA(cudaSuccess, cudaMemcpy2DFromArray(Out.data(), 0, A, 0, 0, W, 1,
                                                 cudaMemcpyDeviceToHost))
      << "one row out of the array, pitch 0";
  EXPECT_EQ(In, Out) << "the row came back";
  EXPECT_CUDA(
      cudaErrorInvalidPitchValue,
      cudaMemcpy2DToArray(A, 0, 0, In.data(), 0, W, 2, cudaMemcpyHostToDevice))
      << "two rows into the array need a pitch";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaMemcpy2DFromArray(Out.data(), 100, A, 0, 0, W, 1,
                                    cudaMemcpyDeviceToHost))
      << "one row out of the array: a pitch other than 0 must hold the row";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(A)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Memory, Malloc3DAndMemcpy3D) {
  const size_t W = 24, H = 5, Dp = 3; // W bytes per row
  cudaPitchedPtr Dev{};
  ASSERT_CUDA(cudaSuccess, cudaMalloc3D(&Dev, make_cudaExtent(W, H, Dp)))
      << "a 3D buffer";
  EXPECT_GE(Dev.pitch, W) << "a row fits in the pitch";
  EXPECT_EQ(W, Dev.xsize) << "xsize is the requested width";
  EXPECT_EQ(H, Dev.ysize) << "ysize is the requested height";
  std::vector<unsigned char> In(W * H * Dp), Out(W * H * Dp, 0);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<unsigned char>(I * 3 + 1);
  cudaMemcpy3DParms Up{};
  Up.srcPtr = make_cudaPitchedPtr(In.data(), W, W, H);
  Up.dstPtr = Dev;
  Up.extent = make_cudaExtent(W, H, Dp);
  Up.kind = cudaMemcpyHostToDevice;
  EXPECT_CUDA(cudaSuccess, cudaMemcpy3D(&Up)) << "upload the volume";
  cudaMemcpy3DParms Down{};
  Down.srcPtr = Dev;
  Down.dstPtr = make_cudaPitchedPtr(Out.data(), W, W, H);
  Down.extent = make_cudaExtent(W, H, Dp);
  Down.kind = cudaMemcpyDeviceToHost;
  EXPECT_CUDA(cudaSuccess, cudaMemcpy3D(&Down)) << "download it";
  EXPECT_EQ(In, Out) << "the volume made the round trip";
  EXPECT_CUDA(cudaSuccess, cudaMemset3D(Dev, 0x5A, make_cudaExtent(W, H, Dp)))
      << "fill the volume";
  EXPECT_CUDA(cudaSuccess, cudaMemcpy3D(&Down)) << "download it";
  EXPECT_EQ(std::vector<unsigned char>(W * H * Dp, 0x5A), Out)
      << "every byte was set";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev.ptr)) << "cleanup";
}

TEST_F(Memory, Memcpy3DNullParamsRejected) {
  EXPECT_CUDA(cudaErrorInvalidValue, cudaMemcpy3D(nullptr))
      << "the parameters are required";
  (void)cudaGetLastError();
}

TEST_F(Memory, MallocHostIsUsableByKernels) {
  const int N = 64;
  int *H = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&H, N * sizeof(int)))
      << "pinned host memory";
  for (int I = 0; I < N; ++I)
    H[I] = I;
  memAddOne<<<1, N>>>(H, N);
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize())
      << "with UVA pinned memory is mapped: kernels may use the host pointer";
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(I + 1, H[I]) << "element " << I;
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(H)) << "cleanup";
}

TEST_F(Memory, HostAllocMappedDevicePointer) {
  int *H = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaHostAlloc(&H, 32 * sizeof(int), cudaHostAllocMapped))
      << "mapped pinned memory";
  int *D = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaHostGetDevicePointer(&D, H, 0))
      << "its device address";
  EXPECT_EQ(H, D) << "with UVA, cudaHostAlloc memory has one address";
  for (int I = 0; I < 32; ++I)
    H[I] = 100 * I;
  memAddOne<<<1, 32>>>(D, 32);
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "run the kernel";
  EXPECT_EQ(101, H[1]) << "the kernel wrote host memory";
  unsigned Flags = 0;
  EXPECT_CUDA(cudaSuccess, cudaHostGetFlags(&Flags, H)) << "its flags";
  EXPECT_NE(0u, Flags & cudaHostAllocMapped) << "the mapped flag is kept";
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(H)) << "cleanup";
}

TEST_F(Memory, HostAllocUnknownFlagsRejected) {
  void *H = nullptr;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaHostAlloc(&H, 64, 0x100))
      << "no such flag";
  (void)cudaGetLastError();
}

TEST_F(Memory, FreeHostOfDevicePointerRejected) {
  void *D = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&D, 64)) << "device memory";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaFreeHost(D))
      << "cudaFreeHost takes pinned host memory only";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Memory, HostRegisterMakesMemoryUsable) {
  const size_t Size = 64 * 1024;
  int *H = static_cast<int *>(std::aligned_alloc(4096, Size));
  ASSERT_NE(nullptr, H);
  const int N = Size / sizeof(int);
  for (int I = 0; I < N; ++I)
    H[I] = I;
  ASSERT_CUDA(cudaSuccess, cudaHostRegister(H, Size, cudaHostRegisterMapped))
      << "pin and map malloc'd memory";
  int *D = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaHostGetDevicePointer(&D, H, 0))
      << "its device address";
  cudaPointerAttributes A{};
  EXPECT_CUDA(cudaSuccess, cudaPointerGetAttributes(&A, H)) << "attributes";
  EXPECT_EQ(cudaMemoryTypeHost, A.type) << "registered memory is host memory";
  memAddOne<<<(N + 255) / 256, 256>>>(D, N);
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "run the kernel";
  EXPECT_EQ(N, H[N - 1]) << "the kernel wrote the registered memory";
  EXPECT_CUDA(cudaSuccess, cudaHostUnregister(H)) << "unpin";
  EXPECT_CUDA(cudaSuccess, cudaPointerGetAttributes(&A, H)) << "attributes";
  EXPECT_EQ(cudaMemoryTypeUnregistered, A.type)
      << "after unregistering, plain host memory again";
  std::free(H);
}

TEST_F(Memory, HostRegisterTwiceAndUnregisterUnknownRejected) {
  const size_t Size = 8192;
  void *H = std::aligned_alloc(4096, Size);
  ASSERT_NE(nullptr, H);
  ASSERT_CUDA(cudaSuccess, cudaHostRegister(H, Size, cudaHostRegisterDefault))
      << "register once";
  EXPECT_CUDA(cudaErrorHostMemoryAlreadyRegistered,
              cudaHostRegister(H, Size, cudaHostRegisterDefault))
      << "the range is already registered";
  EXPECT_CUDA(cudaSuccess, cudaHostUnregister(H)) << "unregister";
  EXPECT_CUDA(cudaErrorHostMemoryNotRegistered, cudaHostUnregister(H))
      << "it is no longer registered";
  (void)cudaGetLastError();
  std::free(H);
}

TEST_F(Memory, ManagedMemoryHostAndKernel) {
  const int N = 1000;
  int *M = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&M, N * sizeof(int)))
      << "managed memory (cudaMemAttachGlobal)";
  for (int I = 0; I < N; ++I)
    M[I] = 2 * I;
  memAddOne<<<(N + 127) / 128, 128>>>(M, N);
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize())
      << "after a sync the host may touch managed memory again";
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(2 * I + 1, M[I]) << "element " << I;
  EXPECT_CUDA(cudaSuccess, cudaFree(M))
      << "managed memory is freed by cudaFree";
}

TEST_F(Memory, ManagedUnknownFlagsRejected) {
  void *M = nullptr;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaMallocManaged(&M, 64, 0))
      << "one of cudaMemAttachGlobal or cudaMemAttachHost is required";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaMallocManaged(&M, 64, 0x80))
      << "no such flag";
  (void)cudaGetLastError();
}

TEST_F(Memory, MemcpyAsyncAndMemsetAsyncOnAStream) {
  const int N = 2048;
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreate(&S)) << "a stream";
  int *H = nullptr, *D = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&H, N * sizeof(int))) << "pinned";
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&D, N * sizeof(int))) << "device";
  for (int I = 0; I < N; ++I)
    H[I] = I;
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpyAsync(D, H, N * sizeof(int), cudaMemcpyHostToDevice, S))
      << "upload on the stream";
  memAddOne<<<N / 256, 256, 0, S>>>(D, N);
  EXPECT_CUDA(cudaSuccess, cudaMemsetAsync(D, 0, 16 * sizeof(int), S))
      << "clear the first 16 elements after the kernel";
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpyAsync(H, D, N * sizeof(int), cudaMemcpyDeviceToHost, S))
      << "download on the stream";
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(S)) << "wait for all four";
  EXPECT_EQ(0, H[15]) << "the memset came after the kernel";
  EXPECT_EQ(17, H[16]) << "the kernel came after the upload";
  EXPECT_EQ(N, H[N - 1]) << "the download came last";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(H)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
}

TEST_F(Memory, PointerAttributesOfDeviceMemory) {
  char *D = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&D, 256)) << "device memory";
  cudaPointerAttributes A{};
  EXPECT_CUDA(cudaSuccess, cudaPointerGetAttributes(&A, D + 16))
      << "a pointer inside the allocation";
  EXPECT_EQ(cudaMemoryTypeDevice, A.type) << "device memory";
  EXPECT_EQ(0, A.device) << "of device 0";
  EXPECT_EQ(D + 16, A.devicePointer) << "its device address is itself";
  EXPECT_EQ(nullptr, A.hostPointer) << "the host cannot address it";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Memory, PointerAttributesOfPinnedHostMemory) {
  char *H = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&H, 256)) << "pinned memory";
  cudaPointerAttributes A{};
  EXPECT_CUDA(cudaSuccess, cudaPointerGetAttributes(&A, H)) << "attributes";
  EXPECT_EQ(cudaMemoryTypeHost, A.type) << "host memory";
  EXPECT_EQ(H, A.hostPointer) << "its host address";
  EXPECT_EQ(H, A.devicePointer) << "mapped at the same address (UVA)";
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(H)) << "cleanup";
}

TEST_F(Memory, PointerAttributesOfManagedMemory) {
  char *M = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&M, 256)) << "managed memory";
  cudaPointerAttributes A{};
  EXPECT_CUDA(cudaSuccess, cudaPointerGetAttributes(&A, M)) << "attributes";
  EXPECT_EQ(cudaMemoryTypeManaged, A.type) << "managed memory";
  EXPECT_EQ(M, A.hostPointer) << "one address for host";
  EXPECT_EQ(M, A.devicePointer) << "and device";
  EXPECT_CUDA(cudaSuccess, cudaFree(M)) << "cleanup";
}

TEST_F(Memory, PointerAttributesOfUnregisteredMemory) {
  int Local = 0;
  cudaPointerAttributes A{};
  EXPECT_CUDA(cudaSuccess, cudaPointerGetAttributes(&A, &Local))
      << "since CUDA 11 an unknown pointer is not an error";
  EXPECT_EQ(cudaMemoryTypeUnregistered, A.type) << "plain host memory";
  EXPECT_CUDA(cudaSuccess, cudaGetLastError()) << "nothing was recorded";
}

TEST_F(Memory, PointerAttributesNullOutputRejected) {
  int Local = 0;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaPointerGetAttributes(nullptr, &Local))
      << "the output pointer is required";
  (void)cudaGetLastError();
}

TEST_F(Memory, PoolsOfALocation) {
  cudaMemLocation Location{};
  Location.type = cudaMemLocationTypeDevice;
  Location.id = 0;
  cudaMemPool_t Default = nullptr, ByDevice = nullptr, Current = nullptr;
  EXPECT_CUDA(cudaSuccess,
              cudaMemGetDefaultMemPool(&Default, &Location,
                                       cudaMemAllocationTypePinned));
  EXPECT_CUDA(cudaSuccess, cudaDeviceGetDefaultMemPool(&ByDevice, 0));
  EXPECT_EQ(ByDevice, Default) << "device 0's default pool, either way";
  EXPECT_CUDA(cudaSuccess, cudaMemGetMemPool(&Current, &Location,
                                             cudaMemAllocationTypePinned));
  EXPECT_EQ(Default, Current) << "the default pool is current at first";

  cudaMemPoolProps Props{};
  Props.allocType = cudaMemAllocationTypePinned;
  Props.location = Location;
  cudaMemPool_t Mine = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMemPoolCreate(&Mine, &Props));
  EXPECT_CUDA(cudaSuccess,
              cudaMemSetMemPool(&Location, cudaMemAllocationTypePinned, Mine));
  EXPECT_CUDA(cudaSuccess, cudaDeviceGetMemPool(&Current, 0));
  EXPECT_EQ(Mine, Current) << "cudaMemSetMemPool made it device 0's pool";
  int *Data = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaMallocAsync(&Data, 256 * sizeof(int), nullptr))
      << "from the current pool";
  memAddOne<<<1, 256>>>(Data, 256);
  EXPECT_CUDA(cudaSuccess, cudaFreeAsync(Data, nullptr));
  EXPECT_CUDA(
      cudaSuccess,
      cudaMemSetMemPool(&Location, cudaMemAllocationTypePinned, Default));
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_CUDA(cudaSuccess, cudaMemPoolDestroy(Mine));

  Location.id = 1 << 20;
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaMemGetDefaultMemPool(&Default, &Location,
                                       cudaMemAllocationTypePinned))
      << "a location on a device that does not exist (observed on NVIDIA: "
         "a bad value, not a bad device)";
  (void)cudaGetLastError();
}
