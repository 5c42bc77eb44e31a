; cucpu-nvvm-memory lowers NVVM's memory intrinsics to LLVM's own
; instructions: atomic increment with wrap-around (atom.inc) to atomicrmw
; uinc_wrap, a read-only cached load (ldg) to a load, a memory barrier to a
; sequentially consistent fence.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-nvvm-memory %s | FileCheck %s

; CHECK-LABEL: define void @k(
; CHECK-NEXT: [[A:%.*]] = atomicrmw uinc_wrap ptr %p, i32 10 seq_cst, align 4
; CHECK-NEXT: load float, ptr addrspace(1) %g, align 4
; CHECK-NEXT: store i32 [[A]], ptr %p
; CHECK-NEXT: fence seq_cst
; CHECK-NOT: @llvm.nvvm
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %p, ptr addrspace(1) %g) {
  %a = call i32 @llvm.nvvm.atomic.load.inc.32.p0(ptr %p, i32 10)
  %b = call float @llvm.nvvm.ldg.global.f.f32.p1(ptr addrspace(1) %g, i32 4)
  store i32 %a, ptr %p
  call void @llvm.nvvm.membar.gl()
  ret void
}
declare i32 @llvm.nvvm.atomic.load.inc.32.p0(ptr, i32)
declare float @llvm.nvvm.ldg.global.f.f32.p1(ptr addrspace(1), i32)
declare void @llvm.nvvm.membar.gl()
