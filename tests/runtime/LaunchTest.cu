//===- LaunchTest.cu - <<<>>>, cudaLaunchKernel, function attributes -----===//

#include "RuntimeTest.h"

#include <unistd.h>
#include <vector>

using namespace curt;

/// Out[global linear thread id] = that id, for any grid and block shape.
__global__ void launchWriteIds(int *Out) {
  int Block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int Thread =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int PerBlock = blockDim.x * blockDim.y * blockDim.z;
  Out[Block * PerBlock + Thread] = Block * PerBlock + Thread;
}

/// Reverses each block's slice of Data through dynamic shared memory.
__global__ void launchReverseDynamic(int *Data) {
  extern __shared__ int Buffer[];
  int Base = blockIdx.x * blockDim.x;
  Buffer[threadIdx.x] = Data[Base + threadIdx.x];
  __syncthreads();
  Data[Base + threadIdx.x] = Buffer[blockDim.x - 1 - threadIdx.x];
}

/// Reverses a 256-element block through a static shared array of 1 KiB.
__global__ void launchReverseStatic(float *Data) {
  __shared__ float Tile[256];
  Tile[threadIdx.x] = Data[threadIdx.x];
  __syncthreads();
  Data[threadIdx.x] = Tile[255 - threadIdx.x];
}

template <typename T> __global__ void launchScale(T *Data, T Factor, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] *= Factor;
}

/// A parameter struct with mixed alignment, passed by value.
struct LaunchParams {
  char Tag;
  double Scale;
  int Counts[3];
  float2 Offset;
  short Last;
};

__global__ void launchTakeStruct(LaunchParams P, double *Out) {
  Out[0] = P.Tag;
  Out[1] = P.Scale;
  Out[2] = P.Counts[0] + P.Counts[1] + P.Counts[2];
  Out[3] = P.Offset.x;
  Out[4] = P.Offset.y;
  Out[5] = P.Last;
}

/// Many scalar parameters of different sizes.
__global__ void launchManyArgs(long long *Out, char A, short B, int C,
                               long long D, float E, double F,
                               unsigned char G) {
  Out[0] =
      A + B + C + D + static_cast<long long>(E) + static_cast<long long>(F) + G;
}

__global__ void launchIncrement(int *Counter) { *Counter += 1; }

__global__ void __launch_bounds__(128) launchBounded(int *Out) {
  Out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ void launchPrintf() {
  printf("hello from block %d thread %d\n", static_cast<int>(blockIdx.x),
         static_cast<int>(threadIdx.x));
}

/// A host function: not a kernel.
void launchHostOnly() {}

using Launch = RuntimeTest;

/// Launches launchWriteIds over Grid x Block and checks every id was written.
static void checkIds(dim3 Grid, dim3 Block) {
  const int N = Grid.x * Grid.y * Grid.z * Block.x * Block.y * Block.z;
  int *D = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&D, N * sizeof(int))) << "output";
  ASSERT_CUDA(cudaSuccess, cudaMemset(D, 0xFF, N * sizeof(int))) << "poison";
  launchWriteIds<<<Grid, Block>>>(D);
  EXPECT_CUDA(cudaSuccess, cudaGetLastError()) << "the launch is accepted";
  std::vector<int> Out(N);
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(Out.data(), D, N * sizeof(int),
                                      cudaMemcpyDeviceToHost))
      << "results";
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(I, Out[I]) << "thread " << I << " of " << N << " ran once";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Launch, OneDimensionalGrid) { checkIds(dim3(40), dim3(256)); }

TEST_F(Launch, TwoDimensionalGrid) { checkIds(dim3(7, 5), dim3(16, 8)); }

TEST_F(Launch, ThreeDimensionalGrid) { checkIds(dim3(3, 4, 5), dim3(2, 3, 4)); }

TEST_F(Launch, LargestBlock) { checkIds(dim3(2), dim3(1024)); }

