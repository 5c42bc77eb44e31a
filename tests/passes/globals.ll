; cucpu-globals moves __device__ (addrspace 1) and __constant__ (addrspace
; 4) variables to the host's address space, where the module instance
; holds them; their users see the old address space through a cast. A
; declaration nothing uses (threadIdx at -O0) is dropped.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-globals %s | FileCheck %s

; CHECK-NOT: @threadIdx
; CHECK: @counter = global i32 0, align 4
; CHECK: @coeffs = constant [2 x float] [float 1.000000e+00, float 2.000000e+00], align 4
; CHECK-LABEL: define void @k(
; CHECK: load i32, ptr @counter
; CHECK: load float, ptr addrspace(4) addrspacecast (ptr @coeffs to ptr addrspace(4))
target triple = "nvptx64-nvidia-cuda"
%struct.__cuda_builtin_threadIdx_t = type { i8 }
@threadIdx = extern_weak addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1
@counter = addrspace(1) global i32 0, align 4
@coeffs = addrspace(4) constant [2 x float] [float 1.0, float 2.0], align 4
define ptx_kernel void @k(ptr %out) {
  %c = load i32, ptr addrspacecast (ptr addrspace(1) @counter to ptr)
  %f = load float, ptr addrspace(4) @coeffs
  store i32 %c, ptr %out
  ret void
}
