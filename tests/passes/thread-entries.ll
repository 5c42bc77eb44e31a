; cucpu-thread-entries gives each kernel its thread entry,
; __cucpu_entry.<kernel>(thread): it reads the arguments from the launch's
; parameter buffer (CucpuBlock::Params, offset 48 of the block) at the
; offsets of CUDA's layout (the image's: out at 0, n at 8, the 16-byte
; by-value struct at 16), copies a by-value struct into its own memory
; (the callee may write it), and calls the kernel, now internal.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-thread-entries %s | FileCheck %s

; CHECK-LABEL: define internal void @k(ptr %cucpu.thread, ptr %out, i32 %n, ptr byval(%pair) align 8 %p)
; CHECK-LABEL: define void @__cucpu_entry.k(ptr %cucpu.thread)
; CHECK: %p.copy = alloca %pair, align 8
; CHECK: [[PARAMS:%.*]] = getelementptr inbounds i8, ptr %cucpu.block, i64 48
; CHECK-NEXT: %params = load ptr, ptr [[PARAMS]]
; CHECK-NEXT: %out = getelementptr inbounds i8, ptr %params, i64 0
; CHECK-NEXT: [[OUT:%.*]] = load ptr, ptr %out, align 1
; CHECK-NEXT: %n = getelementptr inbounds i8, ptr %params, i64 8
; CHECK-NEXT: [[N:%.*]] = load i32, ptr %n, align 1
; CHECK-NEXT: %p = getelementptr inbounds i8, ptr %params, i64 16
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %p.copy, ptr align 1 %p, i64 16, i1 false)
; CHECK-NEXT: call void @k(ptr %cucpu.thread, ptr [[OUT]], i32 [[N]], ptr %p.copy)
; CHECK-NEXT: ret void
target triple = "nvptx64-nvidia-cuda"
%pair = type { i32, double }
define ptx_kernel void @k(ptr %out, i32 %n, ptr byval(%pair) align 8 %p) {
  %v = load i32, ptr %p
  %s = add i32 %v, %n
  store i32 %s, ptr %out
  ret void
}
