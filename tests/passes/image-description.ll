; The passes read what they must know of the image from !cucpu.image
; (LoweringMetadata.h), not from the loader: here a hand-written layout puts
; k's parameter n at offset 16 of a 24-byte buffer, where cucc would put it
; at 8, and cucpu-thread-entries reads it there. A description that names a
; kernel the IR lacks is an invalid image, reported as an LLVM diagnostic
; and collected into one error.
; RUN: %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-thread-entries %s | FileCheck %s
; RUN: sed 's/^;BAD //' %s > %t.ll
; RUN: not %cucpu-opt -passes=cucpu-find-kernels,cucpu-host-target,cucpu-thread-arg,cucpu-thread-entries %t.ll 2>&1 | FileCheck --check-prefix=BAD %s

; CHECK-LABEL: define void @__cucpu_entry.k(ptr %cucpu.thread)
; CHECK: %params = load ptr, ptr {{%.*}}, align 8{{.*}}, !dereferenceable [[BYTES:![0-9]+]]
; CHECK: %out = getelementptr inbounds i8, ptr %params, i64 0
; CHECK: %n = getelementptr inbounds i8, ptr %params, i64 16
; CHECK: [[BYTES]] = !{i64 24}

; BAD: The image describes kernel ghost, which its IR does not define.
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %out, i32 %n) {
  store i32 %n, ptr %out
  ret void
}
!cucpu.image = !{!0, !1}
!0 = !{!"arch", !"sm_80"}
!1 = !{!"kernel", !"k", i32 24, i32 0, i32 8, i32 16, i32 4}
;BAD !cucpu.image = !{!0, !1, !2}
;BAD !2 = !{!"kernel", !"ghost", i32 0}
