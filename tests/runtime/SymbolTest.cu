//===- SymbolTest.cu - __device__/__constant__ symbols -------------------===//

#include "RuntimeTest.h"

#include <vector>

using namespace curt;

__device__ int SymbolData[16];
__constant__ float SymbolTable[8];
__device__ int SymbolCounter;

/// Out[i] = SymbolTable[i] * 2 for the 8 constants.
__global__ void symbolReadConstants(float *Out) {
  Out[threadIdx.x] = SymbolTable[threadIdx.x] * 2.0f;
}

/// SymbolData[i] += i; SymbolCounter counts the threads.
__global__ void symbolUpdate() {
  SymbolData[threadIdx.x] += threadIdx.x;
  atomicAdd(&SymbolCounter, 1);
}

/// A host variable: not a symbol of any module.
static int HostOnlyVariable = 0;

using Symbol = RuntimeTest;

TEST_F(Symbol, ToAndFromDeviceVariable) {
  int In[16], Out[16] = {};
  for (int I = 0; I < 16; ++I)
    In[I] = 10 * I;
  EXPECT_CUDA(cudaSuccess, cudaMemcpyToSymbol(SymbolData, In, sizeof(In)))
      << "write the __device__ array";
  int Zero = 0;
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpyToSymbol(SymbolCounter, &Zero, sizeof(int)))
      << "clear the counter";
  symbolUpdate<<<1, 16>>>();
  EXPECT_CUDA(cudaSuccess, cudaGetLastError()) << "launch";
  EXPECT_CUDA(cudaSuccess, cudaMemcpyFromSymbol(Out, SymbolData, sizeof(Out)))
      << "read it back after the kernel (ordered on the default stream)";
  for (int I = 0; I < 16; ++I)
    EXPECT_EQ(11 * I, Out[I]) << "element " << I;
  int Count = 0;
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpyFromSymbol(&Count, SymbolCounter, sizeof(int)))
      << "the counter";
  EXPECT_EQ(16, Count) << "every thread counted";
}

TEST_F(Symbol, ConstantMemoryReadByKernel) {
  float Table[8];
  for (int I = 0; I < 8; ++I)
    Table[I] = 1.5f * I;
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpyToSymbol(SymbolTable, Table, sizeof(Table)))
      << "write the __constant__ table";
  float *D = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&D, 8 * sizeof(float))) << "output";
  symbolReadConstants<<<1, 8>>>(D);
  float Out[8] = {};
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy(Out, D, sizeof(Out), cudaMemcpyDeviceToHost))
      << "results";
  EXPECT_EQ(0.0f, Out[0]) << "2 * 0";
  EXPECT_EQ(21.0f, Out[7]) << "2 * 10.5";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Symbol, OffsetIntoTheSymbol) {
  int Fill[16] = {};
  ASSERT_CUDA(cudaSuccess, cudaMemcpyToSymbol(SymbolData, Fill, sizeof(Fill)))
      << "clear";
  int Two[2] = {7, 8};
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpyToSymbol(SymbolData, Two, sizeof(Two), 3 * sizeof(int)))
      << "the offset is in bytes from the symbol's start";
  int Out[16];
  EXPECT_CUDA(cudaSuccess, cudaMemcpyFromSymbol(Out, SymbolData, sizeof(Out)))
      << "read all";
  EXPECT_EQ(0, Out[2]) << "before the offset";
  EXPECT_EQ(7, Out[3]) << "at the offset";
  EXPECT_EQ(8, Out[4]) << "after it";
  EXPECT_EQ(0, Out[5]) << "past the copy";
  int Back = 0;
  EXPECT_CUDA(cudaSuccess, cudaMemcpyFromSymbol(&Back, SymbolData, sizeof(int),
                                                4 * sizeof(int)))
      << "read at an offset";
  EXPECT_EQ(8, Back) << "element 4";
}

TEST_F(Symbol, CopyPastTheEndRejected) {
  int Big[16] = {};
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaMemcpyToSymbol(SymbolData, Big, sizeof(Big), sizeof(int)))
      << "64 bytes at offset 4 overrun a 64-byte symbol";
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaMemcpyFromSymbol(Big, SymbolData, sizeof(Big) + 4))
      << "68 bytes from a 64-byte symbol";
  (void)cudaGetLastError();
}

