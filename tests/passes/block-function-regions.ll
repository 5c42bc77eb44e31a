; cucpu-block-functions: a barrier splits a kernel into regions; the block
; function runs each region as a loop over the block's threads (z, y, x),
; so no thread reaches the code after a barrier before every thread has
; finished the code before it. A thread's place (its slot in the frame)
; records where it stopped: 1 | parity << 16 at the barrier, INT32_MAX when
; it returned. No barrier call is left in the block function.
; RUN: %cucpu-opt -passes=lowering,block-functions %s | FileCheck %s

; CHECK-LABEL: define i32 @__cucpu_block.k(ptr noalias nonnull align 8 dereferenceable(80) %block, ptr noalias %threads, ptr noalias %frame)
; CHECK-NOT: __cucpu_barrier
; CHECK: finished:
; CHECK-NEXT: ret i32 0
; CHECK: switch i32 %{{.*}}, label %region.next [
; CHECK-NEXT: i32 0, label %region.0
; CHECK-NEXT: i32 1, label %region.1
; CHECK-NOT: __cucpu_barrier

; Region 0: the code before the barrier, in the thread loop (x innermost).
; CHECK: region.0:
; CHECK: x0.body:
; CHECK: x0.latch:
; CHECK: br i1 %{{.*}}, label %x0.body, label %x0.exit, !llvm.loop
; CHECK: r0.done:
; CHECK: store i32 %at.next, ptr %place
; CHECK: entry.r0:
; CHECK: load float, ptr %src.i.r0
; CHECK: store float %v.i.r0, ptr addrspace(3)
; CHECK: [[AT:%.*]] = or i32 1, %next.parity

; Region 1: the code after it; the thread then returns.
; CHECK: region.1:
; CHECK: r1.done:
; CHECK-NEXT: phi i32 [ 2147483647, %resume.1.r1 ]
; CHECK: resume.1.r1:
; CHECK: load float, ptr addrspace(3) %rs.i.r1
; CHECK: store float %w.i.r1, ptr %o.i.r1
; CHECK-NOT: __cucpu_barrier
; CHECK: {{^}$}}
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
