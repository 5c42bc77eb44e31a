; cucpu-emit-block-functions alone, on a work function in region form read
; back from text (cucpu-form-regions in another run): the warp loops of a
; kernel with a shuffle. The lanes of each warp run to the shuffle
; (lanes.first), the shuffle is done for the warp (warp.op), the lanes run
; on (lanes.next); the work function and the form's metadata are gone.
; A form whose metadata contradicts the code (here: its sync points'
; metadata removed, so two regions' exits for one region) is an error that
; says so, not a block function.
; RUN: %cucpu-opt -passes=lowering,cucpu-work-functions,cucpu-form-regions %s -o %t.regions.ll
; RUN: %cucpu-opt -passes=cucpu-emit-block-functions %t.regions.ll | FileCheck %s
; RUN: sed 's/, !cucpu.sync.point ![0-9]*//' %t.regions.ll > %t.bad.ll
; RUN: not %cucpu-opt -passes=cucpu-emit-block-functions %t.bad.ll 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: not %cucpu-opt -passes=lowering,cucpu-work-functions,cucpu-emit-block-functions %s 2>&1 | FileCheck %s --check-prefix=UNFORMED

; CHECK-NOT: @__cucpu_work.k
; CHECK-LABEL: define i32 @__cucpu_block.k(
; CHECK: by.warps:
; CHECK: warp.body:
; CHECK: lanes.first.body:
; CHECK: warp.op:
; CHECK: br label %lanes.next.body
; CHECK: {{^}$}}
; CHECK-NOT: @__cucpu_work.k
; CHECK-NOT: !cucpu.region.form
; CHECK-NOT: !cucpu.sync.point

; BAD: The work function of kernel 'k' is not in region form (run cucpu-form-regions first): its uniform exits do not match its regions.
; UNFORMED: The work function of kernel 'k' is not in region form (run cucpu-form-regions first): it has no region form (!cucpu.region.form).
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %tid, i32 1, i32 31)
  %i = zext i32 %tid to i64
  %o = getelementptr i32, ptr %out, i64 %i
  store i32 %s, ptr %o
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