TEST_F(Launch, DynamicSharedMemory) {
  const int Blocks = 4, Threads = 256, N = Blocks * Threads;
  std::vector<int> In(N), Out(N);
  for (int I = 0; I < N; ++I)
    In[I] = I;
  int *D = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&D, N * sizeof(int))) << "buffer";
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpy(D, In.data(), N * sizeof(int), cudaMemcpyHostToDevice))
      << "upload";
  launchReverseDynamic<<<Blocks, Threads, Threads * sizeof(int)>>>(D);
  EXPECT_CUDA(cudaSuccess, cudaGetLastError()) << "1 KiB of dynamic shared";
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(Out.data(), D, N * sizeof(int),
                                      cudaMemcpyDeviceToHost))
      << "results";
  EXPECT_EQ(255, Out[0]) << "block 0 reversed";
  EXPECT_EQ(256 + 255, Out[256]) << "block 1 reversed its own slice";
  EXPECT_EQ(N - Threads, Out[N - 1]) << "the last block reversed";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Launch, StaticSharedMemory) {
  std::vector<float> In(256), Out(256);
  for (int I = 0; I < 256; ++I)
    In[I] = I * 0.25f;
  float *D = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&D, 256 * sizeof(float))) << "buffer";
  ASSERT_CUDA(cudaSuccess, cudaMemcpy(D, In.data(), 256 * sizeof(float),
                                      cudaMemcpyHostToDevice))
      << "upload";
  launchReverseStatic<<<1, 256>>>(D);
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(Out.data(), D, 256 * sizeof(float),
                                      cudaMemcpyDeviceToHost))
      << "results";
  EXPECT_EQ(In[255], Out[0]) << "reversed";
  EXPECT_EQ(In[0], Out[255]) << "reversed";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Launch, OnAStream) {
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreate(&S)) << "a stream";
  int *Counter = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Counter, sizeof(int)))
      << "a counter";
  *Counter = 0;
  for (int I = 0; I < 50; ++I)
    launchIncrement<<<1, 1, 0, S>>>(Counter);
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(S))
      << "the stream's launches ran";
  EXPECT_EQ(50, *Counter) << "one after another, in order";
  EXPECT_CUDA(cudaSuccess, cudaFree(Counter)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
}

TEST_F(Launch, TemplateKernels) {
  int *I = nullptr;
  double *F = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&I, 10 * sizeof(int))) << "ints";
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&F, 10 * sizeof(double)))
      << "doubles";
  for (int K = 0; K < 10; ++K) {
    I[K] = K;
    F[K] = K + 0.5;
  }
  launchScale<int><<<1, 32>>>(I, 3, 10);
  launchScale<<<1, 32>>>(F, 2.0, 10);
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "both instances ran";
  EXPECT_EQ(27, I[9]) << "the int instance";
  EXPECT_EQ(19.0, F[9]) << "the double instance";
  EXPECT_CUDA(cudaSuccess, cudaFree(I)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(F)) << "cleanup";
}

TEST_F(Launch, StructByValue) {
  double *Out = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Out, 6 * sizeof(double)))
      << "output";
  LaunchParams P{};
  P.Tag = 'A';
  P.Scale = 2.75;
  P.Counts[0] = 1;
  P.Counts[1] = 20;
  P.Counts[2] = 300;
  P.Offset = make_float2(-1.5f, 4.25f);
  P.Last = -7;
  launchTakeStruct<<<1, 1>>>(P, Out);
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "run";
  EXPECT_EQ(65.0, Out[0]) << "char member";
  EXPECT_EQ(2.75, Out[1]) << "double member after padding";
  EXPECT_EQ(321.0, Out[2]) << "array member";
  EXPECT_EQ(-1.5, Out[3]) << "float2 member";
  EXPECT_EQ(4.25, Out[4]) << "float2 member";
  EXPECT_EQ(-7.0, Out[5]) << "trailing short";
  EXPECT_CUDA(cudaSuccess, cudaFree(Out)) << "cleanup";
}

