; cucpu-thread-arg gives every defined function the CucpuThread* as a
; hidden first parameter and passes it on at every call.
; RUN: %cucpu-opt -passes=cucpu-thread-arg %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; Declarations (the runtime library, the engine) are left alone.
; CHECK: declare float @sinf(float)
declare float @sinf(float)

; CHECK-LABEL: define internal float @helper(ptr %cucpu.thread, float %x)
; CHECK-SAME: #[[ATTRS:[0-9]+]]
define internal float @helper(float %x) {
  %y = fmul float %x, 2.0
  ret float %y
}

; CHECK-LABEL: define ptx_kernel void @kernel(ptr %cucpu.thread, ptr %out, float %x)
; CHECK: call float @helper(ptr %cucpu.thread, float %x)
define ptx_kernel void @kernel(ptr %out, float %x) {
  %y = call float @helper(float %x)
  store float %y, ptr %out
  ret void
}


; CHECK: attributes #[[ATTRS]] = { "cucpu-thread-arg" }
