; cucpu-work-functions gives a kernel whose thread entry can become a block
; function its work function: the entry's code with the thread's
; coordinates as arguments (tid.x, tid.y, tid.z, linear index) and the
; block and frame beside the thread, everything the kernel calls inlined;
; the barrier is still a call, for cucpu-block-functions to split at.
; RUN: %cucpu-opt -passes=lowering,cucpu-work-functions %s | FileCheck %s

; CHECK-LABEL: define internal void @__cucpu_work.k(ptr %thread, ptr %block, i32 %tid.x, i32 %tid.y, i32 %tid.z, i32 %linear, ptr %frame, i32 %nthreads)
; CHECK: [[P:%.*]] = getelementptr inbounds i8, ptr %block, i64 48
; CHECK-NEXT: %params = load ptr, ptr [[P]]
; CHECK: %i.i = zext i32 %tid.x to i64
; CHECK: call void @__cucpu_barrier(ptr %thread)
; CHECK: ret void
target triple = "nvptx64-nvidia-cuda"
@tile = internal addrspace(3) global [256 x float] undef
define ptx_kernel void @k(ptr %out, ptr %in) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %src = getelementptr float, ptr %in, i64 %i
  %v = load float, ptr %src
  %dst = getelementptr float, ptr addrspace(3) @tile, i64 %i
  store float %v, ptr addrspace(3) %dst
  call void @llvm.nvvm.barrier0()
  %r = sub i64 255, %i
  %rs = getelementptr float, ptr addrspace(3) @tile, i64 %r
  %w = load float, ptr addrspace(3) %rs
  %o = getelementptr float, ptr %out, i64 %i
  store float %w, ptr %o
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
