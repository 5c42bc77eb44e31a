// clock, clock64, __ldg, printf, assert and the device heap.
// CHECK-DAG: call {{.*}}@llvm.nvvm.read.ptx.sreg.clock()
// CHECK-DAG: call {{.*}}@llvm.nvvm.read.ptx.sreg.clock64()
// CHECK-DAG: call {{.*}}@llvm.nvvm.ldg.global.f
// CHECK-DAG: call {{.*}}@vprintf(ptr
// CHECK-DAG: call {{.*}}@__assertfail(ptr {{.*}}, ptr {{.*}}, i32 {{.*}}, ptr {{.*}}, i64 {{.*}}1)
// CHECK-DAG: call {{.*}}ptr @malloc(i64
// CHECK-DAG: call {{.*}}@free(ptr
__global__ void misc(const float *__restrict__ In, float *Out, long long *T,
                     int N) {
  clock_t Start = clock();
  long long Start64 = clock64();
  float V = __ldg(In + threadIdx.x);
  assert(N > 0 && "N must be positive");
  printf("thread %d of %d: %f\n", threadIdx.x, blockDim.x, V);
  float *Scratch = (float *)malloc(N * sizeof(float));
  Scratch[0] = V;
  memset(Scratch + 1, 0, sizeof(float));
  Out[threadIdx.x] = Scratch[0] + Scratch[1];
  // Publish the block and free another, so neither call folds away.
  *(float **)(T + 1) = Scratch;
  free((void *)T[2]);
  T[0] = clock64() - Start64 + (clock() - Start);
}
