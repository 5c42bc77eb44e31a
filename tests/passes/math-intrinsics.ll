; cucpu-math-intrinsics replaces the runtime library's simplest functions
; with the LLVM operations that compute exactly what they do (fabs, floor,
; fma), so the optimizer and the vectorizer see through them; the others
; (sinf) stay library calls.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-math-intrinsics %s | FileCheck %s

; CHECK-LABEL: define void @k(
; CHECK-NEXT: [[A:%.*]] = call float @llvm.fabs.f32(float %x)
; CHECK-NEXT: [[B:%.*]] = call double @llvm.floor.f64(double %y)
; CHECK-NEXT: [[C:%.*]] = call float @llvm.fma.f32(float [[A]], float [[A]], float %x)
; CHECK-NEXT: call float @__nv_sinf(float [[C]])
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, float %x, double %y) {
  %a = call float @__nv_fabsf(float %x)
  %b = call double @__nv_floor(double %y)
  %c = call float @__nv_fmaf(float %a, float %a, float %x)
  %d = call float @__nv_sinf(float %c)
  store float %d, ptr %out
  store double %b, ptr %out
  ret void
}
declare float @__nv_fabsf(float)
declare double @__nv_floor(double)
declare float @__nv_fmaf(float, float, float)
declare float @__nv_sinf(float)
