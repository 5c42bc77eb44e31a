; cucpu-form-regions alone: the work function is cut at its barrier and
; stays a function of one thread, in region form. The barrier's block ends
; with a branch to its resume block that carries the sync point
; (!cucpu.sync.point: id 1, kind Barrier, no mode, no arrays); the loop
; counter %k, the same in every thread, is kept once per block: stored to
; the frame where it is computed, read back after the split by loads that
; say where (!cucpu.uniform.slot). The function's !cucpu.region.form gives
; the frame (20 bytes per thread: the place, then %k at 16), no present
; masks, no warp mode, both regions' uniform exits, and the frame's alias
; scopes.
; RUN: %cucpu-opt -passes=lowering,cucpu-work-functions,cucpu-form-regions %s | FileCheck %s

; CHECK-LABEL: define internal void @__cucpu_work.k(
; CHECK-SAME: !cucpu.region.form [[FORM:![0-9]+]]
; CHECK-NOT: @llvm.nvvm.barrier0
; CHECK: loop.i:
; CHECK: store i32 %k.i, ptr {{%.*}}, align 4, !alias.scope [[SCOPES:![0-9]+]]
; CHECK-NEXT: br label %resume.1, !cucpu.sync.point [[SYNC:![0-9]+]]
; CHECK: resume.1:
; CHECK: %k.i.uniform{{.*}} = load i32, ptr {{%.*}}, align 4, !alias.scope [[SCOPES]], !cucpu.uniform.slot [[SLOT:![0-9]+]]
; CHECK-NOT: define i32 @__cucpu_block.k
; CHECK-DAG: [[FORM]] = !{i64 20, i64 0, i1 false, i32 0, i32 0, [[EXITS:![0-9]+]], [[SCOPES]]}
; CHECK-DAG: [[EXITS]] = !{i1 true, i1 true}
; CHECK-DAG: [[SYNC]] = !{i32 1, i32 1, i32 0, i64 0, i64 0}
; CHECK-DAG: [[SLOT]] = !{i64 16}
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