TEST_F(Symbol, AddressAndSize) {
  void *P = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaGetSymbolAddress(&P, SymbolData))
      << "the device address of the symbol";
  EXPECT_NE(nullptr, P) << "a real address";
  size_t Size = 0;
  EXPECT_CUDA(cudaSuccess, cudaGetSymbolSize(&Size, SymbolData)) << "its size";
  EXPECT_EQ(16 * sizeof(int), Size) << "int[16]";
  EXPECT_CUDA(cudaSuccess, cudaGetSymbolSize(&Size, SymbolTable)) << "its size";
  EXPECT_EQ(8 * sizeof(float), Size) << "float[8]";
  int In[16];
  for (int I = 0; I < 16; ++I)
    In[I] = -I;
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy(P, In, sizeof(In), cudaMemcpyHostToDevice))
      << "the address is ordinary device memory";
  int Out[16] = {};
  EXPECT_CUDA(cudaSuccess, cudaMemcpyFromSymbol(Out, SymbolData, sizeof(Out)))
      << "read through the symbol";
  EXPECT_EQ(-15, Out[15]) << "the same memory";
  cudaPointerAttributes A{};
  EXPECT_CUDA(cudaSuccess, cudaPointerGetAttributes(&A, P)) << "attributes";
  EXPECT_EQ(cudaMemoryTypeDevice, A.type) << "a symbol lives in device memory";
}

TEST_F(Symbol, HostVariableIsNoSymbol) {
  void *P = nullptr;
  size_t Size = 0;
  EXPECT_CUDA(cudaErrorInvalidSymbol,
              cudaGetSymbolAddress(&P, HostOnlyVariable))
      << "a host variable is not a device symbol";
  EXPECT_CUDA(cudaErrorInvalidSymbol,
              cudaGetSymbolSize(&Size, HostOnlyVariable))
      << "a host variable is not a device symbol";
  int V = 1;
  EXPECT_CUDA(cudaErrorInvalidSymbol,
              cudaMemcpyToSymbol(HostOnlyVariable, &V, sizeof(int)))
      << "a host variable is not a device symbol";
  EXPECT_CUDA(cudaErrorInvalidSymbol, cudaGetLastError())
      << "the last error says so";
}

TEST_F(Symbol, DeviceToDeviceAndAsync) {
  int *D = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&D, 16 * sizeof(int))) << "buffer";
  ASSERT_CUDA(cudaSuccess, cudaMemset(D, 0, 16 * sizeof(int))) << "zeros";
  EXPECT_CUDA(cudaSuccess, cudaMemcpyToSymbol(SymbolData, D, 16 * sizeof(int),
                                              0, cudaMemcpyDeviceToDevice))
      << "from device memory";
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreate(&S)) << "a stream";
  int *H = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&H, 16 * sizeof(int))) << "pinned";
  for (int I = 0; I < 16; ++I)
    H[I] = I * I;
  EXPECT_CUDA(cudaSuccess, cudaMemcpyToSymbolAsync(
                               SymbolData, H, 8 * sizeof(int), 8 * sizeof(int),
                               cudaMemcpyHostToDevice, S))
      << "the upper half, asynchronously";
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpyFromSymbolAsync(H, SymbolData, 16 * sizeof(int), 0,
                                        cudaMemcpyDeviceToHost, S))
      << "read all back on the same stream";
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(S)) << "wait";
  EXPECT_EQ(0, H[7]) << "the lower half is the device copy's zeros";
  EXPECT_EQ(0, H[8]) << "the upper half got H[0..7]: 0*0";
  EXPECT_EQ(49, H[15]) << "7*7";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(H)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Symbol, WrongDirectionRejected) {
  int V = 0;
  EXPECT_CUDA(cudaErrorInvalidMemcpyDirection,
              cudaMemcpyToSymbol(SymbolData, &V, sizeof(int), 0,
                                 cudaMemcpyDeviceToHost))
      << "a copy to a symbol cannot go to the host";
  EXPECT_CUDA(cudaErrorInvalidMemcpyDirection,
              cudaMemcpyFromSymbol(&V, SymbolData, sizeof(int), 0,
                                   cudaMemcpyHostToDevice))
      << "a copy from a symbol cannot come from the host";
  (void)cudaGetLastError();
}
