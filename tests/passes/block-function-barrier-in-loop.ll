; cucpu-block-functions: a barrier inside a loop. Region 0 runs each thread
; from the kernel's start to the barrier; region 1 from the barrier through
; the loop's body, then either back to the barrier (the place 1 | parity)
; or out of the loop to the end (INT32_MAX). The loop counter lives across
; the barrier in the frame: stored at the barrier, read back after it (once
; per region when every thread is at the same place).
; RUN: %cucpu-opt -passes=lowering,block-functions %s | FileCheck %s

; CHECK-LABEL: define i32 @__cucpu_block.k(
; CHECK: i32 0, label %region.0
; CHECK-NEXT: i32 1, label %region.1

; CHECK: r0.done:
; CHECK-NEXT: %at.next = phi i32 [ [[AT0:%.*]], %loop.i.r0 ]
; CHECK: loop.i.r0:
; CHECK-NEXT: %k.i.r0 = phi i32 [ 0, %entry.r0 ]
; CHECK: [[SLOT0:%.*]] = getelementptr inbounds i8, ptr %frame, i64
; CHECK-NEXT: store i32 %k.i.r0, ptr [[SLOT0]]
; CHECK-NEXT: [[AT0]] = or i32 1, %next.parity

; CHECK: region.1:
; CHECK: all.1:
; CHECK: %k.i.uniform{{.*}} = load i32, ptr
; CHECK: r1.done:
; CHECK-NEXT: phi i32 [ [[AT1:%.*]], %loop.i.r1 ], [ 2147483647, %k.exit.r1 ]
; CHECK: resume.1.r1:
; CHECK: %k.next.i.r1 = add i32 %k.i.uniform{{.*}}, 1
; CHECK: br i1 %more.i.r1, label %loop.i.r1, label %k.exit.r1
; CHECK: loop.i.r1:
; CHECK-NEXT: %k.i.r1 = phi i32 [ %k.next.i.r1, %resume.1.r1 ]
; CHECK: [[SLOT1:%.*]] = getelementptr inbounds i8, ptr %frame, i64
; CHECK-NEXT: store i32 %k.i.r1, ptr [[SLOT1]]
; CHECK-NEXT: [[AT1]] = or i32 1, %next.parity
; CHECK-NOT: __cucpu_barrier
; CHECK: {{^}$}}
target triple = "nvptx64-nvidia-cuda"
@sm = internal addrspace(3) global [256 x i32] undef
define ptx_kernel void @k(ptr %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %p = getelementptr i32, ptr addrspace(3) @sm, i64 %i
  store i32 %tid, ptr addrspace(3) %p
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  call void @llvm.nvvm.barrier0()
  %v = load i32, ptr addrspace(3) %p
  %v2 = add i32 %v, %k
  store i32 %v2, ptr addrspace(3) %p
  %k.next = add i32 %k, 1
  %more = icmp slt i32 %k.next, %n
  br i1 %more, label %loop, label %exit
exit:
  %o = getelementptr i32, ptr %out, i64 %i
  %r = load i32, ptr addrspace(3) %p
  store i32 %r, ptr %o
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
