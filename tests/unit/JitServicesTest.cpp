//===- JitServicesTest.cpp - The engine's services as IR ------------------===//
#include "cucpu/modules/passes/JitServices.h"
#include "cucpu/modules/abi/JitAbi.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace cucpu::modules;

namespace {

std::string typeText(llvm::Type *T) {
  std::string Text;
  llvm::raw_string_ostream(Text) << *T;
  return Text;
}

TEST(JitServices, IRTypesFollowTheCDeclarations) {
  llvm::LLVMContext Ctx;
  EXPECT_EQ(typeText(jitServiceType(Ctx, JitService::__cucpu_barrier)),
            "void (ptr)");
  EXPECT_EQ(typeText(jitServiceType(Ctx, JitService::__cucpu_warp_match)),
            "i32 (ptr, i32, i64, i32, ptr)");
  EXPECT_EQ(typeText(jitServiceType(Ctx, JitService::__cucpu_device_malloc)),
            "ptr (i64)");
  EXPECT_EQ(typeText(jitServiceType(Ctx, JitService::__cucpu_warp_exchange)),
            "void (ptr, i32, i32, i32, ptr, i32, i32, i32)");
  EXPECT_EQ(jitServiceSymbol(JitService::__cucpu_device_malloc), "malloc");
  EXPECT_EQ(jitServiceSymbol(JitService::__cucpu_barrier), "__cucpu_barrier");
}

TEST(JitServices, DeclarationsHaveTheServicesTypes) {
  llvm::LLVMContext Ctx;
  llvm::Module M("m", Ctx);
  for (JitService S : {JitService::__cucpu_barrier, JitService::__cucpu_trap,
                       JitService::__cucpu_block_reduce})
    declareJitService(M, S);
  EXPECT_EQ(checkJitServices(M), std::nullopt);
  EXPECT_EQ(declareJitService(M, JitService::__cucpu_barrier).getCallee(),
            M.getFunction("__cucpu_barrier"))
      << "declared once";
}

TEST(JitServices, AServiceDeclaredWithAnotherTypeIsAnInternalError) {
  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Diag;
  auto M = llvm::parseAssemblyString("declare void @__cucpu_barrier(ptr, i32)\n"
                                     "declare ptr @malloc(i64)\n",
                                     Diag, Ctx);
  ASSERT_TRUE(M);
  std::optional<std::string> Problem = checkJitServices(*M);
  ASSERT_TRUE(Problem);
  const std::string &Message = *Problem;
  EXPECT_NE(Message.find("__cucpu_barrier is declared as void (ptr, i32), "
                         "but JitAbi.h has void (ptr)"),
            std::string::npos)
      << Message;
}

} // namespace
