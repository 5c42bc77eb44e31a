; ThreadDivergenceAnalysis (print<cucpu-divergence>) on loops that every
; thread runs equally often but whose threads drift apart by iterations, once
; cucpu-loop-barriers has put barriers into their inner loops. In drift, a
; thread that leaves the inner loop early (per-thread trip count) runs on into
; the outer loop's next iteration and stops at the inner loop's barrier there,
; while others still run this iteration: the outer loop's %w differs between
; threads at one meeting, so it is divergent. In skip, only some threads enter
; the inner loop (a uniform trip count); the others run on to the barrier at
; the top of the next iteration, where the phi %r was already computed: %r
; and %w are divergent too. In aligned, a barrier of the kernel's own after
; the inner loop waits for every thread: %w stays uniform.
; RUN: %cucpu-opt -passes='lowering,cucpu-work-functions,cucpu-shared-atomics,cucpu-loop-barriers,function(print<cucpu-divergence>)' %s -o /dev/null | FileCheck %s

; CHECK-LABEL: Thread divergence of '__cucpu_work.drift':
; CHECK: divergent: {{.*}}%r.i = phi i32
; CHECK: divergent: {{.*}}%w.i = mul i32 %r.i, 7
; CHECK-LABEL: Thread divergence of '__cucpu_work.skip':
; CHECK: divergent: {{.*}}%r.i = phi i32
; CHECK: divergent: {{.*}}%w.i = mul i32 %r.i, 7
; CHECK: divergent branch: {{.*}}br i1 %mine.i
; CHECK-LABEL: Thread divergence of '__cucpu_work.aligned':
; CHECK: uniform: {{.*}}%r.i = phi i32
; CHECK: uniform: {{.*}}%w.i = mul i32 %r.i, 7
; CHECK: divergent branch: {{.*}}br i1 %more.i
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @drift(ptr %out, i32 %rounds) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %outer
outer:
  %r = phi i32 [ 0, %entry ], [ %r.next, %latch ]
  %acc = phi i32 [ 0, %entry ], [ %a.out, %latch ]
  %w = mul i32 %r, 7
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %inner ]
  %a = phi i32 [ %acc, %outer ], [ %a.next, %inner ]
  %x1 = mul i32 %a, 31
  %x2 = add i32 %x1, %w
  %x3 = xor i32 %x2, %i
  %x4 = lshr i32 %x3, 3
  %x5 = add i32 %x4, %x2
  %x6 = mul i32 %x5, 5
  %a.next = xor i32 %x6, %w
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %t
  br i1 %more, label %inner, label %latch
latch:
  %a.out = phi i32 [ %a.next, %inner ]
  %r.next = add i32 %r, 1
  %again = icmp ult i32 %r.next, %rounds
  br i1 %again, label %outer, label %exit
exit:
  %idx = zext i32 %t to i64
  %p = getelementptr i32, ptr %out, i64 %idx
  store i32 %a.out, ptr %p
  ret void
}

define ptx_kernel void @skip(ptr %out, i32 %rounds, i32 %trips) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %low = and i32 %t, 3
  %mine = icmp eq i32 %low, 0
  br label %outer
outer:
  %r = phi i32 [ 0, %entry ], [ %r.next, %latch ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %latch ]
  call void @llvm.nvvm.barrier0()
  %w = mul i32 %r, 7
  br i1 %mine, label %inner, label %latch
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %inner ]
  %a = phi i32 [ %acc, %outer ], [ %a.next, %inner ]
  %x1 = mul i32 %a, 31
  %x2 = add i32 %x1, %w
  %x3 = xor i32 %x2, %i
  %x4 = lshr i32 %x3, 3
  %x5 = add i32 %x4, %x2
  %x6 = mul i32 %x5, 5
  %a.next = xor i32 %x6, %w
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %trips
  br i1 %more, label %inner, label %latch
latch:
  %acc.next = phi i32 [ %acc, %outer ], [ %a.next, %inner ]
  %r.next = add i32 %r, 1
  %again = icmp ult i32 %r.next, %rounds
  br i1 %again, label %outer, label %exit
exit:
  %idx = zext i32 %t to i64
  %p = getelementptr i32, ptr %out, i64 %idx
  store i32 %acc.next, ptr %p
  ret void
}

define ptx_kernel void @aligned(ptr %out, i32 %rounds) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %outer
outer:
  %r = phi i32 [ 0, %entry ], [ %r.next, %latch ]
  %acc = phi i32 [ 0, %entry ], [ %a.out, %latch ]
  %w = mul i32 %r, 7
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %inner ]
  %a = phi i32 [ %acc, %outer ], [ %a.next, %inner ]
  %x1 = mul i32 %a, 31
  %x2 = add i32 %x1, %w
  %x3 = xor i32 %x2, %i
  %x4 = lshr i32 %x3, 3
  %x5 = add i32 %x4, %x2
  %x6 = mul i32 %x5, 5
  %a.next = xor i32 %x6, %w
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %t
  br i1 %more, label %inner, label %latch
latch:
  %a.out = phi i32 [ %a.next, %inner ]
  call void @llvm.nvvm.barrier0()
  %r.next = add i32 %r, 1
  %again = icmp ult i32 %r.next, %rounds
  br i1 %again, label %outer, label %exit
exit:
  %idx = zext i32 %t to i64
  %p = getelementptr i32, ptr %out, i64 %idx
  store i32 %a.out, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
