//===- SurfaceTest.cu - Surface objects ----------------------------------===//
//
// cudaCreateSurfaceObject, cudaGetSurfaceObjectResourceDesc and
// cudaDestroySurfaceObject, and the CUDA 4 guide's surface copy (3.2.10.2)
// with surface objects. The answers to bad arguments are NVIDIA's runtime's
// on an H200.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTest.h"

#include <vector>

using namespace curt;

using Surface = RuntimeTest;

/// Copies a Width x Height uchar4 surface into another, element by element.
__global__ void surfaceCopy(cudaSurfaceObject_t In, cudaSurfaceObject_t Out,
                            int Width, int Height) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X < Width && Y < Height) {
    uchar4 Data;
    surf2Dread(&Data, In, X * 4, Y);
    surf2Dwrite(Data, Out, X * 4, Y);
  }
}

TEST_F(Surface, CopyKernelThroughObjects) {
  const int W = 16, H = 8;
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<uchar4>();
  cudaArray_t In = nullptr, Out = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaMallocArray(&In, &Desc, W, H, cudaArraySurfaceLoadStore));
  ASSERT_CUDA(cudaSuccess,
              cudaMallocArray(&Out, &Desc, W, H, cudaArraySurfaceLoadStore));
  std::vector<unsigned char> Host(W * H * 4);
  for (size_t I = 0; I < Host.size(); ++I)
    Host[I] = (unsigned char)(I * 7 + 3);
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpy2DToArray(In, 0, 0, Host.data(), W * 4, W * 4, H,
                                  cudaMemcpyHostToDevice));
  cudaResourceDesc R{};
  R.resType = cudaResourceTypeArray;
  R.res.array.array = In;
  cudaSurfaceObject_t InObject = 0, OutObject = 0;
  ASSERT_CUDA(cudaSuccess, cudaCreateSurfaceObject(&InObject, &R));
  R.res.array.array = Out;
  ASSERT_CUDA(cudaSuccess, cudaCreateSurfaceObject(&OutObject, &R));
  dim3 Block(8, 8), Grid((W + 7) / 8, (H + 7) / 8);
  surfaceCopy<<<Grid, Block>>>(InObject, OutObject, W, H);
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize());
  std::vector<unsigned char> Back(Host.size());
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpy2DFromArray(Back.data(), W * 4, Out, 0, 0, W * 4, H,
                                    cudaMemcpyDeviceToHost));
  EXPECT_EQ(Host, Back) << "the copy through surfaces is exact";
  cudaResourceDesc Got{};
  ASSERT_CUDA(cudaSuccess, cudaGetSurfaceObjectResourceDesc(&Got, OutObject));
  EXPECT_EQ(cudaResourceTypeArray, Got.resType);
  EXPECT_EQ(Out, Got.res.array.array);
  EXPECT_CUDA(cudaSuccess, cudaDestroySurfaceObject(InObject));
  EXPECT_CUDA(cudaSuccess, cudaDestroySurfaceObject(OutObject));
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(In));
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(Out));
}

TEST_F(Surface, CreateChecksItsArguments) {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<uchar4>();
  cudaArray_t A = nullptr, Plain = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaMallocArray(&A, &Desc, 8, 4, cudaArraySurfaceLoadStore));
  ASSERT_CUDA(cudaSuccess, cudaMallocArray(&Plain, &Desc, 8, 4));
  cudaResourceDesc R{};
  R.resType = cudaResourceTypeArray;
  R.res.array.array = A;
  cudaSurfaceObject_t O = 0;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaCreateSurfaceObject(nullptr, &R))
      << "a null result pointer";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaCreateSurfaceObject(&O, nullptr))
      << "a null resource description";
  cudaResourceDesc NoArray{};
  NoArray.resType = cudaResourceTypeArray;
  EXPECT_CUDA(cudaErrorInvalidResourceHandle,
              cudaCreateSurfaceObject(&O, &NoArray))
      << "a null array";
  void *P = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&P, 4096));
  cudaResourceDesc Linear{};
  Linear.resType = cudaResourceTypeLinear;
  Linear.res.linear.devPtr = P;
  Linear.res.linear.desc = Desc;
  Linear.res.linear.sizeInBytes = 4096;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaCreateSurfaceObject(&O, &Linear))
      << "linear memory has no surface";
  cudaResourceDesc PlainR{};
  PlainR.resType = cudaResourceTypeArray;
  PlainR.res.array.array = Plain;
  EXPECT_CUDA(cudaSuccess, cudaCreateSurfaceObject(&O, &PlainR))
      << "an array without cudaArraySurfaceLoadStore takes a surface object";
  EXPECT_CUDA(cudaSuccess, cudaDestroySurfaceObject(O));
  EXPECT_CUDA(cudaSuccess, cudaFree(P));
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(A));
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(Plain));
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGetLastError())
      << "the last failure above is the last error";
}

TEST_F(Surface, ResourceDescAndDestroyOfNoObject) {
  cudaResourceDesc Got{};
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGetSurfaceObjectResourceDesc(&Got, 0))
      << "handle 0 is no surface object";
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaArray_t A = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaMallocArray(&A, &Desc, 8, 4, cudaArraySurfaceLoadStore));
  cudaResourceDesc R{};
  R.resType = cudaResourceTypeArray;
  R.res.array.array = A;
  cudaSurfaceObject_t O = 0;
  ASSERT_CUDA(cudaSuccess, cudaCreateSurfaceObject(&O, &R));
  EXPECT_CUDA(cudaErrorInvalidDevice,
              cudaGetSurfaceObjectResourceDesc(nullptr, O))
      << "NVIDIA's runtime answers a null result pointer so";
  EXPECT_CUDA(cudaSuccess, cudaDestroySurfaceObject(O));
  EXPECT_CUDA(cudaSuccess, cudaDestroySurfaceObject(0))
      << "destroying handle 0 does nothing";
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(A));
  EXPECT_CUDA(cudaErrorInvalidDevice, cudaGetLastError())
      << "the last failure above is the last error";
}
