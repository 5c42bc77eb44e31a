//===- InlineAsmPassTest.cpp - cucpu-inline-asm on hand-written IR --------===//
//
// IR in, IR out: InlineAsm calls as cucc's clang writes them, run through
// cucpu-inline-asm alone (then instcombine, so that an asm of constants folds
// to the constant the PTX computes), and the module that comes out checked.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/passes/LoweringDiagnostic.h"
#include "cucpu/modules/passes/PassRegistry.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace llvm;
using namespace cucpu::modules;

namespace {

const char *const Header = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
)";

/// A module after cucpu-inline-asm (and \p Extra passes), with the
/// failures the pass reported.
struct Lowered {
  LLVMContext Context;
  std::unique_ptr<Module> M;
  std::string Errors; ///< The pass's failures, as one message.

  /// The constant \p Fn returns, if its return value folded to one.
  const ConstantInt *returned(StringRef Fn) const {
    const Function *F = M->getFunction(Fn);
    if (!F)
      return nullptr;
    for (const Instruction &I : instructions(*F))
      if (const auto *Ret = dyn_cast<ReturnInst>(&I))
        return dyn_cast_or_null<ConstantInt>(Ret->getReturnValue());
    return nullptr;
  }
  /// The IR of \p Fn, for failure messages.
  std::string ir(StringRef Fn) const {
    std::string Text;
    raw_string_ostream OS(Text);
    if (const Function *F = M->getFunction(Fn))
      F->print(OS);
    return Text;
  }
  /// Whether an InlineAsm call or a generated function is left.
  bool asmLeft() const {
    for (const Function &F : *M) {
      if (F.getName().starts_with("__cucpu_inline_asm"))
        return true;
      for (const Instruction &I : instructions(F))
        if (const auto *Call = dyn_cast<CallBase>(&I))
          if (Call->isInlineAsm())
            return true;
    }
    return false;
  }
};

/// Joins the messages of the passes' errors.
struct ErrorCollector : DiagnosticHandler {
  std::string &Errors;
  explicit ErrorCollector(std::string &Errors) : Errors(Errors) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (const auto *LD = dyn_cast<LoweringDiagnostic>(&DI))
      Errors += (Errors.empty() ? "" : " ") + LD->message();
    return true;
  }
};

std::unique_ptr<Lowered> lower(const std::string &Body,
                               StringRef Extra = "function(instcombine)") {
  auto L = std::make_unique<Lowered>();
  SMDiagnostic Diag;
  L->M = parseAssemblyString(std::string(Header) + Body, Diag, L->Context);
  if (!L->M) {
    std::string Msg;
    raw_string_ostream OS(Msg);
    Diag.print("test", OS);
    ADD_FAILURE() << Msg;
    return L;
  }
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  registerLoweringPasses(PB, nullptr);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM;
  std::string Pipeline = "cucpu-inline-asm";
  if (!Extra.empty())
    Pipeline += "," + Extra.str();
  if (Error E = PB.parsePassPipeline(MPM, Pipeline)) {
    ADD_FAILURE() << toString(std::move(E));
    return L;
  }
  L->Context.setDiagnosticHandler(std::make_unique<ErrorCollector>(L->Errors));
  MPM.run(*L->M, MAM);
  std::string Broken;
  raw_string_ostream OS(Broken);
  EXPECT_FALSE(verifyModule(*L->M, &OS)) << Broken;
  return L;
}

