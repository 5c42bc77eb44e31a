; cucpu-rebase-inductions on work functions: in a loop with a barrier that
; every thread leaves at the same iteration, the thread's stepped pointer %p
; and its integer %j (stepped down by a kernel parameter) become their starts
; plus a new iteration counter times their steps; the uniform counter %i is
; left alone. The counter is uniform, so block-function formation keeps one
; copy of it per block, and %p's start is recomputed from the thread's
; coordinates: nothing per thread is carried across the barrier. In ragged,
; threads leave at different iterations: its pointer stays as it is.
; RUN: %cucpu-opt -S -passes='lowering,cucpu-work-functions,cucpu-shared-atomics,cucpu-loop-barriers,cucpu-rebase-inductions' %s | FileCheck %s
; RUN: %cucpu-opt -S -passes='lowering,cucpu-work-functions,cucpu-shared-atomics,cucpu-loop-barriers,cucpu-rebase-inductions,cucpu-form-regions' %s | FileCheck %s --check-prefix=FORM

; CHECK-LABEL: define internal void @__cucpu_work.tiles(
; CHECK: [[LOOP:loop.*]]:
; CHECK-NEXT: %iteration = phi i64 [ 0, %{{.*}} ], [ %iteration.next, %[[LOOP]] ]
; CHECK-NEXT: %i.i = phi i32
; CHECK-NOT: phi
; CHECK-DAG: %p.i.rebased.steps = mul i64 %iteration, 64
; CHECK-DAG: %p.i.rebased = getelementptr i8, ptr %start.i, i64 %p.i.rebased.steps
; CHECK-DAG: %j.i.rebased.steps = mul i32 [[COUNT:%.*]], [[N:%.*]]
; CHECK-DAG: [[COUNT]] = trunc i64 %iteration to i32
; CHECK-DAG: %j.i.rebased = sub i32 %tid.x, %j.i.rebased.steps
; CHECK: load float, ptr %p.i.rebased
; CHECK: call void @__cucpu_barrier(
; CHECK-NOT: %p.next
; CHECK: [[FOLLOWING:%.*]] = add nuw nsw i64 %iteration, 1
; CHECK-NEXT: [[TRUNC:%.*]] = trunc i64 [[FOLLOWING]] to i32
; CHECK-NEXT: %j.next.i.rebased.steps = mul i32 [[TRUNC]], {{%.*}}
; CHECK-NEXT: %j.next.i.rebased = sub i32 %tid.x, %j.next.i.rebased.steps
; CHECK-NOT: %p.next
; CHECK: %iteration.next = add nuw nsw i64 %iteration, 1
; CHECK: store i32 %j.next.i.rebased
; CHECK-LABEL: define internal void @__cucpu_work.ragged(
; CHECK-NOT: %iteration
; CHECK: %p.i = phi ptr
; CHECK-NOT: %iteration

; FORM-LABEL: define internal void @__cucpu_work.tiles(
; FORM-NOT: .at =
; FORM: %start.i.again = getelementptr i8
; FORM-NEXT: %p.i.rebased = getelementptr i8, ptr %start.i.again
; FORM-NOT: .at =
; FORM: %iteration.uniform = load i64
; FORM-NOT: .at =
; FORM-LABEL: define internal void @__cucpu_work.ragged(
; FORM: %p.i.at = load ptr
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x float] undef

define ptx_kernel void @tiles(ptr %a, ptr %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %x = zext i32 %t to i64
  %off = shl i64 %x, 2
  %start = getelementptr i8, ptr %a, i64 %off
  %slot = getelementptr float, ptr addrspace(3) @tile, i64 %x
  br label %loop
loop:
  %p = phi ptr [ %start, %entry ], [ %p.next, %loop ]
  %j = phi i32 [ %t, %entry ], [ %j.next, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = load float, ptr %p
  store float %v, ptr addrspace(3) %slot
  call void @llvm.nvvm.barrier0()
  %p.next = getelementptr i8, ptr %p, i64 64
  %j.next = sub i32 %j, %n
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %o = getelementptr i32, ptr %out, i64 %x
  store i32 %j.next, ptr %o
  ret void
}

define ptx_kernel void @ragged(ptr %a, ptr %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %x = zext i32 %t to i64
  %off = shl i64 %x, 2
  %start = getelementptr i8, ptr %a, i64 %off
  %slot = getelementptr float, ptr addrspace(3) @tile, i64 %x
  br label %loop
loop:
  %p = phi ptr [ %start, %entry ], [ %p.next, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = load float, ptr %p
  store float %v, ptr addrspace(3) %slot
  call void @llvm.nvvm.barrier0()
  %p.next = getelementptr i8, ptr %p, i64 64
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %t
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
