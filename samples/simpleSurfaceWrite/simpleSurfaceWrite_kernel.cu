// The copy kernel of the CUDA 4 guide's surface example (3.2.10.2.1): each
// thread reads one uchar4 element of the input surface and writes it to the
// output surface, through surface references; and the same copy through
// surface objects. x is a byte offset: element x is at byte 4 * x.

surface<void, 2> inputSurfRef;
surface<void, 2> outputSurfRef;

extern "C" __global__ void copyKernel(int width, int height) {
  // Calculate surface coordinates
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    uchar4 data;
    // Read from input surface
    surf2Dread(&data, inputSurfRef, x * 4, y);
    // Write to output surface
    surf2Dwrite(data, outputSurfRef, x * 4, y);
  }
}

extern "C" __global__ void copyObjectKernel(cudaSurfaceObject_t input,
                                            cudaSurfaceObject_t output,
                                            int width, int height) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    uchar4 data = surf2Dread<uchar4>(input, x * 4, y);
    // Each channel + 1, so that the result shows this kernel wrote it.
    data.x += 1;
    data.y += 1;
    data.z += 1;
    data.w += 1;
    surf2Dwrite(data, output, x * 4, y);
  }
}
