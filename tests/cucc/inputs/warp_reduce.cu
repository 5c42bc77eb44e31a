// __reduce_*_sync with a constant mask: the IR must pass the value first and
// the mask second to llvm.nvvm.redux.sync.* (compiled for sm_80).
extern "C" __global__ void reduceAll(unsigned *out, int v) {
  out[0] = __reduce_add_sync(0x0000ffffu, v);
  out[1] = __reduce_min_sync(0x0000ffffu, v);
  out[2] = __reduce_max_sync(0x0000ffffu, (unsigned)v);
  out[3] = __reduce_and_sync(0x0000ffffu, v);
  out[4] = __reduce_or_sync(0x0000ffffu, v);
  out[5] = __reduce_xor_sync(0x0000ffffu, v);
}
