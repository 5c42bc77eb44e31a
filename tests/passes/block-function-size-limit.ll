; cucpu-block-functions keeps no block function larger than its instruction
; limit (default 40,000; cucpu-block-functions<max-instructions=N>): the
; kernel then runs on the fiber engine, and !cucpu.results says why.
; RUN: %cucpu-opt -passes='lowering,cucpu-work-functions,cucpu-block-functions<max-instructions=20>' %s | FileCheck %s --check-prefix=SMALL
; RUN: %cucpu-opt -passes='lowering,cucpu-work-functions,cucpu-block-functions' %s | FileCheck %s --check-prefix=DEFAULT

; SMALL-NOT: define {{.*}} @__cucpu_block.k(
; SMALL: !{!"fallback", !"k", !"its block function has {{[0-9]+}} instructions, more than 20: it would take minutes to compile"}
; DEFAULT: define {{.*}} @__cucpu_block.k(
; DEFAULT: !{!"frame", !"k", i32 {{[0-9]+}}}
; DEFAULT-NOT: !"fallback"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, ptr %out, i32 %t
  store i32 %t, ptr %p
  call void @llvm.nvvm.barrier0()
  %q = getelementptr i32, ptr %out, i32 0
  %v = load i32, ptr %q
  %w = add i32 %v, %t
  store i32 %w, ptr %p
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
