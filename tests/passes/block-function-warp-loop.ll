; cucpu-block-functions: a warp operation (here a shuffle) makes the block
; function run the block warp by warp: the lanes of a warp each run to the
; operation (lanes.first), then the operation is computed for the whole warp
; from the values the lanes left in the frame (warp.op), then the lanes run
; on (lanes.next). The engine's per-thread shuffle is not called.
; RUN: %cucpu-opt -passes=lowering,block-functions %s | FileCheck %s

; CHECK-LABEL: define i32 @__cucpu_block.k(
; CHECK-NOT: @__cucpu_warp_shfl
; CHECK: by.warps:
; CHECK-NOT: @__cucpu_warp_shfl
; CHECK: warp.body:
; CHECK-NOT: @__cucpu_warp_shfl
; CHECK: lanes.first.body:
; CHECK-NOT: @__cucpu_warp_shfl
; CHECK: warp.op:
; CHECK-NOT: @__cucpu_warp_shfl
; CHECK: br label %lanes.next.body
; CHECK-NOT: @__cucpu_warp_shfl
; CHECK: {{^}$}}
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
