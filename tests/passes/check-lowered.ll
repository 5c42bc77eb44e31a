; cucpu-check-lowered fails the load of a module that still uses what the
; CPU cannot run: an NVVM intrinsic no pass lowered, or a function neither
; the module nor cucpu's runtime defines. Every problem is named.
; RUN: not %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-check-lowered %s 2>&1 | FileCheck %s

; CHECK: The module uses the NVVM intrinsic llvm.nvvm.read.ptx.sreg.clock, which cucpu cannot run on the CPU.
; CHECK-SAME: The module calls undefined_helper, which is neither defined in it nor provided by cucpu's runtime.
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out) {
  %c = call i32 @llvm.nvvm.read.ptx.sreg.clock()
  store i32 %c, ptr %out
  call void @undefined_helper()
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.clock()
declare void @undefined_helper()
