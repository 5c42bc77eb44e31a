//===- ManagedVariablesTest.cpp - The host pass's managed-variable rewrite ===//
//
// IR in, IR out: host-pass IR as clang 19 writes it for a __managed__
// variable (a shadow, its annotation and its __cudaRegisterVar call), run
// through redirectManagedVariables.
//
//===----------------------------------------------------------------------===//
#include "ManagedVariables.h"

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
using namespace cucpu::cucc;

namespace {

/// `__managed__ int mv[4]; int main() { mv[1] = 3; return mv[0]; }` and an
/// annotated host-only global that must keep its annotation.
constexpr const char *HostPass = R"IR(
@mv = internal global [4 x i32] undef, align 16
@other = global i32 0
@.str = private constant [14 x i8] c"cucpu.managed\00", section "llvm.metadata"
@.str.user = private constant [5 x i8] c"user\00", section "llvm.metadata"
@.file = private constant [5 x i8] c"m.cu\00", section "llvm.metadata"
@name = private constant [3 x i8] c"mv\00"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @mv, ptr @.str, ptr @.file, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @other, ptr @.str.user, ptr @.file, i32 2, ptr null }
], section "llvm.metadata"

define i32 @main() {
  store i32 3, ptr getelementptr inbounds ([4 x i32], ptr @mv, i64 0, i64 1)
  %v = load i32, ptr @mv
  ret i32 %v
}

define internal void @__cuda_register_globals(ptr %h) {
  call void @__cudaRegisterVar(ptr %h, ptr @mv, ptr @name, ptr @name, i32 0, i64 16, i32 0, i32 0)
  ret void
}

declare void @__cudaRegisterVar(ptr, ptr, ptr, ptr, i32, i64, i32, i32)
)IR";

std::unique_ptr<Module> parse(LLVMContext &C, const char *Text) {
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseAssemblyString(Text, Diag, C);
  if (!M)
    ADD_FAILURE() << Diag.getMessage().str();
  return M;
}

TEST(ManagedVariables, HostAccessesGoThroughTheSlot) {
  LLVMContext C;
  std::unique_ptr<Module> M = parse(C, HostPass);
  ASSERT_TRUE(M);
  Expected<unsigned> Count = redirectManagedVariables(*M);
  ASSERT_TRUE(bool(Count)) << toString(Count.takeError());
  EXPECT_EQ(1u, *Count) << "one managed variable";
  EXPECT_FALSE(verifyModule(*M, &errs())) << "the result is valid IR";

  GlobalVariable *Slot = M->getNamedGlobal("mv.cucpu.managed");
  ASSERT_TRUE(Slot) << "the variable has a slot";
  EXPECT_EQ(M->getNamedGlobal("mv"), Slot->getInitializer())
      << "the slot starts at the shadow";

  Function *Main = M->getFunction("main");
  unsigned AddressCalls = 0;
  for (Instruction &I : instructions(*Main)) {
    auto *Call = dyn_cast<CallInst>(&I);
    bool IsAddress =
        Call && Call->getCalledFunction() &&
        Call->getCalledFunction()->getName() == "__cucpu_managed_address";
    AddressCalls += IsAddress;
    // The shadow appears only as what the slot is compared with.
    for (Use &Op : I.operands()) {
      auto *G = dyn_cast<GlobalVariable>(Op->stripPointerCasts());
      if (G && G->getName() == "mv") {
        EXPECT_TRUE(IsAddress && Op.getOperandNo() == 1)
            << "main reaches the variable only through the slot";
      }
    }
  }
  EXPECT_EQ(2u, AddressCalls) << "the store and the load each ask";

  EXPECT_FALSE(M->getFunction("__cudaRegisterVar")->hasNUsesOrMore(1))
      << "the variable is no longer registered as a plain variable";
  Function *Managed = M->getFunction("__cudaRegisterManagedVar");
  ASSERT_TRUE(Managed) << "it is registered as managed";
  auto *Register = cast<CallInst>(*Managed->user_begin());
  EXPECT_EQ(Slot, Register->getArgOperand(1)) << "with its slot";

  GlobalVariable *Annotations = M->getNamedGlobal("llvm.global.annotations");
  ASSERT_TRUE(Annotations) << "the user's annotation stays";
  EXPECT_EQ(1u, cast<ArrayType>(Annotations->getValueType())->getNumElements())
      << "only the user's";
}

TEST(ManagedVariables, NoManagedVariablesNoChange) {
  LLVMContext C;
  std::unique_ptr<Module> M =
      parse(C, "@g = global i32 0\ndefine i32 @f() {\n  %v = load i32, ptr "
               "@g\n  ret i32 %v\n}\n");
  ASSERT_TRUE(M);
  Expected<unsigned> Count = redirectManagedVariables(*M);
  ASSERT_TRUE(bool(Count)) << toString(Count.takeError());
  EXPECT_EQ(0u, *Count) << "nothing to do";
  EXPECT_FALSE(M->getFunction("__cucpu_managed_address"))
      << "no helper is added";
}

TEST(ManagedVariables, UseInAnotherInitializerIsAnError) {
  LLVMContext C;
  std::string Text = HostPass;
  Text += "@points = global ptr @mv\n";
  std::unique_ptr<Module> M = parse(C, Text.c_str());
  ASSERT_TRUE(M);
  Expected<unsigned> Count = redirectManagedVariables(*M);
  ASSERT_FALSE(bool(Count)) << "an initializer cannot be redirected";
  std::string Message = toString(Count.takeError());
  EXPECT_NE(std::string::npos, Message.find("'mv'")) << Message;
}

} // namespace
