; cucpu-block-functions: threads that return before a barrier. In region 0
; each thread either reaches the barrier (its place: 1 | parity) or returns
; (INT32_MAX); a returned thread counts as arrived, as on NVIDIA. Region 1
; has two versions: one for when every thread waits at the barrier (all.1),
; and one that skips each thread whose place is not the barrier's (some.1),
; keeping the place it had.
; RUN: %cucpu-opt -passes=lowering,block-functions %s | FileCheck %s

; CHECK-LABEL: define i32 @__cucpu_block.k(
; CHECK: r0.done:
; CHECK-NEXT: %at.next = phi i32 [ {{%.*}}, %work.i.r0 ], [ 2147483647, %k.exit.r0 ]
; CHECK: entry.r0:
; CHECK: br i1 %past.i.not.r0, label %work.i.r0, label %k.exit.r0
; CHECK: region.1:
; CHECK: br i1 {{%.*}}, label %all.1, label %some.1

; The version for some threads: a thread not at the barrier keeps its place.
; CHECK: x1.body{{[0-9]+}}:
; CHECK: %at = load i32, ptr %place{{[0-9]+}}
; CHECK-NEXT: [[NOTHERE:%.*]] = icmp ne i32 %at, %tag
; CHECK-NEXT: br i1 [[NOTHERE]], label %r1.done{{[0-9]+}}, label %resume.1.r1{{[0-9]+}}
; CHECK: r1.done{{[0-9]+}}:
; CHECK-NEXT: phi i32 [ 2147483647, %k.exit.r1{{[0-9]+}} ], [ %at, %x1.body{{[0-9]+}} ]
target triple = "nvptx64-nvidia-cuda"
@sm = internal addrspace(3) global [256 x i32] undef
define ptx_kernel void @k(ptr %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %past = icmp uge i32 %tid, %n
  br i1 %past, label %done, label %work
work:
  %i = zext i32 %tid to i64
  %p = getelementptr i32, ptr addrspace(3) @sm, i64 %i
  store i32 %tid, ptr addrspace(3) %p
  call void @llvm.nvvm.barrier0()
  %v = load i32, ptr addrspace(3) @sm
  %o = getelementptr i32, ptr %out, i64 %i
  store i32 %v, ptr %o
  br label %done
done:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
