; cucpu-sregs reads PTX special registers from the thread's CucpuThread and
; its CucpuBlock (JitAbi.h): %tid at offset 0 of the thread, %laneid at 12,
; the block pointer at 24; %ctaid at 0, %ntid at 12 of the block. The loads
; are invariant (a register never changes while a thread runs).
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-sregs %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"
; CHECK-LABEL: define void @k(ptr %cucpu.thread, ptr %out)
; CHECK: %tid.x = load i32, ptr %cucpu.thread, align 4, !range [[TID:![0-9]+]], !invariant.load
; CHECK: [[B1:%.*]] = getelementptr inbounds i8, ptr %cucpu.thread, i64 24
; CHECK: [[BLOCK1:%.*]] = load ptr, ptr [[B1]]
; CHECK: [[Y:%.*]] = getelementptr inbounds i8, ptr [[BLOCK1]], i64 4
; CHECK: %ctaid.y = load i32, ptr [[Y]]
; CHECK: [[B2:%.*]] = getelementptr inbounds i8, ptr %cucpu.thread, i64 24
; CHECK: [[BLOCK2:%.*]] = load ptr, ptr [[B2]]
; CHECK: [[Z:%.*]] = getelementptr inbounds i8, ptr [[BLOCK2]], i64 20
; CHECK: %ntid.z = load i32, ptr [[Z]]
; CHECK: [[L:%.*]] = getelementptr inbounds i8, ptr %cucpu.thread, i64 12
; CHECK: %laneid = load i32, ptr [[L]], align 4, !range [[LANE:![0-9]+]]
; CHECK-NOT: @llvm.nvvm.read.ptx.sreg
define ptx_kernel void @k(ptr %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %a = add i32 %tid, %ctaid
  %b = add i32 %a, %ntid
  %c = add i32 %b, %lane
  store i32 %c, ptr %out
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
; threadIdx.x < 1024, %laneid < 32.
; CHECK: [[TID]] = !{i32 0, i32 1024}
; CHECK: [[LANE]] = !{i32 0, i32 32}
