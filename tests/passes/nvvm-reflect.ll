; cucpu-nvvm-reflect answers libdevice's __nvvm_reflect queries with
; constants: no flush-to-zero (whatever the module's nvvm-reflect-ftz flag
; asks: the CPU keeps denormals), IEEE division, and the image's
; architecture as __CUDA_ARCH (cucpu-opt describes its input as sm_75).
; RUN: %cucpu-opt -passes=cucpu-nvvm-reflect %s | FileCheck %s

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NEXT: store volatile i32 0, ptr %out
; CHECK-NEXT: store volatile i32 750, ptr %out
; CHECK-NEXT: store volatile i32 1, ptr %out
; CHECK-NOT: __nvvm_reflect
target triple = "nvptx64-nvidia-cuda"
@ftz = private addrspace(1) constant [11 x i8] c"__CUDA_FTZ\00"
@arch = private addrspace(1) constant [12 x i8] c"__CUDA_ARCH\00"
@div = private addrspace(1) constant [18 x i8] c"__CUDA_PREC_DIV\00\00\00"
define ptx_kernel void @k(ptr %out) {
  %f = call i32 @__nvvm_reflect(ptr addrspacecast (ptr addrspace(1) @ftz to ptr))
  store volatile i32 %f, ptr %out
  %a = call i32 @__nvvm_reflect(ptr addrspacecast (ptr addrspace(1) @arch to ptr))
  store volatile i32 %a, ptr %out
  %d = call i32 @__nvvm_reflect(ptr addrspacecast (ptr addrspace(1) @div to ptr))
  store volatile i32 %d, ptr %out
  ret void
}
declare i32 @__nvvm_reflect(ptr)
!llvm.module.flags = !{!0}
!0 = !{i32 4, !"nvvm-reflect-ftz", i32 1}
