// One Jacobi sweep of a 2D 5-point stencil on an nx x ny grid: interior
// points get c0 * centre + c1 * (sum of the 4 neighbours), the border is
// copied.
extern "C" __global__ void stencil(float *out, const float *in, int nx, int ny,
                                   float c0, float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  int i = y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}
