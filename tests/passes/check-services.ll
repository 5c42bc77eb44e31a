; cucpu-check-services: every engine service the module declares must have
; the type JitAbi.h (JitServices.def) gives it. A module whose barrier
; service takes an extra argument is an internal error naming both types;
; the same module with the right declaration passes unchanged.
; RUN: not %cucpu-opt -passes=cucpu-check-services %s 2>&1 | FileCheck %s --check-prefix=WRONG
; RUN: sed 's/(ptr, i32)/(ptr)/' %s | %cucpu-opt -passes=cucpu-check-services | FileCheck %s --check-prefix=RIGHT

; WRONG: __cucpu_barrier is declared as void (ptr, i32), but JitAbi.h has void (ptr)
; RIGHT: declare void @__cucpu_barrier(ptr)
target triple = "x86_64-unknown-linux-gnu"
declare void @__cucpu_barrier(ptr, i32)
