; cucpu-invariant-divisions: a division of loop-invariant values that an
; innermost loop computes only under a condition is hoisted to the preheader
; where its divisor cannot be zero (or, signed, is positive); otherwise the
; loop is marked not to be vectorized. Divisions the loop computes in every
; iteration, of values it changes, or by non-zero constants stay as they are.
; RUN: %cucpu-opt -passes='function(cucpu-invariant-divisions)' %s | FileCheck %s
target triple = "x86_64-unknown-linux-gnu"

; The divisor is %m | 1 of a defined %m (noundef): never zero. The remainder
; moves to the preheader and the loop keeps no vectorization hint.
; CHECK-LABEL: define void @hoisted(
; CHECK: entry:
; CHECK-NEXT: %odd = or i32 %m, 1
; CHECK-NEXT: %r = urem i32 %x, %odd
; CHECK-NEXT: br label %loop
; CHECK: then:
; CHECK-NOT: urem
; CHECK: br label %latch
; CHECK: br i1 %more, label %loop, label %exit{{$}}
define void @hoisted(ptr %a, ptr %c, i32 %x, i32 noundef %m, i32 %n) {
entry:
  %odd = or i32 %m, 1
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %cp = getelementptr i32, ptr %c, i32 %i
  %cv = load i32, ptr %cp, align 4
  %on = icmp ne i32 %cv, 0
  br i1 %on, label %then, label %latch
then:
  %r = urem i32 %x, %odd
  %idx = add i32 %r, %i
  %p = getelementptr i32, ptr %a, i32 %idx
  store i32 1, ptr %p, align 4
  br label %latch
latch:
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; The divisor may be zero (or, signed, -1; or poison): the division stays
; where it is, and the loop is not vectorized.
; CHECK-LABEL: define void @kept_scalar(
; CHECK: then:
; CHECK-NEXT: %r = urem i32 %x, %m
; CHECK: then2:
; CHECK-NEXT: %q = sdiv i32 %x, %odd
; CHECK: br i1 %more, label %loop, label %exit, !llvm.loop [[SCALAR:![0-9]+]]
define void @kept_scalar(ptr %a, ptr %c, i32 %x, i32 %m, i32 %n) {
entry:
  %odd = or i32 %m, 1
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %cp = getelementptr i32, ptr %c, i32 %i
  %cv = load i32, ptr %cp, align 4
  %on = icmp ne i32 %cv, 0
  br i1 %on, label %then, label %then2
then:
  %r = urem i32 %x, %m
  %idx = add i32 %r, %i
  %p = getelementptr i32, ptr %a, i32 %idx
  store i32 1, ptr %p, align 4
  br label %latch
then2:
  %q = sdiv i32 %x, %odd
  %idx2 = add i32 %q, %i
  %p2 = getelementptr i32, ptr %a, i32 %idx2
  store i32 2, ptr %p2, align 4
  br label %latch
latch:
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; %t is not zero where it is defined (%v divides before it, and trunc nuw
; keeps a value non-zero), but its nuw holds only where %v < 256, which the
; loop's condition ensured before %t was hoisted out of it: here %t may be
; poison, and dividing by it before the loop would be undefined (a machine
; division by zero for %v = 1024).
; CHECK-LABEL: define void @poison_divisor(
; CHECK: entry:
; CHECK-NOT: urem i8
; CHECK: then:
; CHECK-NEXT: %r = urem i8 105, %t
; CHECK: br i1 %more, label %loop, label %exit, !llvm.loop [[SCALAR2:![0-9]+]]
define void @poison_divisor(ptr %a, ptr %c, ptr %pn, i32 %n) {
entry:
  %v = load i32, ptr %pn, align 4
  %first = urem i32 5, %v
  store i32 %first, ptr %a, align 4
  %t = trunc nuw i32 %v to i8
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %cp = getelementptr i32, ptr %c, i32 %i
  %cv = load i32, ptr %cp, align 4
  %small = icmp ult i32 %v, 106
  br i1 %small, label %then, label %latch
then:
  %r = urem i8 105, %t
  %r32 = zext i8 %r to i32
  %idx = add i32 %r32, %i
  %p = getelementptr i32, ptr %a, i32 %idx
  store i32 1, ptr %p, align 4
  br label %latch
latch:
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; Left alone: a division in every iteration (the vectorizer does not
; predicate it), one of a value the loop changes (computed per lane) and one
; by a non-zero constant (safe to run anywhere).
; CHECK-LABEL: define void @untouched(
; CHECK: loop:
; CHECK: %every = udiv i32 %x, %m
; CHECK: then:
; CHECK-NEXT: %varying = udiv i32 %i, %m
; CHECK-NEXT: %constant = udiv i32 %x, 7
; CHECK: br i1 %more, label %loop, label %exit{{$}}
define void @untouched(ptr %a, ptr %c, i32 %x, i32 %m, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %every = udiv i32 %x, %m
  %cp = getelementptr i32, ptr %c, i32 %i
  store i32 %every, ptr %cp, align 4
  %cv = load i32, ptr %cp, align 4
  %on = icmp ne i32 %cv, 0
  br i1 %on, label %then, label %latch
then:
  %varying = udiv i32 %i, %m
  %constant = udiv i32 %x, 7
  %sum = add i32 %varying, %constant
  %p = getelementptr i32, ptr %a, i32 %sum
  store i32 1, ptr %p, align 4
  br label %latch
latch:
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; CHECK: [[SCALAR]] = distinct !{[[SCALAR]], [[DISABLE:![0-9]+]]}
; CHECK: [[DISABLE]] = !{!"llvm.loop.vectorize.enable", i32 0}
; CHECK: [[SCALAR2]] = distinct !{[[SCALAR2]], [[DISABLE]]}
