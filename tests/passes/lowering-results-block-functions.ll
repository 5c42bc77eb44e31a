; cucpu-block-functions records the per-thread frame of each kernel's block
; function in !cucpu.results (k needs none: 0 bytes); a kernel that keeps
; only its thread entry gets the reason instead (mask: __activemask, which
; cucpu-work-functions refuses).
; RUN: %cucpu-opt -passes=lowering,block-functions %s | FileCheck %s

; CHECK-DAG: !{!"frame", !"k", i32 0}
; CHECK-DAG: !{!"fallback", !"mask", !"it uses __activemask() or a warp function without _sync"}
; CHECK-NOT: !{!"frame", !"mask"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %t, ptr %out
  ret void
}
define ptx_kernel void @mask(ptr %out) {
  %m = call i32 @llvm.nvvm.activemask()
  store i32 %m, ptr %out
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.activemask()
