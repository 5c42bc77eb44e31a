// The shared-memory matrix multiplication of the CUDA C++ Programming Guide
// (§3.2.3, Shared Memory), as the guide writes it, made a whole program:
// host matrices, a CPU reference and a check. Built by cucc as one .cu file.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

// Matrices are stored in row-major order:
// M(row, col) = *(M.elements + row * M.stride + col)
typedef struct {
  int width;
  int height;
  int stride;
  float *elements;
} Matrix;

// Thread block size
#define BLOCK_SIZE 16

// Get a matrix element
__device__ float GetElement(const Matrix A, int row, int col) {
  return A.elements[row * A.stride + col];
}

// Set a matrix element
__device__ void SetElement(Matrix A, int row, int col, float value) {
  A.elements[row * A.stride + col] = value;
}

// The BLOCK_SIZE x BLOCK_SIZE sub-matrix Asub of A that is located col
// sub-matrices to the right and row sub-matrices down from the upper-left
// corner of A
__device__ Matrix GetSubMatrix(Matrix A, int row, int col) {
  Matrix Asub;
  Asub.width = BLOCK_SIZE;
  Asub.height = BLOCK_SIZE;
  Asub.stride = A.stride;
  Asub.elements = &A.elements[A.stride * BLOCK_SIZE * row + BLOCK_SIZE * col];
  return Asub;
}

// Matrix multiplication kernel called by MatMul()
__global__ void MatMulKernel(Matrix A, Matrix B, Matrix C) {
  int blockRow = blockIdx.y;
  int blockCol = blockIdx.x;
  // Each thread block computes one sub-matrix Csub of C
  Matrix Csub = GetSubMatrix(C, blockRow, blockCol);
  // Each thread computes one element of Csub by accumulating into Cvalue
  float Cvalue = 0;
  int row = threadIdx.y;
  int col = threadIdx.x;
  // Loop over all the sub-matrices of A and B that are required to
  // compute Csub; multiply each pair together and accumulate the results
  for (int m = 0; m < (A.width / BLOCK_SIZE); ++m) {
    Matrix Asub = GetSubMatrix(A, blockRow, m);
    Matrix Bsub = GetSubMatrix(B, m, blockCol);
    // Shared memory used to store Asub and Bsub respectively
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    // Each thread loads one element of each sub-matrix
    As[row][col] = GetElement(Asub, row, col);
    Bs[row][col] = GetElement(Bsub, row, col);
    // The sub-matrices are loaded before the computation starts
    __syncthreads();
    for (int e = 0; e < BLOCK_SIZE; ++e)
      Cvalue += As[row][e] * Bs[e][col];
    // The computation is done before the next two sub-matrices are loaded
    __syncthreads();
  }
  // Each thread writes one element
  SetElement(Csub, row, col, Cvalue);
}

// Matrix multiplication - host code. Matrix dimensions are assumed to be
// multiples of BLOCK_SIZE.
void MatMul(const Matrix A, const Matrix B, Matrix C) {
  // Load A and B to device memory
  Matrix d_A;
  d_A.width = d_A.stride = A.width;
  d_A.height = A.height;
  size_t size = A.width * A.height * sizeof(float);
  cudaMalloc(&d_A.elements, size);
  cudaMemcpy(d_A.elements, A.elements, size, cudaMemcpyHostToDevice);
  Matrix d_B;
  d_B.width = d_B.stride = B.width;
  d_B.height = B.height;
  size = B.width * B.height * sizeof(float);
  cudaMalloc(&d_B.elements, size);
  cudaMemcpy(d_B.elements, B.elements, size, cudaMemcpyHostToDevice);
  // Allocate C in device memory
  Matrix d_C;
  d_C.width = d_C.stride = C.width;
  d_C.height = C.height;
  size = C.width * C.height * sizeof(float);
  cudaMalloc(&d_C.elements, size);
  // Invoke kernel
  dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
  dim3 dimGrid(B.width / dimBlock.x, A.height / dimBlock.y);
  MatMulKernel<<<dimGrid, dimBlock>>>(d_A, d_B, d_C);
  // Read C from device memory
  cudaMemcpy(C.elements, d_C.elements, size, cudaMemcpyDeviceToHost);
  // Free device memory
  cudaFree(d_A.elements);
  cudaFree(d_B.elements);
  cudaFree(d_C.elements);
}

int main() {
  const int N = 8 * BLOCK_SIZE, K = 6 * BLOCK_SIZE, M = 5 * BLOCK_SIZE;
  std::vector<float> a(N * K), b(K * M), c(N * M, -1.0f);
  srand(7);
  for (float &v : a)
    v = float(rand() % 17 - 8) / 4;
  for (float &v : b)
    v = float(rand() % 13 - 6) / 2;
  Matrix A = {K, N, K, a.data()}, B = {M, K, M, b.data()},
         C = {M, N, M, c.data()};
  MatMul(A, B, C);
  if (cudaError_t E = cudaGetLastError()) {
    printf("matrixMulShared: %s\n", cudaGetErrorString(E));
    return 1;
  }
  // The products are exact in float (small multiples of 1/8), so the
  // device's sums equal the reference's whatever the order.
  int errors = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) {
      float ref = 0;
      for (int e = 0; e < K; ++e)
        ref += a[i * K + e] * b[e * M + j];
      if (c[i * M + j] != ref && ++errors <= 5)
        printf("C[%d][%d] = %g, expected %g\n", i, j, c[i * M + j], ref);
    }
  printf("matrixMulShared: %dx%d times %dx%d, %d mismatches\n", N, K, K, M,
         errors);
  if (errors)
    return 1;
  printf("PASSED\n");
  return 0;
}
