; cucpu-export-globals gives every variable the code may write external
; linkage, and a name if it had none, so the block functions specialized
; later for a launch's shape (objects of their own) share the module's one
; instance of each. Read-only data stays private: specializations get their
; own copies.
; RUN: %cucpu-opt -passes=cucpu-export-globals %s | FileCheck %s

; CHECK: @__cucpu_variable = dso_local global i32 0, align 4
; CHECK: @scratch = dso_local global [4 x i32] zeroinitializer, align 4
; CHECK: @ro = private unnamed_addr constant [2 x i32] [i32 1, i32 2], align 4
; CHECK-LABEL: define void @f(
; CHECK: store i32 %i, ptr @__cucpu_variable
target triple = "x86_64-unknown-linux-gnu"
@0 = private global i32 0, align 4
@scratch = internal global [4 x i32] zeroinitializer, align 4
@ro = private unnamed_addr constant [2 x i32] [i32 1, i32 2], align 4
define void @f(ptr %out, i32 %i) {
  store i32 %i, ptr @0
  %p = getelementptr [4 x i32], ptr @scratch, i32 0, i32 %i
  store i32 %i, ptr %p
  %q = getelementptr [2 x i32], ptr @ro, i32 0, i32 %i
  %t = load i32, ptr %q
  store i32 %t, ptr %out
  ret void
}
