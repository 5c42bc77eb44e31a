//===- ManagedTest.cu - __managed__ variables shared by host and kernels --===//
//
// "A __managed__ variable ... can be referenced from both device and host
// code" (CUDA C++ Programming Guide, Unified Memory): host code and kernels
// see one variable, its initializer included.
//
//===----------------------------------------------------------------------===//
#include "RuntimeTest.h"

using namespace curt;

__managed__ int Counters[4];
__managed__ float Scale = 2.5f;
__managed__ int Initialized = 42;
__managed__ int WrittenByKernelFirst;
__managed__ int ForSymbolCopies[2];

__global__ void addScaledIndex() {
  Counters[threadIdx.x] += static_cast<int>(threadIdx.x * Scale);
}

__global__ void readInitialized(int *Out) { *Out = Initialized; }

__global__ void writeFirst(int Value) { WrittenByKernelFirst = Value; }

__global__ void readPair(int *Out) {
  Out[0] = ForSymbolCopies[0];
  Out[1] = ForSymbolCopies[1];
}

using Managed = RuntimeTest;

TEST_F(Managed, HostWritesKernelUpdatesHostReads) {
  Counters[0] = 5;
  int *Second = &Counters[1];
  *Second = 3;
  addScaledIndex<<<1, 4>>>();
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "the kernel ran";
  EXPECT_EQ(5, Counters[0]) << "index 0 adds nothing";
  EXPECT_EQ(5, Counters[1]) << "3 + 1 * 2.5, truncated";
  EXPECT_EQ(5, Counters[2]) << "0 + 2 * 2.5";
  EXPECT_EQ(7, Counters[3]) << "0 + 3 * 2.5, truncated";
  Scale = 10;
  addScaledIndex<<<1, 4>>>();
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "the kernel ran";
  EXPECT_EQ(15, Counters[1]) << "the kernel sees the host's new scale";
  EXPECT_EQ(37, Counters[3]) << "7 + 3 * 10";
}

TEST_F(Managed, InitializerSeenByHostAndKernel) {
  EXPECT_EQ(42, Initialized) << "the host reads the variable's initializer";
  int *Out = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Out, sizeof(int)))
      << "a result word";
  *Out = 0;
  readInitialized<<<1, 1>>>(Out);
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "the kernel ran";
  EXPECT_EQ(42, *Out) << "so does the kernel";
  EXPECT_CUDA(cudaSuccess, cudaFree(Out)) << "cleanup";
}

TEST_F(Managed, KernelWritesBeforeTheHostLooks) {
  writeFirst<<<1, 1>>>(1234);
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "the kernel ran";
  EXPECT_EQ(1234, WrittenByKernelFirst)
      << "the host's first access sees the kernel's write";
}

TEST_F(Managed, SymbolCopiesReachTheSameVariable) {
  int Values[2] = {17, -4};
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpyToSymbol(ForSymbolCopies, Values, sizeof(Values)))
      << "a managed variable is a symbol";
  EXPECT_EQ(17, ForSymbolCopies[0]) << "the host sees the copy";
  EXPECT_EQ(-4, ForSymbolCopies[1]) << "the host sees the copy";
  ForSymbolCopies[1] = 99;
  int *Out = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Out, 2 * sizeof(int)))
      << "result words";
  readPair<<<1, 1>>>(Out);
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "the kernel ran";
  EXPECT_EQ(17, Out[0]) << "the kernel sees the copy";
  EXPECT_EQ(99, Out[1]) << "and the host's write";
  int Back[2] = {};
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpyFromSymbol(Back, ForSymbolCopies, sizeof(Back)))
      << "copy back";
  EXPECT_EQ(99, Back[1]) << "the symbol is the host's variable";
  size_t Size = 0;
  EXPECT_CUDA(cudaSuccess, cudaGetSymbolSize(&Size, ForSymbolCopies))
      << "its size";
  EXPECT_EQ(2 * sizeof(int), Size) << "two ints";
  EXPECT_CUDA(cudaSuccess, cudaFree(Out)) << "cleanup";
}
