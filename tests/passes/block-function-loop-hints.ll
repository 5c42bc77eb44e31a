; cucpu-block-functions: the loops it emits carry the hints LLVM's optimizer
; needs. A loop over the block's threads is parallel (its accesses do not
; depend on each other), so that it vectorizes. Loops over the warps of a
; block and over the lanes of a warp run at most 32 times: they are not
; unrolled by a run-time trip count, which would triple the code of a
; kernel with many warp operations and gain nothing.
; RUN: %cucpu-opt -passes=lowering,block-functions %s | FileCheck %s

; CHECK-LABEL: define i32 @__cucpu_block.k(
; CHECK: br i1 %{{[0-9]+}}, label %x0.body, label %x0.exit, !llvm.loop ![[BLOCK:[0-9]+]]
; CHECK: br i1 %{{[0-9]+}}, label %warp.body, label %warp.exit, !llvm.loop ![[WARPS:[0-9]+]]
; CHECK: br i1 %{{[0-9]+}}, label %lane1.body, label %lane1.exit, !llvm.loop ![[LANES:[0-9]+]]
; CHECK: ![[BLOCK]] = distinct !{![[BLOCK]], ![[PARALLEL:[0-9]+]]}
; CHECK: ![[PARALLEL]] = !{!"llvm.loop.parallel_accesses", !{{[0-9]+}}}
; CHECK: ![[WARPS]] = distinct !{![[WARPS]], ![[SHORT:[0-9]+]]}
; CHECK: ![[SHORT]] = !{!"llvm.loop.unroll.runtime.disable"}
; CHECK: ![[LANES]] = distinct !{![[LANES]], ![[LANE_ACCESSES:[0-9]+]], ![[SHORT]]}
; CHECK: ![[LANE_ACCESSES]] = !{!"llvm.loop.parallel_accesses", !{{[0-9]+}}}
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
