//===- IntegerAddressesTest.cpp - PTX's integer addresses as pointers -----===//

#include "IntegerAddresses.h"

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

/// Runs the pass on the function @f of \p IR and returns the module.
std::unique_ptr<Module> rewrite(LLVMContext &C, const char *IR) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(IR, Err, C);
  if (!M) {
    ADD_FAILURE() << Err.getMessage().str();
    return nullptr;
  }
  FunctionAnalysisManager FAM;
  cucpu::ptx::IntegerAddressesPass().run(*M->getFunction("f"), FAM);
  std::string Problems;
  raw_string_ostream OS(Problems);
  EXPECT_FALSE(verifyModule(*M, &OS)) << Problems;
  return M;
}

/// The operands of the function's inttoptr instructions.
std::vector<Value *> castOperands(Function &F) {
  std::vector<Value *> Ops;
  for (Instruction &I : instructions(F))
    if (auto *Cast = dyn_cast<IntToPtrInst>(&I))
      Ops.push_back(Cast->getOperand(0));
  return Ops;
}

std::string text(const Value &V) {
  std::string S;
  raw_string_ostream OS(S);
  V.print(OS);
  return S;
}

TEST(PtxIntegerAddresses, ParameterPlusScaledIndexIsAGep) {
  LLVMContext C;
  auto M = rewrite(C, R"(
define void @f(i64 %param, i32 %i) {
  %wide = sext i32 %i to i64
  %scaled = shl i64 %wide, 2
  %addr = add i64 %scaled, %param
  %p = inttoptr i64 %addr to ptr
  store float 1.0, ptr %p
  %next = add i64 %addr, 64
  %q = inttoptr i64 %next to ptr
  store float 2.0, ptr %q
  ret void
}
)");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  // Only the parameter is converted; the stores go through GEPs of it.
  std::vector<Value *> Ops = castOperands(F);
  ASSERT_EQ(1u, Ops.size());
  EXPECT_EQ(F.getArg(0), Ops[0]);
  for (Instruction &I : instructions(F)) {
    if (auto *S = dyn_cast<StoreInst>(&I)) {
      auto *G = dyn_cast<GetElementPtrInst>(S->getPointerOperand());
      ASSERT_NE(nullptr, G) << text(*S);
      EXPECT_FALSE(G->isInBounds()) << "the address is the integer's";
    }
  }
}

TEST(PtxIntegerAddresses, SteppedPointerBecomesAPointerPhi) {
  LLVMContext C;
  auto M = rewrite(C, R"(
define void @f(i64 %param, i64 %n) {
entry:
  br label %loop
loop:
  %addr = phi i64 [ %param, %entry ], [ %step, %loop ]
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %p = inttoptr i64 %addr to ptr
  store i32 0, ptr %p
  %step = add i64 %addr, 16
  %k.next = add i64 %k, 1
  %more = icmp slt i64 %k.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
)");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  PHINode *PointerPhi = nullptr;
  for (BasicBlock &BB : F)
    for (PHINode &Phi : BB.phis())
      if (Phi.getType()->isPointerTy())
        PointerPhi = &Phi;
  ASSERT_NE(nullptr, PointerPhi) << "the address phi has a pointer twin";
  for (Instruction &I : instructions(F)) {
    if (auto *S = dyn_cast<StoreInst>(&I)) {
      EXPECT_EQ(PointerPhi, S->getPointerOperand());
    }
  }
  std::vector<Value *> Ops = castOperands(F);
  ASSERT_EQ(1u, Ops.size());
  EXPECT_EQ(F.getArg(0), Ops[0]);
}

TEST(PtxIntegerAddresses, IntegersThatAreNoAddressesStay) {
  LLVMContext C;
  // A product has no base; nor has a difference of two addresses.
  auto M = rewrite(C, R"(
define void @f(i64 %a, i64 %b) {
  %prod = mul i64 %a, %b
  %p = inttoptr i64 %prod to ptr
  store i8 0, ptr %p
  %diff = sub i64 %a, %b
  %q = inttoptr i64 %diff to ptr
  store i8 0, ptr %q
  ret void
}
)");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  std::vector<Value *> Ops = castOperands(F);
  ASSERT_EQ(2u, Ops.size());
  EXPECT_EQ("prod", Ops[0]->getName());
  EXPECT_EQ("diff", Ops[1]->getName());
}

TEST(PtxIntegerAddresses, PhiOfAnAddressAndAnIndexIsNoAddress) {
  LLVMContext C;
  // %x is an address on one path and a plain product on the other: the
  // phi is no address, nor is what is computed from it.
  auto M = rewrite(C, R"(
define void @f(i64 %param, i64 %i, i1 %c) {
entry:
  %prod = mul i64 %i, 3
  br i1 %c, label %a, label %b
a:
  %base = add i64 %param, 8
  br label %b
b:
  %x = phi i64 [ %base, %a ], [ %prod, %entry ]
  %y = add i64 %x, 4
  %p = inttoptr i64 %y to ptr
  store i8 0, ptr %p
  ret void
}
)");
  ASSERT_TRUE(M);
  std::vector<Value *> Ops = castOperands(*M->getFunction("f"));
  ASSERT_EQ(1u, Ops.size());
  EXPECT_EQ("y", Ops[0]->getName());
}

} // namespace
