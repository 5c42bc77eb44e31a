// saxpy(): Y = A * X + Y on the device, launched from saxpy.cu.
#ifndef CUCPU_TESTS_INSTALL_SAXPY_H
#define CUCPU_TESTS_INSTALL_SAXPY_H

#include <cuda_runtime.h>

cudaError_t saxpy(int N, float A, const float *X, float *Y);

#endif // CUCPU_TESTS_INSTALL_SAXPY_H
