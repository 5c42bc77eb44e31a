// 256-bin histogram of bytes: each work-group counts its grid-stride share
// into a local histogram with atomic_add, then adds it to the global one.
#define BINS 256

__kernel void histogram(__global const uchar *data, __global uint *bins,
                        int n) {
  __local uint local_bins[BINS];
  int lid = get_local_id(0), lsize = get_local_size(0);
  for (int b = lid; b < BINS; b += lsize)
    local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_add(&local_bins[data[i]], 1u);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < BINS; b += lsize)
    atomic_add(&bins[b], local_bins[b]);
}