TEST_F(Launch, ManyScalarArguments) {
  long long *Out = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Out, sizeof(long long)))
      << "output";
  launchManyArgs<<<1, 1>>>(Out, 1, 20, 300, 4000000000LL, 5.0f, 60.0, 200);
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "run";
  EXPECT_EQ(1 + 20 + 300 + 4000000000LL + 5 + 60 + 200, *Out)
      << "each argument arrived at its offset";
  EXPECT_CUDA(cudaSuccess, cudaFree(Out)) << "cleanup";
}

TEST_F(Launch, DefaultStreamIsOrdered) {
  int *Counter = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Counter, sizeof(int))) << "counter";
  ASSERT_CUDA(cudaSuccess, cudaMemset(Counter, 0, sizeof(int))) << "zero";
  for (int I = 0; I < 100; ++I)
    launchIncrement<<<1, 1>>>(Counter);
  int Host = 0;
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy(&Host, Counter, sizeof(int), cudaMemcpyDeviceToHost))
      << "the copy follows the launches";
  EXPECT_EQ(100, Host) << "every launch ran, one after another";
  EXPECT_CUDA(cudaSuccess, cudaFree(Counter)) << "cleanup";
}

TEST_F(Launch, LaunchKernelDirectly) {
  int *D = nullptr;
  const int N = 64;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&D, N * sizeof(int))) << "data";
  for (int I = 0; I < N; ++I)
    D[I] = I;
  int Factor = 5;
  void *Args[] = {&D, &Factor, const_cast<int *>(&N)};
  EXPECT_CUDA(
      cudaSuccess,
      cudaLaunchKernel(reinterpret_cast<const void *>(&launchScale<int>),
                       dim3(2), dim3(32), Args, 0, nullptr))
      << "cudaLaunchKernel takes an array of argument pointers";
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "run";
  EXPECT_EQ(5 * 63, D[63]) << "the kernel saw its arguments";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Launch, LaunchKernelChecksConfiguration) {
  int *D = nullptr;
  void *Args[] = {&D};
  EXPECT_CUDA(BadLaunchConfiguration,
              cudaLaunchKernel(reinterpret_cast<const void *>(&launchWriteIds),
                               dim3(1), dim3(4096), Args, 0, nullptr))
      << "4096 threads per block";
  EXPECT_CUDA(BadLaunchConfiguration, cudaGetLastError())
      << "the last error too";
}

TEST_F(Launch, LaunchOfAHostFunctionRejected) {
  EXPECT_CUDA(cudaErrorInvalidResourceHandle,
              cudaLaunchKernel(reinterpret_cast<const void *>(&launchHostOnly),
                               dim3(1), dim3(1), nullptr, 0, nullptr))
      << "a host function is no kernel; observed on NVIDIA: since CUDA 12 "
         "the pointer may also be a cudaKernel_t, so it is an unknown handle";
  (void)cudaGetLastError();
}

TEST_F(Launch, FuncGetAttributesOfStaticShared) {
  cudaFuncAttributes A{};
  ASSERT_CUDA(cudaSuccess, cudaFuncGetAttributes(&A, launchReverseStatic))
      << "attributes of a kernel";
  EXPECT_EQ(256 * sizeof(float), A.sharedSizeBytes)
      << "the static __shared__ float[256]";
  EXPECT_GT(A.maxThreadsPerBlock, 0) << "some block size can run it";
  EXPECT_LE(A.maxThreadsPerBlock, 1024) << "no more than the device's limit";
  report("cudaFuncAttributes.maxDynamicSharedSizeBytes(1 KiB static)",
         A.maxDynamicSharedSizeBytes);
  report("cudaFuncAttributes.binaryVersion", A.binaryVersion);
  report("cudaFuncAttributes.ptxVersion", A.ptxVersion);
}

TEST_F(Launch, FuncGetAttributesWithoutShared) {
  cudaFuncAttributes A{};
  ASSERT_CUDA(cudaSuccess, cudaFuncGetAttributes(&A, launchIncrement))
      << "attributes of a kernel";
  EXPECT_EQ(0u, A.sharedSizeBytes) << "no static shared memory";
  EXPECT_EQ(1024, A.maxThreadsPerBlock)
      << "a tiny kernel runs at the device's limit";
  EXPECT_EQ(0u, A.localSizeBytes) << "no local memory";
}

