; cucpu-find-kernels marks the kernels (ptx_kernel or !nvvm.annotations)
; with "cucpu-kernel" and gives them the C calling convention;
; cucpu-host-target retargets the module to the host (triple and data
; layout). Device functions are not kernels.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target %s | FileCheck %s

; CHECK: target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
; CHECK: target triple = "x86_64-unknown-linux-gnu"
; CHECK: define void @k(ptr %out) #[[KERNEL:[0-9]+]]
; CHECK: define void @helper(ptr %p) {
; CHECK: attributes #[[KERNEL]] = { "cucpu-kernel" }
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out) {
  call void @helper(ptr %out)
  ret void
}
define void @helper(ptr %p) {
  store i32 1, ptr %p
  ret void
}
