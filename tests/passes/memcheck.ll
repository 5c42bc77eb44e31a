; cucpu-memcheck (CUCPU_MEMCHECK=1) checks every kernel memory access before
; it happens: __cucpu_memcheck(thread, address, bytes, kind), kind 0 for a
; read, 1 for a write, 2 for an atomic.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-memcheck %s | FileCheck %s

; CHECK-LABEL: define void @k(ptr %cucpu.thread, ptr %out, ptr %in)
; CHECK-NEXT: call void @__cucpu_memcheck(ptr %cucpu.thread, ptr %in, i64 4, i32 0)
; CHECK-NEXT: %v = load i32, ptr %in
; CHECK-NEXT: call void @__cucpu_memcheck(ptr %cucpu.thread, ptr %out, i64 4, i32 1)
; CHECK-NEXT: store i32 %v, ptr %out
; CHECK-NEXT: call void @__cucpu_memcheck(ptr %cucpu.thread, ptr %out, i64 4, i32 2)
; CHECK-NEXT: %old = atomicrmw add ptr %out, i32 1 seq_cst
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, ptr %in) {
  %v = load i32, ptr %in
  store i32 %v, ptr %out
  %old = atomicrmw add ptr %out, i32 1 seq_cst
  ret void
}