TEST(InlineAsmPass, ArithmeticOfConstantsFoldsToWhatThePtxComputes) {
  auto L = lower(R"(
define i32 @add() {
  %r = call i32 asm "add.u32 $0, $1, $2;", "=r,r,r"(i32 40, i32 2)
  ret i32 %r
}
define i32 @immediate() {
  %r = call i32 asm "{\0A\09.reg .u32 t;\0A\09add.u32 t, $1, $2;\0A\09shl.b32 $0, t, $3;\0A\09}", "=r,r,r,n"(i32 1, i32 2, i32 4)
  ret i32 %r
}
define i32 @tied() {
  %r = call i32 asm "add.u32 $0, $0, 1; // ${:uid} $$", "=r,0,~{memory}"(i32 41)
  ret i32 %r
}
define i64 @wide(i64 %x) {
  %r = call i64 asm "mul.lo.u64 $0, $1, 3;", "=l,l"(i64 5)
  ret i64 %r
}
)");
  ASSERT_TRUE(L->M);
  EXPECT_EQ("", L->Errors);
  EXPECT_FALSE(L->asmLeft()) << "every asm is replaced by its translation";
  for (auto [Fn, Want] : {std::pair<const char *, uint64_t>{"add", 42},
                          {"immediate", 48},
                          {"tied", 42},
                          {"wide", 15}}) {
    const ConstantInt *R = L->returned(Fn);
    ASSERT_TRUE(R) << Fn << " folds to a constant:\n" << L->ir(Fn);
    EXPECT_EQ(Want, R->getZExtValue()) << Fn << ": the asm's result";
  }
}

TEST(InlineAsmPass, SeveralOutputsFillTheCallsStruct) {
  // mov.b64 {lo, hi} unpacks a 64-bit register; setp/selp write a second
  // output.
  auto L = lower(R"(
define i32 @lo() {
  %p = call { i32, i32 } asm "mov.b64 {$0,$1}, $2;", "=r,=r,l"(i64 81604378625)
  %lo = extractvalue { i32, i32 } %p, 0
  ret i32 %lo
}
define i32 @hi() {
  %p = call { i32, i32 } asm "mov.b64 {$0,$1}, $2;", "=r,=r,l"(i64 81604378625)
  %hi = extractvalue { i32, i32 } %p, 1
  ret i32 %hi
}
define i32 @second() {
  %p = call { i32, i32 } asm "{\0A .reg .pred p;\0A setp.lt.s32 p, $2, 0;\0A selp.b32 $1, 1, 0, p;\0A mov.b32 $0, $2;\0A}", "=r,=r,r"(i32 -7)
  %s = extractvalue { i32, i32 } %p, 1
  ret i32 %s
}
)");
  ASSERT_TRUE(L->M);
  EXPECT_EQ("", L->Errors);
  EXPECT_FALSE(L->asmLeft());
  for (auto [Fn, Want] : {std::pair<const char *, uint64_t>{"lo", 1},
                          {"hi", 19},
                          {"second", 1}}) {
    const ConstantInt *R = L->returned(Fn);
    ASSERT_TRUE(R) << Fn << " folds to a constant:\n" << L->ir(Fn);
    EXPECT_EQ(Want, R->getZExtValue()) << Fn;
  }
}

TEST(InlineAsmPass, OperandsOfEveryRegisterClass) {
  // "h" 16 bits, "c" a char in a 16-bit register, "f"/"d" floating point,
  // "r" holding a float's bits or a half2's, "l" a pointer.
  auto L = lower(R"(
define i16 @h() {
  %r = call i16 asm "add.s16 $0, $1, $2;", "=h,h,c"(i16 300, i8 5)
  ret i16 %r
}
define i32 @f() {
  %r = call float asm "add.f32 $0, $1, $2;", "=f,f,f"(float 1.5, float 2.0)
  %b = bitcast float %r to i32
  ret i32 %b
}
define i64 @d() {
  %r = call double asm "mul.f64 $0, $1, $2;", "=d,d,d"(double 1.5, double 4.0)
  %b = bitcast double %r to i64
  ret i64 %b
}
define i32 @bits() {
  %r = call i32 asm "mov.b32 $0, $1;", "=r,r"(float 1.0)
  ret i32 %r
}
define i32 @half2() {
  %r = call <2 x half> asm "add.u32 $0, $1, 1;", "=r,r"(<2 x half> <half 0xH3C00, half 0xH4000>)
  %b = bitcast <2 x half> %r to i32
  ret i32 %b
}
define i64 @pointer(ptr %p) {
  %r = call i64 asm "add.u64 $0, $1, 8;", "=l,l"(ptr null)
  ret i64 %r
}
)");
  ASSERT_TRUE(L->M);
  EXPECT_EQ("", L->Errors);
  EXPECT_FALSE(L->asmLeft());
  for (auto [Fn, Want] : {std::pair<const char *, uint64_t>{"h", 305},
                          {"f", 0x40600000},         // 3.5f
                          {"d", 0x4018000000000000}, // 6.0
                          {"bits", 0x3f800000},      // 1.0f
                          {"half2", 0x40003c01},     // (1.0, 2.0) + 1
                          {"pointer", 8}}) {
    const ConstantInt *R = L->returned(Fn);
    ASSERT_TRUE(R) << Fn << " folds to a constant:\n" << L->ir(Fn);
    EXPECT_EQ(Want, R->getZExtValue()) << Fn;
  }
}

