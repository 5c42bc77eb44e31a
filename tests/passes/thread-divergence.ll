; ThreadDivergenceAnalysis (print<cucpu-divergence>) on work functions:
; the thread's coordinates are divergent, kernel parameters and block
; fields uniform; so is what is computed from uniform values only. A phi
; where a divergent branch's paths meet is divergent even if its inputs are
; uniform (k: %v). In a loop that threads leave at different iterations and
; that holds a barrier (loop), threads meet at different iterations, so even
; a value computed from uniform ones (%u) is divergent.
; RUN: %cucpu-opt -passes='lowering,cucpu-work-functions,function(print<cucpu-divergence>)' %s -o /dev/null | FileCheck %s

; CHECK-LABEL: Thread divergence of '__cucpu_work.k':
; CHECK: uniform: {{.*}}%params = load ptr
; CHECK: uniform: {{.*}}%scaled.i = mul i32
; CHECK: divergent: {{.*}}%mine.i = add i32 %scaled.i, %tid.x
; CHECK: divergent branch: {{.*}}br i1 %isodd.i
; CHECK: divergent: {{.*}}%v.i = phi i32 [ %mine.i, %even.i ], [ %scaled.i, %entry ]
; CHECK: uniform: {{.*}}%big.i = icmp sgt i32 %scaled.i, 100
; CHECK: uniform branch: {{.*}}br i1 %big.i
; CHECK-LABEL: Thread divergence of '__cucpu_work.loop':
; CHECK: divergent: {{.*}}%u.i = mul i32
; CHECK: divergent branch: {{.*}}br i1 %again.i
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %scaled = mul i32 %n, %b
  %mine = add i32 %scaled, %t
  %odd = and i32 %t, 1
  %isodd = icmp eq i32 %odd, 0
  br i1 %isodd, label %even, label %join
even:
  br label %join
join:
  %v = phi i32 [ %mine, %even ], [ %scaled, %entry ]
  %big = icmp sgt i32 %scaled, 100
  br i1 %big, label %store, label %exit
store:
  %idx = zext i32 %t to i64
  %p = getelementptr i32, ptr %out, i64 %idx
  store i32 %v, ptr %p
  br label %exit
exit:
  ret void
}
define ptx_kernel void @loop(ptr %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %u = mul i32 %n, 3
  call void @llvm.nvvm.barrier0()
  %idx = zext i32 %i to i64
  %p = getelementptr i32, ptr %out, i64 %idx
  store i32 %u, ptr %p
  %i.next = add i32 %i, 1
  %again = icmp ult i32 %i.next, %t
  br i1 %again, label %body, label %exit
exit:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()
