; cucpu-warp-lockstep puts a lockstep point (__cucpu_lockstep) before the
; volatile accesses of shared memory that warp-synchronous code relies on:
; the lanes of a warp meet there and go on together, so every lane's reads
; happen before any lane's write. Reads in a row share one point; a write
; after them gets its own; plain accesses get none.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-warp-lockstep %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

@sm = internal addrspace(3) global [64 x float] undef

; CHECK-LABEL: define void @k(
; CHECK: call void @__cucpu_lockstep(ptr %cucpu.thread, i32 0)
; CHECK-NEXT: %a = load volatile float
; CHECK-NEXT: %b = load volatile float
; CHECK-NEXT: %c = fadd float %a, %b
; CHECK-NEXT: call void @__cucpu_lockstep(ptr %cucpu.thread, i32 1)
; CHECK-NEXT: store volatile float %c
; CHECK-NEXT: %plain = load float
; CHECK-NOT: __cucpu_lockstep
; CHECK: ret void
define ptx_kernel void @k(ptr %out, i32 %tid) {
  %p = getelementptr float, ptr addrspace(3) @sm, i32 %tid
  %q = getelementptr float, ptr addrspace(3) @sm, i32 16
  %a = load volatile float, ptr addrspace(3) %p
  %b = load volatile float, ptr addrspace(3) %q
  %c = fadd float %a, %b
  store volatile float %c, ptr addrspace(3) %p
  %plain = load float, ptr addrspace(3) %q
  store float %plain, ptr %out
  ret void
}
