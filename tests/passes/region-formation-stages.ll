; cucpu-form-regions<print-stages> (what CUCPU_DEBUG=dump-ir runs)
; prints each work function after each stage of region formation:
; 1. split at its sync points: the barrier is gone, the code after it
;    starts the resume block of sync point 1;
; 2. values across the splits: a value that differs between threads and
;    lives across the split (%slot.i) goes through a spill slot, one that
;    only depends on the block (the parameter %out) is recomputed after it;
; 3. private memory in the frame: the thread's allocas and spill slots
;    become per-thread arrays of the block's frame.
; RUN: %cucpu-opt -passes='lowering,cucpu-work-functions,cucpu-form-regions<print-stages>' %s -o /dev/null 2>&1 | FileCheck %s

; CHECK-LABEL: *** cucpu: IR of __cucpu_work.k split at its sync points (cucpu-form-regions) ***
; CHECK-NOT: __cucpu_barrier
; CHECK: store volatile i32 %tid.x, ptr %slot.i
; CHECK-NEXT: br label %resume.1
; CHECK: resume.1:
; CHECK-NEXT: %v.i = load volatile i32, ptr %slot.i
; CHECK-LABEL: *** cucpu: IR of __cucpu_work.k values across the splits (cucpu-form-regions) ***
; CHECK: %slot.i.spill = alloca ptr
; CHECK: store ptr %slot.i, ptr %slot.i.spill
; CHECK-NEXT: br label %resume.1
; CHECK: %slot.i.at = load ptr, ptr %slot.i.spill
; CHECK: %params.again = load ptr
; CHECK-LABEL: *** cucpu: IR of __cucpu_work.k private memory in the frame (cucpu-form-regions) ***
; CHECK-NOT: alloca
; CHECK: [[BUF:%.*]] = getelementptr inbounds i8, ptr %frame, i64
; CHECK-NEXT: %slot.i = getelementptr [4 x i32], ptr [[BUF]], i64 0, i64 %idx.i
; CHECK: ret void
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out) {
entry:
  %buf = alloca [4 x i32], align 4
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %t to i64
  %slot = getelementptr [4 x i32], ptr %buf, i64 0, i64 %idx
  store volatile i32 %t, ptr %slot
  call void @llvm.nvvm.barrier0()
  %v = load volatile i32, ptr %slot
  %w = add i32 %v, %t
  %p = getelementptr i32, ptr %out, i64 %idx
  store i32 %w, ptr %p
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
