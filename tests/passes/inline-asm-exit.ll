; An `exit` in inline PTX ends the thread (cucpu-inline-asm): the device
; function that executes it (@endIfOdd) is inlined into its kernel, where
; the exit returns; the rest of the kernel runs for the other threads. No
; asm, no trap and no exit marker are left in the kernel.
; RUN: %cucpu-opt -passes=cucpu-inline-asm %s | FileCheck %s

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT: call void @endIfOdd
; CHECK: store i32 1, ptr %out
; CHECK: br i1 %c.i, label %[[END:[a-zA-Z.]+]], label %{{[a-zA-Z.]+}}
; CHECK: [[END]]:
; CHECK-NEXT: ret void
; CHECK: store i32 2, ptr %out
; CHECK-NOT: asm
; CHECK-NOT: llvm.trap
; CHECK-NOT: __cucpu_ptx_thread_exit
; CHECK: {{^}}}
target triple = "nvptx64-nvidia-cuda"

define void @endIfOdd(i32 %t) {
  %odd = and i32 %t, 1
  %c = icmp ne i32 %odd, 0
  br i1 %c, label %end, label %done
end:
  call void asm sideeffect "exit;", ""()
  br label %done
done:
  ret void
}

define ptx_kernel void @k(ptr %out, i32 %t) {
  store i32 1, ptr %out
  call void @endIfOdd(i32 %t)
  store i32 2, ptr %out
  ret void
}
