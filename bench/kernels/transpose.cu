// out = transpose(in) for a width x height matrix (both multiples of 32),
// through a 32 x 33 shared tile (the padding column avoids bank conflicts);
// blocks of 32 x 8 threads, each thread moving 4 elements.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose(float *out, const float *in, int width,
                                     int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
