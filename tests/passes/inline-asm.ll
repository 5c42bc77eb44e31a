; cucpu-inline-asm translates inline PTX (asm("...") in CUDA C) with the
; PTX front end into the IR the rest of the pipeline lowers: an add becomes
; an add, a special register the NVVM intrinsic that reads it. No inline
; asm is left for the CPU.
; RUN: %cucpu-opt -passes=cucpu-inline-asm %s | FileCheck %s

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT: asm
; CHECK: [[SUM:%.*]] = add i32 %a, %b
; CHECK: [[LANE:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK: %s = add i32 [[SUM]], [[LANE]]
; CHECK-NOT: asm
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, i32 %a, i32 %b) {
  %r = call i32 asm "add.s32 $0, $1, $2;", "=r,r,r"(i32 %a, i32 %b)
  %l = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  %s = add i32 %r, %l
  store i32 %s, ptr %out
  ret void
}
