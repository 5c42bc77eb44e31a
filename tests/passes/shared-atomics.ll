; cucpu-shared-atomics turns a work function's atomics on the block's
; shared memory into plain loads and stores (a block function runs the
; block's threads one after the other), marked !cucpu.shared.atomic so that
; thread loops do not run them side by side. Atomics on global memory stay.
; RUN: %cucpu-opt -passes='lowering,cucpu-work-functions,cucpu-shared-atomics' %s | FileCheck %s

; CHECK-LABEL: define internal void @__cucpu_work.k(
; CHECK-NOT: atomicrmw add ptr addrspace(3)
; CHECK: [[OLD:%.*]] = load i32, ptr addrspace(3) [[COUNT:%.*]], align 4, !cucpu.shared.atomic
; CHECK-NEXT: %new = add i32 [[OLD]], 1
; CHECK-NEXT: store i32 %new, ptr addrspace(3) [[COUNT]], align 4, !cucpu.shared.atomic
; CHECK: atomicrmw add ptr {{%.*}}, i32 1 monotonic
; CHECK: ret void
target triple = "nvptx64-nvidia-cuda"
@count = internal addrspace(3) global i32 undef, align 4
define ptx_kernel void @k(ptr %out) {
  %old = atomicrmw add ptr addrspace(3) @count, i32 1 monotonic
  %g = atomicrmw add ptr %out, i32 1 monotonic
  ret void
}