TEST_F(Launch, FuncGetAttributesRespectsLaunchBounds) {
  cudaFuncAttributes A{};
  ASSERT_CUDA(cudaSuccess, cudaFuncGetAttributes(&A, launchBounded))
      << "attributes of a bounded kernel";
  EXPECT_EQ(128, A.maxThreadsPerBlock) << "__launch_bounds__(128)";
}

TEST_F(Launch, LaunchAboveLaunchBoundsRejected) {
  int *D = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&D, 256 * sizeof(int))) << "output";
  launchBounded<<<1, 256>>>(D);
  EXPECT_CUDA(BadLaunchConfiguration, cudaGetLastError())
      << "256 threads exceed the kernel's __launch_bounds__(128)";
  launchBounded<<<2, 128>>>(D);
  EXPECT_CUDA(cudaSuccess, cudaGetLastError()) << "128 threads are fine";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Launch, FuncGetAttributesOfAHostFunctionRejected) {
  cudaFuncAttributes A{};
  EXPECT_CUDA(cudaErrorInvalidResourceHandle,
              cudaFuncGetAttributes(&A, launchHostOnly))
      << "a host function is no kernel (observed on NVIDIA: an unknown "
         "handle, as for cudaLaunchKernel)";
  (void)cudaGetLastError();
}

TEST_F(Launch, OccupancyLimitedByThreads) {
  cudaDeviceProp P;
  ASSERT_CUDA(cudaSuccess, cudaGetDeviceProperties(&P, 0)) << "device 0";
  int Blocks = -1;
  EXPECT_CUDA(cudaSuccess, cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                               &Blocks, launchIncrement, 128, 0))
      << "occupancy of a tiny kernel";
  int Expected = P.maxThreadsPerMultiProcessor / 128;
  if (Expected > P.maxBlocksPerMultiProcessor)
    Expected = P.maxBlocksPerMultiProcessor;
  EXPECT_EQ(Expected, Blocks)
      << "only the thread and block limits of a multiprocessor apply";
}

TEST_F(Launch, OccupancyLimitedBySharedMemory) {
  cudaDeviceProp P;
  ASSERT_CUDA(cudaSuccess, cudaGetDeviceProperties(&P, 0)) << "device 0";
  const size_t Dynamic = 40 * 1024;
  int Blocks = -1;
  EXPECT_CUDA(cudaSuccess, cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                               &Blocks, launchReverseDynamic, 32, Dynamic))
      << "occupancy with 40 KiB of dynamic shared memory";
  EXPECT_EQ(int(P.sharedMemPerMultiprocessor /
                (Dynamic + P.reservedSharedMemPerBlock)),
            Blocks)
      << "each block takes its shared memory plus the reserved part";
}

TEST_F(Launch, OccupancyIgnoresLaunchBounds) {
  cudaDeviceProp P;
  ASSERT_CUDA(cudaSuccess, cudaGetDeviceProperties(&P, 0)) << "device 0";
  int Blocks = -1;
  EXPECT_CUDA(cudaSuccess, cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                               &Blocks, launchBounded, 256, 0))
      << "a block size above the kernel's bound is not an error";
  EXPECT_EQ(P.maxThreadsPerMultiProcessor / 256, Blocks)
      << "observed on NVIDIA: the calculator does not check the block size "
         "against __launch_bounds__, though such a launch fails";
}

TEST_F(Launch, MaxPotentialBlockSize) {
  int MinGrid = -1, Block = -1;
  EXPECT_CUDA(cudaSuccess, cudaOccupancyMaxPotentialBlockSize(
                               &MinGrid, &Block, launchIncrement, 0, 0))
      << "the best block size";
  EXPECT_GT(Block, 0) << "some block size";
  EXPECT_LE(Block, 1024) << "within the device's limit";
  EXPECT_EQ(0, Block % 32) << "a whole number of warps";
  int PerSm = 0;
  ASSERT_CUDA(cudaSuccess, cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                               &PerSm, launchIncrement, Block, 0))
      << "blocks per multiprocessor at that size";
  int Sms = 0;
  ASSERT_CUDA(cudaSuccess,
              cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0))
      << "multiprocessors";
  EXPECT_EQ(PerSm * Sms, MinGrid)
      << "the minimum grid fills every multiprocessor";
  report("cudaOccupancyMaxPotentialBlockSize.block", Block);
}

