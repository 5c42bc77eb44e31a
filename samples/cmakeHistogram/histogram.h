// The device part of cmakeHistogram, called from host C++ (main.cpp).
#pragma once

#include <cuda_runtime.h>

/// Counts the bytes of Data[0, N) into Bins[256] (zeroed first) on the
/// device, with a shared-memory histogram per block.
cudaError_t histogram256(const unsigned char *Data, int N, unsigned *Bins);
