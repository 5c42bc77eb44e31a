; cucpu-sync turns barriers and warp functions into calls of the engine's
; services (JitAbi.h) with the calling thread: __syncthreads_count's
; predicate becomes 0 or 1, a shuffle gets a slot for its predicate output
; and its mode (down = 2).
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-sync %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @k(ptr %cucpu.thread, ptr %out, i32 %v)
; CHECK: [[PRED:%.*]] = alloca i32
; CHECK: call void @__cucpu_barrier(ptr %cucpu.thread)
; CHECK: [[NZ:%.*]] = icmp ne i32 %v, 0
; CHECK: [[BIT:%.*]] = zext i1 [[NZ]] to i32
; CHECK: [[COUNT:%.*]] = call i32 @__cucpu_barrier_reduce(ptr %cucpu.thread, i32 [[BIT]], i32 0)
; CHECK: call void @__cucpu_warp_sync(ptr %cucpu.thread, i32 -1)
; CHECK: call i32 @__cucpu_warp_shfl(ptr %cucpu.thread, i32 -1, i32 [[COUNT]], i32 1, i32 31, i32 2, ptr [[PRED]])
; CHECK-NOT: @llvm.nvvm
define ptx_kernel void @k(ptr %out, i32 %v) {
  call void @llvm.nvvm.barrier0()
  %n = call i32 @llvm.nvvm.barrier0.popc(i32 %v)
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %s = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %n, i32 1, i32 31)
  store i32 %s, ptr %out
  ret void
}

; The services are convergent: no optimization may copy one into paths only
; some threads take.
; CHECK: declare void @__cucpu_barrier(ptr) #[[SERVICE:[0-9]+]]
; CHECK: attributes #[[SERVICE]] = { convergent nounwind }

declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.barrier0.popc(i32)
declare void @llvm.nvvm.bar.warp.sync(i32)
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
