//===- NaNCanonicalizationTest.cpp - Only the NaNs someone can see --------===//

#include "NaNCanonicalization.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace llvm;

namespace {

/// Runs the pass on @f of \p IR; returns the names of the selects left.
std::vector<std::string> selectsLeft(const char *IR) {
  LLVMContext C;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(IR, Err, C);
  if (!M) {
    ADD_FAILURE() << Err.getMessage().str();
    return {};
  }
  FunctionAnalysisManager FAM;
  cucpu::ptx::NaNCanonicalizationPass().run(*M->getFunction("f"), FAM);
  std::string Problems;
  raw_string_ostream OS(Problems);
  EXPECT_FALSE(verifyModule(*M, &OS)) << Problems;
  std::vector<std::string> Left;
  for (Instruction &I : instructions(*M->getFunction("f")))
    if (isa<SelectInst>(I))
      Left.push_back(I.getName().str());
  return Left;
}

TEST(PtxNaNCanonicalization, OnlyTheStoredEndOfAChainIsCanonicalized) {
  // An inner product: the NaN of the first fma only reaches the second
  // fma; the second's is stored.
  std::vector<std::string> Left = selectsLeft(R"(
define void @f(float %a, float %b, float %c, ptr %out) {
  %p = call float @llvm.fma.f32(float %a, float %b, float %c)
  %pn = fcmp uno float %p, 0.0
  %p.c = select i1 %pn, float 0x7FFFFFFFE0000000, float %p
  %q = call float @llvm.fma.f32(float %a, float %b, float %p.c)
  %qn = fcmp uno float %q, %q
  %q.c = select i1 %qn, float 0x7FFFFFFFE0000000, float %q
  store float %q.c, ptr %out
  ret void
}
declare float @llvm.fma.f32(float, float, float)
)");
  EXPECT_EQ(std::vector<std::string>{"q.c"}, Left);
}

TEST(PtxNaNCanonicalization, UsesThatSeeTheBitsKeepIt) {
  // A bitcast, a call and a phi that reaches a store all see the bits.
  std::vector<std::string> Left = selectsLeft(R"(
define i32 @f(float %a, i1 %c, ptr %out) {
entry:
  %x = fadd float %a, %a
  %xn = fcmp uno float %x, 0.0
  %x.c = select i1 %xn, float 0x7FFFFFFFE0000000, float %x
  %bits = bitcast float %x.c to i32
  %y = fmul float %a, %a
  %yn = fcmp uno float %y, 0.0
  %y.c = select i1 %yn, float 0x7FFFFFFFE0000000, float %y
  call void @g(float %y.c)
  %z = fsub float %a, 1.0
  %zn = fcmp uno float %z, 0.0
  %z.c = select i1 %zn, float 0x7FFFFFFFE0000000, float %z
  br i1 %c, label %then, label %join
then:
  br label %join
join:
  %m = phi float [ %z.c, %entry ], [ 0.0, %then ]
  %m2 = fadd float %m, 2.0
  store float %m2, ptr %out
  ret i32 %bits
}
declare void @g(float)
)");
  EXPECT_EQ((std::vector<std::string>{"x.c", "y.c", "z.c"}), Left);
}

TEST(PtxNaNCanonicalization, ComparedOnlyOrRecanonicalizedIsRemoved) {
  // %a.c is only compared; %l.c is the loop's accumulator, canonicalized
  // again before the loop's result is stored.
  std::vector<std::string> Left = selectsLeft(R"(
define i1 @f(float %a, i32 %n, ptr %out) {
entry:
  %an = fcmp uno float %a, 0.0
  %a.c = select i1 %an, float 0x7FFFFFFFE0000000, float %a
  %less = fcmp olt float %a.c, 1.0
  br label %loop
loop:
  %acc = phi float [ 0.0, %entry ], [ %l.c, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %l = fadd float %acc, %a
  %ln = fcmp uno float %l, 0.0
  %l.c = select i1 %ln, float 0x7FFFFFFFE0000000, float %l
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  %r = fmul float %l.c, 1.0
  %rn = fcmp uno float %r, 0.0
  %r.c = select i1 %rn, float 0x7FFFFFFFE0000000, float %r
  store float %r.c, ptr %out
  ret i1 %less
}
)");
  EXPECT_EQ(std::vector<std::string>{"r.c"}, Left);
}

} // namespace
