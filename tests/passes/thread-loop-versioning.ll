; cucpu-thread-loop-versioning: a thread loop (parallel accesses) whose
; branch tests the thread index against a block-uniform bound gets a second
; version, entered when every iteration goes the same way (here: the last
; index is below %bound), in which the test is gone; the original loop
; stays for the other case.
; RUN: %cucpu-opt -passes='function(cucpu-thread-loop-versioning)' %s | FileCheck %s

; CHECK-LABEL: define void @f(
; CHECK: entry:
; CHECK: [[BOUND:%.*]] = zext i32 %bound to i128
; CHECK: icmp slt i128 {{%.*}}, [[BOUND]]
; CHECK: br i1 {{%.*}}, label %loop.ph.uniform, label %loop.ph
; CHECK: loop.uniform:
; CHECK-NOT: icmp ult i32 %i.uniform, %bound
; CHECK: store i32 1, ptr %p.uniform
; CHECK: br i1 %more.uniform, label %loop.uniform, label %exit
; CHECK: loop:
; CHECK: %in = icmp ult i32 %i, %bound
; CHECK-NEXT: br i1 %in, label %then, label %latch
target triple = "x86_64-unknown-linux-gnu"
define void @f(ptr %a, i32 %n, i32 %bound) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %in = icmp ult i32 %i, %bound
  br i1 %in, label %then, label %latch
then:
  %p = getelementptr i32, ptr %a, i32 %i
  store i32 1, ptr %p, align 4, !llvm.access.group !1
  br label %latch
latch:
  %i.next = add nuw i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}
!0 = distinct !{!0, !2}
!1 = distinct !{}
!2 = !{!"llvm.loop.parallel_accesses", !1}
