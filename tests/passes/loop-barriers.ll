; cucpu-loop-barriers puts a loop barrier (marked !cucpu.loop.barrier) at
; the header of every innermost loop of a work function with enough work
; (plain), so that each iteration is a region and the loop over the block's
; threads sits inside the kernel's loop. A loop that holds a shared-memory
; atomic (made plain by cucpu-shared-atomics) meets its barrier only every
; 8 iterations (atomic: iter.count). A work function with a warp operation
; gets none (warp: its lanes run together instead).
; RUN: %cucpu-opt -passes='lowering,cucpu-work-functions,function(sroa,simplifycfg),cucpu-shared-atomics,cucpu-loop-barriers' %s | FileCheck %s

; CHECK-LABEL: define internal void @__cucpu_work.plain(
; CHECK: loop.i:
; CHECK-NEXT: phi i32
; CHECK-NEXT: call void @__cucpu_barrier(ptr %thread), !cucpu.loop.barrier
; CHECK-LABEL: define internal void @__cucpu_work.atomic(
; CHECK: %iter.count = phi i32
; CHECK: iter.sync:
; CHECK-NEXT: call void @__cucpu_barrier(ptr %thread), !cucpu.loop.barrier
; CHECK: %iter.next = select
; CHECK-LABEL: define internal void @__cucpu_work.warp(
; CHECK-NOT: !cucpu.loop.barrier
; CHECK: declare void @__cucpu_barrier(ptr)
target triple = "nvptx64-nvidia-cuda"
@count = internal addrspace(3) global i32 undef, align 4

define ptx_kernel void @plain(ptr %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a = mul i32 %i, %t
  %b = add i32 %a, %n
  %c = xor i32 %b, %i
  %d = shl i32 %c, 2
  %e = or i32 %d, %b
  %idx = zext i32 %i to i64
  %p = getelementptr i32, ptr %out, i64 %idx
  store i32 %e, ptr %p
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define ptx_kernel void @atomic(ptr %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a = mul i32 %i, %t
  %b = add i32 %a, %n
  %c = xor i32 %b, %i
  %old = atomicrmw add ptr addrspace(3) @count, i32 %c monotonic
  %e = or i32 %old, %b
  %idx = zext i32 %i to i64
  %p = getelementptr i32, ptr %out, i64 %idx
  store i32 %e, ptr %p
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define ptx_kernel void @warp(ptr %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %t, i32 0, i32 31)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a = mul i32 %i, %s
  %b = add i32 %a, %n
  %c = xor i32 %b, %i
  %d = shl i32 %c, 2
  %e = or i32 %d, %b
  %idx = zext i32 %i to i64
  %p = getelementptr i32, ptr %out, i64 %idx
  store i32 %e, ptr %p
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