TEST(InlineAsmPass, SpecialRegistersBecomeTheirIntrinsics) {
  auto L = lower(R"(
define i32 @lane() {
  %r = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  ret i32 %r
}
)",
                 "");
  ASSERT_TRUE(L->M);
  EXPECT_EQ("", L->Errors);
  EXPECT_FALSE(L->asmLeft());
  EXPECT_NE(std::string::npos,
            L->ir("lane").find("@llvm.nvvm.read.ptx.sreg.laneid"))
      << "%laneid is read as clang reads it:\n"
      << L->ir("lane");
  EXPECT_EQ(nullptr, L->M->getFunction("__cucpu_inline_asm_0"))
      << "the generated function is inlined and removed";
}

TEST(InlineAsmPass, IdenticalAsmIsTranslatedOnce) {
  auto L = lower(R"(
define i32 @twice(i32 %a, i32 %b) {
  %x = call i32 asm "add.u32 $0, $1, $2;", "=r,r,r"(i32 %a, i32 %b)
  %y = call i32 asm "add.u32 $0, $1, $2;", "=r,r,r"(i32 %x, i32 %b)
  ret i32 %y
}
)",
                 "");
  ASSERT_TRUE(L->M);
  EXPECT_EQ("", L->Errors);
  EXPECT_FALSE(L->asmLeft());
  unsigned Adds = 0;
  for (const Instruction &I : instructions(*L->M->getFunction("twice")))
    Adds += I.getOpcode() == Instruction::Add;
  EXPECT_EQ(2u, Adds) << L->ir("twice");
}

TEST(InlineAsmPass, MemoryClobberIsACompilerBarrier) {
  auto L = lower(R"(
define void @barrier(ptr %p) {
  store i32 1, ptr %p
  call void asm sideeffect "", "~{memory}"()
  store i32 2, ptr %p
  ret void
}
)",
                 "");
  ASSERT_TRUE(L->M);
  EXPECT_EQ("", L->Errors);
  EXPECT_FALSE(L->asmLeft());
  unsigned Fences = 0;
  for (const Instruction &I : instructions(*L->M->getFunction("barrier")))
    if (const auto *F = dyn_cast<FenceInst>(&I))
      Fences += F->getSyncScopeID() == SyncScope::SingleThread;
  EXPECT_EQ(2u, Fences) << "the stores stay on either side of the asm:\n"
                        << L->ir("barrier");
}

