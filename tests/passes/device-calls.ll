; cucpu-device-calls gives device printf, assert and trap to the engine with
; the calling thread: vprintf's NVVM ABI (format, packed arguments),
; CUDA's __assertfail (its last argument, the character size, dropped) and
; llvm.trap, the last two never returning.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-device-calls %s | FileCheck %s

; CHECK-LABEL: define void @k(ptr %cucpu.thread, ptr %buf, i1 %bad)
; CHECK: call i32 @__cucpu_vprintf(ptr %cucpu.thread, ptr %f, ptr %buf)
; CHECK: fail:
; CHECK-NEXT: call void @__cucpu_assert_fail(ptr %cucpu.thread, ptr %f, ptr %f, i32 7, ptr %f) #[[NORETURN:[0-9]+]]
; CHECK: ok:
; CHECK-NEXT: call void @__cucpu_trap(ptr %cucpu.thread) #[[NORETURN]]
; CHECK-NOT: @vprintf
; CHECK-NOT: @__assertfail
; CHECK: attributes #[[NORETURN]] = { noreturn }
target triple = "nvptx64-nvidia-cuda"
@fmt = internal addrspace(1) constant [4 x i8] c"%d\0A\00"
define ptx_kernel void @k(ptr %buf, i1 %bad) {
  %f = addrspacecast ptr addrspace(1) @fmt to ptr
  %r = call i32 @vprintf(ptr %f, ptr %buf)
  br i1 %bad, label %fail, label %ok
fail:
  call void @__assertfail(ptr %f, ptr %f, i32 7, ptr %f, i64 1)
  unreachable
ok:
  call void @llvm.trap()
  unreachable
}
declare i32 @vprintf(ptr, ptr)
declare void @__assertfail(ptr, ptr, i32, ptr, i64)
declare void @llvm.trap()
