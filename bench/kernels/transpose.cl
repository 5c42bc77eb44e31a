// out = transpose(in) for a width x height matrix (both multiples of 32),
// through a 32 x 33 local tile; work-groups of 32 x 8, 4 elements each.
#define TILE 32
#define ROWS 8

__kernel void transpose(__global float *out, __global const float *in,
                        int width, int height) {
  __local float tile[TILE][TILE + 1];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x = get_group_id(0) * TILE + lx;
  int y = get_group_id(1) * TILE + ly;
  for (int j = 0; j < TILE; j += ROWS)
    tile[ly + j][lx] = in[(y + j) * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * TILE + lx;
  y = get_group_id(0) * TILE + ly;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * height + x] = tile[lx][ly + j];
}
