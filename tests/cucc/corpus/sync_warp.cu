// Barriers, fences, votes, shuffles (with width), __syncwarp, __activemask
// and match.
// CHECK-DAG: call {{.*}}@llvm.nvvm.barrier0()
// CHECK-DAG: call {{.*}}@llvm.nvvm.barrier0.popc
// CHECK-DAG: call {{.*}}@llvm.nvvm.barrier0.and
// CHECK-DAG: call {{.*}}@llvm.nvvm.barrier0.or
// CHECK-DAG: call {{.*}}@llvm.nvvm.membar.cta()
// CHECK-DAG: call {{.*}}@llvm.nvvm.membar.gl()
// CHECK-DAG: call {{.*}}@llvm.nvvm.membar.sys()
// CHECK-DAG: call {{.*}}@llvm.nvvm.vote.all.sync
// CHECK-DAG: call {{.*}}@llvm.nvvm.vote.any.sync
// CHECK-DAG: call {{.*}}@llvm.nvvm.vote.uni.sync
// CHECK-DAG: call {{.*}}@llvm.nvvm.vote.ballot.sync
// CHECK-DAG: call {{.*}}@llvm.nvvm.activemask()
// CHECK-DAG: call {{.*}}@llvm.nvvm.bar.warp.sync
// CHECK-DAG: call {{.*}}@llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 {{.*}}, i32 {{.*}}, i32 6175)
// CHECK-DAG: call {{.*}}@llvm.nvvm.shfl.sync.up.i32
// CHECK-DAG: call {{.*}}@llvm.nvvm.shfl.sync.down.i32
// CHECK-DAG: call {{.*}}@llvm.nvvm.shfl.sync.bfly.i32
// CHECK-DAG: call {{.*}}@llvm.nvvm.shfl.sync.bfly.f32
// CHECK-DAG: call {{.*}}@llvm.nvvm.match.any.sync.i32
// CHECK-DAG: call {{.*}}@llvm.nvvm.match.any.sync.i64
// CHECK-DAG: call { i32, i1 } @llvm.nvvm.match.all.sync.i32p
__global__ void sync_warp(int *I, float *F, double *D, long long *L) {
  int V = I[threadIdx.x];
  __syncthreads();
  int Count = __syncthreads_count(V > 0);
  int And = __syncthreads_and(V > 1);
  int Or = __syncthreads_or(V > 2);
  __threadfence_block();
  __threadfence();
  __threadfence_system();
  unsigned Active = __activemask();
  int Votes = __all_sync(Active, V) + __any_sync(Active, V) +
              __uni_sync(Active, V) + (int)__ballot_sync(Active, V);
  __syncwarp();
  __syncwarp(Active);
  // width 8: (32 - 8) << 8 | 0x1f = 6175.
  int Shfl = __shfl_sync(0xffffffff, V, 3, 8) + __shfl_up_sync(Active, V, 1) +
             __shfl_down_sync(Active, V, 2, 16) + __shfl_xor_sync(Active, V, 4);
  float FS = __shfl_xor_sync(Active, F[0], 1);
  double DS = __shfl_down_sync(Active, D[0], 1);
  long long LS = __shfl_sync(Active, L[0], 0);
  int Pred;
  unsigned Match = __match_any_sync(Active, V) + __match_any_sync(Active, L[1]) +
                   __match_all_sync(Active, V, &Pred) + __match_any_sync(Active, F[1]);
  I[threadIdx.x] = Count + And + Or + Votes + Shfl + FS + DS + LS + Match + Pred;
}
