// Rotates an image: every output pixel reads the input through a 2D texture
// reference at its rotated, normalized position (linear filtering, wrap).
texture<float, 2, cudaReadModeElementType> tex;

extern "C" __global__ void transformKernel(float *Out, int Width, int Height,
                                           float Theta) {
  unsigned X = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= unsigned(Width) || Y >= unsigned(Height))
    return;
  float U = X / float(Width) - 0.5f;
  float V = Y / float(Height) - 0.5f;
  float TU = U * cosf(Theta) - V * sinf(Theta) + 0.5f;
  float TV = V * cosf(Theta) + U * sinf(Theta) + 0.5f;
  Out[Y * Width + X] = tex2D(tex, TU, TV);
}