TEST_F(Launch, MaxPotentialBlockSizeRespectsLaunchBounds) {
  int MinGrid = -1, Block = -1;
  EXPECT_CUDA(cudaSuccess, cudaOccupancyMaxPotentialBlockSize(
                               &MinGrid, &Block, launchBounded, 0, 0))
      << "the best block size of a bounded kernel";
  EXPECT_GT(Block, 0) << "some block size";
  EXPECT_LE(Block, 128) << "never above __launch_bounds__(128)";
}

static void printfInChild() {
  dup2(2, 1); // Device printf writes to stdout; the parent reads stderr.
  launchPrintf<<<2, 2>>>();
  childCheck(cudaDeviceSynchronize() == cudaSuccess, 2,
             "the printing kernel runs");
  std::fflush(stdout);
  std::_Exit(0);
}

TEST(LaunchChild, DevicePrintf) {
  useFreshChildProcesses();
  EXPECT_EXIT(printfInChild(), ::testing::ExitedWithCode(0),
              "hello from block 1 thread 1")
      << "the output of device printf appears by the synchronization";
}

/// An allocator the compiler may not inline: clang marks it allocsize, an
/// attribute that names its size parameter by position.
__device__ __attribute__((noinline, alloc_size(1))) void *
launchAllocate(size_t Bytes) {
  return malloc(Bytes);
}

/// An abstract class in device code: its vtable names __cxa_pure_virtual.
struct LaunchShape {
  __device__ virtual ~LaunchShape() {}
  __device__ virtual int sides() const = 0;
};
struct LaunchTriangle : LaunchShape {
  __device__ int sides() const override { return 3; }
};

__global__ void launchAllocateAndCall(int *Out) {
  int *P = static_cast<int *>(launchAllocate(sizeof(int)));
  *P = 7;
  LaunchShape *S = new LaunchTriangle;
  Out[0] = *P;
  Out[1] = S->sides();
  delete S;
  free(P);
}

TEST_F(Launch, DeviceAllocationAndVirtualCalls) {
  int *Out = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Out, 2 * sizeof(int)))
      << "result words";
  launchAllocateAndCall<<<1, 1>>>(Out);
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize())
      << "device malloc, new and a virtual call";
  EXPECT_EQ(7, Out[0]) << "through a non-inlined allocator";
  EXPECT_EQ(3, Out[1]) << "through the vtable of an abstract class";
  EXPECT_CUDA(cudaSuccess, cudaFree(Out)) << "cleanup";
}

/// 8 KB of parameters: more than CUDA's old 4 KB limit, within the 32,764
/// bytes of CUDA 12.1 and later (compute capability 7.0 and up).
struct LaunchLargeParameters {
  int Values[2048];
};

__global__ void launchSumLarge(LaunchLargeParameters P, long long *Out) {
  long long Sum = 0;
  for (int I = 0; I < 2048; ++I)
    Sum += P.Values[I];
  *Out = Sum;
}

TEST_F(Launch, ParametersLargerThanFourKilobytes) {
  LaunchLargeParameters P;
  for (int I = 0; I < 2048; ++I)
    P.Values[I] = I;
  long long *Out = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Out, sizeof(long long)))
      << "the result";
  *Out = 0;
  launchSumLarge<<<1, 1>>>(P, Out);
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize())
      << "8 KB of parameters are allowed";
  EXPECT_EQ(2047LL * 2048 / 2, *Out) << "every parameter byte arrives";
  EXPECT_CUDA(cudaSuccess, cudaFree(Out)) << "cleanup";
}
