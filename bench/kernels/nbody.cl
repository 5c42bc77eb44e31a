// Gravitational acceleration of every body (x, y, z, mass) from all n bodies
// (n a multiple of 256), through tiles of 256 positions in local memory.
#define TILE 256

__kernel void nbody(__global float4 *accel, __global const float4 *pos, int n,
                    float eps2) {
  __local float4 tile[TILE];
  int i = get_global_id(0), lid = get_local_id(0);
  float4 p = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += TILE) {
    tile[lid] = pos[base + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < TILE; ++j) {
      float4 q = tile[j];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float inv = rsqrt(dx * dx + dy * dy + dz * dz + eps2);
      float s = q.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  accel[i] = (float4)(ax, ay, az, 0.0f);
}
