; What lowering learns that the JIT needs is recorded in !cucpu.results
; (LoweringMetadata.h): cucpu-shared-memory gives every kernel its static
; shared bytes (k: 64 + 4 = 68; none: 0), cucpu-globals the size of each
; module variable, cucpu-work-functions and cucpu-block-functions a kernel's
; block-function frame or why it has none.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-shared-memory,cucpu-globals %s | FileCheck %s

; CHECK: !cucpu.results = !{[[NONE:![0-9]+]], [[K0:![0-9]+]], [[K:![0-9]+]], [[TABLE:![0-9]+]]}
; CHECK-DAG: [[NONE]] = !{!"shared", !"none", i32 0}
; CHECK-DAG: [[K0]] = !{!"shared", !"k", i32 0}
; CHECK-DAG: [[K]] = !{!"shared", !"k", i32 68}
; CHECK-DAG: [[TABLE]] = !{!"global", !"table", i64 40}
target triple = "nvptx64-nvidia-cuda"
@a = internal addrspace(3) global [16 x i32] undef, align 4
@b = internal addrspace(3) global i32 undef, align 4
@table = addrspace(1) global [10 x float] zeroinitializer, align 4
define ptx_kernel void @none(ptr %out) {
  %v = load float, ptr addrspacecast (ptr addrspace(1) @table to ptr)
  store float %v, ptr %out
  ret void
}
define ptx_kernel void @k(i32 %i) {
  %pa = getelementptr [16 x i32], ptr addrspace(3) @a, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %pa
  store i32 2, ptr addrspace(3) @b
  ret void
}
