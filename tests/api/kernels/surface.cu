// Kernels of SurfaceTest.cpp (surface objects), compiled by nvcc for NVIDIA's
// driver and by cucc for cucpu.

// Adds 1 to every 32-bit element of a Width x Height surface.
extern "C" __global__ void incrementSurface(cudaSurfaceObject_t S, int Width,
                                            int Height) {
  int X = blockIdx.x * blockDim.x + threadIdx.x, Y = blockIdx.y;
  if (X < Width && Y < Height) {
    unsigned V = surf2Dread<unsigned>(S, X * 4, Y);
    surf2Dwrite(V + 1, S, X * 4, Y);
  }
}

// Reads 4 bytes through S at (X, 0) in zero mode into Out[0], and writes
// 0x01020304 through S at (X, 0) in trap mode.
extern "C" __global__ void readThenWrite(unsigned *Out, cudaSurfaceObject_t S,
                                         int X) {
  surf2Dread(&Out[0], S, X, 0, cudaBoundaryModeZero);
  surf2Dwrite(0x01020304u, S, X, 0);
}
