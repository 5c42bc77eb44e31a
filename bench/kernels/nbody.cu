// Gravitational acceleration of every body (x, y, z, mass) from all n bodies
// (n a multiple of 256): each block walks the bodies in tiles of 256 positions
// staged in shared memory; eps2 softens close encounters.
#define TILE 256

extern "C" __global__ void nbody(float4 *accel, const float4 *pos, int n,
                                 float eps2) {
  __shared__ float4 tile[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += TILE) {
    tile[threadIdx.x] = pos[base + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < TILE; ++j) {
      float4 q = tile[j];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float inv = rsqrtf(dx * dx + dy * dy + dz * dz + eps2);
      float s = q.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  accel[i] = make_float4(ax, ay, az, 0.0f);
}