TEST(InlineAsmPass, VolatileAsmAccessesMemoryEachTime) {
  // CUB's ThreadLoad<LOAD_CG> in a spin loop: an asm volatile load must not
  // be hoisted out of the loop, so it is a volatile load; the same load in
  // a plain asm may be optimized like any other.
  auto L = lower(R"(
define i32 @spin(ptr %flag) {
  %v = call i32 asm sideeffect "ld.global.cg.u32 $0, [$1];", "=r,l"(ptr %flag)
  %w = call i32 asm "ld.global.cg.u32 $0, [$1];", "=r,l"(ptr %flag)
  %s = add i32 %v, %w
  ret i32 %s
}
)",
                 "");
  ASSERT_TRUE(L->M);
  EXPECT_EQ("", L->Errors);
  EXPECT_FALSE(L->asmLeft());
  unsigned Volatile = 0, Plain = 0, Allocas = 0;
  for (const Instruction &I : instructions(*L->M->getFunction("spin"))) {
    if (const auto *Load = dyn_cast<LoadInst>(&I))
      (Load->isVolatile() ? Volatile : Plain) += 1;
    Allocas += isa<AllocaInst>(I);
  }
  EXPECT_EQ(1u, Volatile) << L->ir("spin");
  EXPECT_EQ(1u, Plain) << L->ir("spin");
  EXPECT_EQ(0u, Allocas) << "the results' slots are still promoted:\n"
                         << L->ir("spin");
}

TEST(InlineAsmPass, AnInstructionTheFrontEndLacksFailsTheLoad) {
  auto L = lower(R"(
define i32 @bad(i32 %a) {
  %r = call i32 asm "mov.u32 $0, $1;\0A\09frobnicate.u32 $0, $0;", "=r,r"(i32 %a)
  ret i32 %r
}
define i32 @again(i32 %a) {
  %r = call i32 asm "mov.u32 $0, $1;\0A\09frobnicate.u32 $0, $0;", "=r,r"(i32 %a)
  %s = call i32 asm "mov.u32 $0, $1;\0A\09frobnicate.u32 $0, $0;", "=r,r"(i32 %r)
  ret i32 %s
}
)",
                 "");
  ASSERT_TRUE(L->M);
  EXPECT_NE(std::string::npos, L->Errors.find("Function bad"))
      << "the message names the function: " << L->Errors;
  EXPECT_NE(std::string::npos,
            L->Errors.find("mov.u32 $0, $1; frobnicate.u32 $0, $0;"))
      << "the message names the asm text: " << L->Errors;
  EXPECT_NE(std::string::npos, L->Errors.find("line 2 of the asm"))
      << "the line is counted in the asm: " << L->Errors;
  EXPECT_FALSE(L->asmLeft()) << "later passes do not meet the asm";
  size_t First = L->Errors.find("contains inline PTX assembly");
  EXPECT_EQ(std::string::npos,
            L->Errors.find("contains inline PTX assembly", First + 1))
      << "the same asm failing in three places is one message: " << L->Errors;
}

TEST(InlineAsmPass, UnsupportedOperandsFailTheLoad) {
  struct Case {
    const char *Ir, *Why;
  } Cases[] = {
      {R"(define void @m(ptr %p) {
  call void asm "st.u32 $0, 1;", "=*m"(ptr elementtype(i32) %p)
  ret void
})",
       "memory operand"},
      {R"(define i32 @q() {
  %r = call i32 asm "mov.u32 $0, 1;", "=x"()
  ret i32 %r
})",
       "constraint"},
      {R"(define i32 @mod(i32 %a) {
  %r = call i32 asm "mov.u32 $0, ${1:x};", "=r,r"(i32 %a)
  ret i32 %r
})",
       "modifier"},
      {R"(define i32 @missing(i32 %a) {
  %r = call i32 asm "mov.u32 $0, $3;", "=r,r"(i32 %a)
  ret i32 %r
})",
       "operand %3"},
  };
  for (const Case &C : Cases) {
    auto L = lower(C.Ir, "");
    ASSERT_TRUE(L->M);
    EXPECT_NE(std::string::npos, L->Errors.find(C.Why))
        << "the message says what is wrong: " << L->Errors;
    EXPECT_NE(std::string::npos, L->Errors.find("inline PTX assembly"))
        << L->Errors;
  }
}

} // namespace
