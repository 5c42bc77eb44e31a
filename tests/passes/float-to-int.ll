; cucpu-float-to-int gives conversions to integers the GPU's results: they
; saturate, and NaN gives 0, where a CPU's cvttss2si gives INT_MIN.
; RUN: %cucpu-opt -passes=cucpu-float-to-int %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define i32 @to_i32(
; CHECK-NOT: fptosi
; CHECK: call i32 @llvm.fptosi.sat.i32.f32(float %x)
define i32 @to_i32(float %x) {
  %r = fptosi float %x to i32
  ret i32 %r
}

; To 8 bits: the low bits of the 32-bit conversion, as nvcc converts.
; CHECK-LABEL: define i8 @to_i8(
; CHECK: [[WIDE:%.*]] = call i32 @llvm.fptosi.sat.i32.f32(float %x)
; CHECK: trunc i32 [[WIDE]] to i8
define i8 @to_i8(float %x) {
  %r = fptosi float %x to i8
  ret i8 %r
}
