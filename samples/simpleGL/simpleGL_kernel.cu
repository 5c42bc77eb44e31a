// Draws the picture into an OpenGL pixel buffer mapped for CUDA: concentric
// rings around the centre over a colour ramp, one RGBA8 pixel per thread.
// Integer arithmetic only, so the host can compute the same bytes.
extern "C" __global__ void drawRings(unsigned int *Pixels, int Width,
                                     int Height) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= Width || Y >= Height)
    return;
  int Dx = X - Width / 2, Dy = Y - Height / 2;
  unsigned Ring = (unsigned)((Dx * Dx + Dy * Dy) >> 5) & 255u;
  unsigned Red = Ring;
  unsigned Green = (unsigned)(X * 255 / (Width - 1));
  unsigned Blue = (unsigned)(Y * 255 / (Height - 1)) ^ (Ring >> 1);
  Pixels[Y * Width + X] = Red | Green << 8 | (Blue & 255u) << 16 | 255u << 24;
}
