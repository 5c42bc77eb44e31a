; cucpu-nvvm-math maps NVVM's math intrinsics to the runtime library's
; libdevice functions (modules/runtime), which give CUDA's results: a
; correctly rounded square root, fmin, a fused multiply-add. ex2.approx.f32
; becomes straight-line IR with no call (Exp2Approx.cpp): clamp, rint, the
; polynomial, two power-of-two scales and the NaN select.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-nvvm-math %s | FileCheck %s

; CHECK-LABEL: define void @k(
; CHECK-NEXT: [[A:%.*]] = call float @__nv_fsqrt_rn(float %x)
; CHECK-NEXT: [[B:%.*]] = call float @__nv_fminf(float [[A]], float %x)
; CHECK-NEXT: [[C:%.*]] = call double @__nv_fma_rn(double %y, double %y, double %y)
; CHECK-NEXT: [[LO:%.*]] = call float @llvm.maxnum.f32(float [[B]], float -1.510000e+02)
; CHECK-NEXT: [[CL:%.*]] = call float @llvm.minnum.f32(float [[LO]], float 1.290000e+02)
; CHECK-NEXT: [[N:%.*]] = call float @llvm.rint.f32(float [[CL]])
; CHECK-NOT: call float @__nv
; CHECK: fmul float
; CHECK-NEXT: fmul float
; CHECK: [[NAN:%.*]] = fcmp uno float [[B]], [[B]]
; CHECK: [[D:%.*]] = select i1 [[NAN]], float {{%.*}}, float {{%.*}}
; CHECK-NEXT: store float [[D]], ptr %out
; CHECK-NOT: @llvm.nvvm
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, float %x, double %y) {
  %a = call float @llvm.nvvm.sqrt.rn.f(float %x)
  %b = call float @llvm.nvvm.fmin.f(float %a, float %x)
  %c = call double @llvm.nvvm.fma.rn.d(double %y, double %y, double %y)
  %d = call float @llvm.nvvm.ex2.approx.f(float %b)
  store float %d, ptr %out
  store double %c, ptr %out
  ret void
}
declare float @llvm.nvvm.sqrt.rn.f(float)
declare float @llvm.nvvm.fmin.f(float, float)
declare double @llvm.nvvm.fma.rn.d(double, double, double)
declare float @llvm.nvvm.ex2.approx.f(float)
