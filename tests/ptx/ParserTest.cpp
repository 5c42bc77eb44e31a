//===- ParserTest.cpp - The PTX parser and translator on snippets ---------===//

#include "Parser.h"
#include "PtxError.h"
#include "Translator.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

using namespace cucpu::ptx;

namespace {

const char *Header = ".version 7.8\n.target sm_75\n.address_size 64\n";

/// The message and line of a failed parse or translation.
struct Failure {
  PtxErrorKind Kind = PtxErrorKind::Invalid;
  unsigned Line = 0;
  std::string Message;
};

template <class T> Failure failure(llvm::Expected<T> Result) {
  Failure F;
  EXPECT_FALSE(static_cast<bool>(Result)) << "expected an error";
  if (Result)
    return F;
  llvm::handleAllErrors(Result.takeError(), [&](const PtxError &E) {
    F.Kind = E.kind();
    F.Line = E.line();
    F.Message = E.message();
  });
  return F;
}

TEST(PtxParser, ModuleDirectivesAndDeclarations) {
  auto M = parse(std::string(Header) + R"(
.global .align 4 .u32 table[4] = {1, 2, 3, 4};
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 .ptr .global .align 8 out, .param .align 8 .b8 s[16])
.maxntid 128, 2
{
  .reg .b32 %r<10>;
  @!%p1 add.s32 %r1, %r2, -4;
  st.global.v2.u32 [%rd1+-8], {%r1, %r2};
  setp.lt.u32 %p1|%p2, %r2, 64;
}
)");
  ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(7u, M->VersionMajor);
  EXPECT_EQ(8u, M->VersionMinor);
  EXPECT_EQ("sm_75", M->Target);
  ASSERT_EQ(2u, M->Globals.size());
  EXPECT_EQ(4u, M->Globals[0].Init.size()) << "initializer elements";
  EXPECT_TRUE(M->Globals[1].Extern);
  EXPECT_EQ(16u, M->Globals[1].Align);
  ASSERT_EQ(1u, M->Functions.size());
  const Function &F = M->Functions[0];
  EXPECT_TRUE(F.IsEntry);
  ASSERT_EQ(2u, F.Params.size());
  EXPECT_EQ(Space::Global, F.Params[0].PointsTo) << ".ptr .global";
  EXPECT_TRUE(F.Params[1].IsArray) << "a struct passed by value";
  EXPECT_EQ(128u, F.MaxNTid[0]);
  EXPECT_EQ(2u, F.MaxNTid[1]);
  EXPECT_EQ(1u, F.MaxNTid[2]) << "omitted dimensions are 1";
  const auto &S = F.Body->Statements;
  ASSERT_EQ(4u, S.size());
  EXPECT_EQ(10u, S[0].Decl.RangeCount);
  const Instruction &Add = S[1].Instr;
  EXPECT_EQ("%p1", Add.Guard);
  EXPECT_TRUE(Add.GuardNegated);
  EXPECT_EQ(uint64_t(-4), Add.Operands[2].Value) << "negative immediate";
  const Instruction &St = S[2].Instr;
  EXPECT_EQ((std::vector<std::string>{"global", "v2", "u32"}), St.Modifiers);
  EXPECT_EQ(Operand::Kind::Address, St.Operands[0].K);
  EXPECT_EQ(uint64_t(-8), St.Operands[0].Value) << "[%rd1+-8]";
  EXPECT_EQ(Operand::Kind::Vector, St.Operands[1].K);
  EXPECT_EQ(Operand::Kind::Pair, S[3].Instr.Operands[0].K) << "%p1|%p2";
}

TEST(PtxParser, QualifiedModifiers) {
  auto M = parse(std::string(Header) + R"(
.visible .entry k()
{
  ld.shared::cta.u32 %r1, [%r2];
  ld.global.L1::evict_last.L2::128B.f32 %f1, [%rd1];
  atom.shared::cluster.add.u32 %r3, [%r2], 1;
}
)");
  ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
  const auto &S = M->Functions[0].Body->Statements;
  ASSERT_EQ(3u, S.size());
  EXPECT_EQ((std::vector<std::string>{"shared", "u32"}), S[0].Instr.Modifiers)
      << ".shared::cta is the .shared window";
  EXPECT_EQ(
      (std::vector<std::string>{"global", "L1::evict_last", "L2::128B", "f32"}),
      S[1].Instr.Modifiers);
  EXPECT_EQ((std::vector<std::string>{"shared::cluster", "add", "u32"}),
            S[2].Instr.Modifiers);
}

TEST(PtxParser, ErrorsNameTheLine) {
  Failure F =
      failure(parse(std::string(Header) +
                    ".visible .entry k()\n{\n  add.s32 %r1, %r2 %r3;\n}\n"));
  EXPECT_EQ(6u, F.Line) << F.Message;
  EXPECT_NE(std::string::npos, F.Message.find("expected ','")) << F.Message;

  F = failure(parse(".version 7.0\n.target sm_75\n/* unterminated"));
  EXPECT_EQ(PtxErrorKind::Invalid, F.Kind);
  EXPECT_NE(std::string::npos, F.Message.find("comment")) << F.Message;

  F = failure(parse(".target sm_75\n.address_size 64\n"));
  EXPECT_NE(std::string::npos, F.Message.find(".version")) << F.Message;

  F = failure(parse(std::string(Header) +
                    ".visible .entry k()\n{\n .reg .b32 %r<99999999>;\n}\n"));
  EXPECT_NE(std::string::npos, F.Message.find("register range")) << F.Message;
}

TEST(PtxParser, NewerVersionIsUnsupportedVersion) {
  Failure F = failure(parse(".version 12.0\n.target sm_75\n"));
  EXPECT_EQ(PtxErrorKind::UnsupportedVersion, F.Kind) << F.Message;
  EXPECT_EQ(1u, F.Line);
}

TEST(PtxParser, DeepNestingIsAnErrorNotACrash) {
  std::string Text = std::string(Header) + ".visible .entry k()\n{\n";
  for (int I = 0; I < 100000; ++I)
    Text += "{";
  Failure F = failure(parse(Text));
  EXPECT_NE(std::string::npos, F.Message.find("nested")) << F.Message;

  Text = std::string(Header) + ".global .u32 x[1] = ";
  for (int I = 0; I < 100000; ++I)
    Text += "{";
  F = failure(parse(Text));
  EXPECT_NE(std::string::npos, F.Message.find("nested")) << F.Message;
}

TEST(PtxTranslator, KernelsAreAnnotatedAndGlobalsInitialized) {
  llvm::LLVMContext C;
  auto M = compile(std::string(Header) + R"(
.visible .global .align 4 .u32 table[4] = {1, 2, 3, 4};
.visible .entry k(.param .u64 out)
.reqntid 64
{
  ret;
}
)",
                   C);
  ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
  llvm::NamedMDNode *MD = (*M)->getNamedMetadata("nvvm.annotations");
  ASSERT_NE(nullptr, MD) << "kernels are listed in nvvm.annotations";
  EXPECT_EQ(4u, MD->getNumOperands()) << "kernel and maxntidx/y/z";
  llvm::GlobalVariable *Table = (*M)->getGlobalVariable("table");
  ASSERT_NE(nullptr, Table);
  EXPECT_EQ(1u, Table->getAddressSpace()) << ".global is address space 1";
  auto *Init = llvm::dyn_cast<llvm::ConstantDataArray>(Table->getInitializer());
  ASSERT_NE(nullptr, Init);
  EXPECT_EQ(16u, Init->getNumElements());
  EXPECT_EQ(2u, Init->getElementAsInteger(4)) << "little-endian element 1";
}

TEST(PtxTranslator, UnknownSymbolsAndLabelsAreErrors) {
  llvm::LLVMContext C;
  Failure F = failure(compile(
      std::string(Header) + ".visible .entry k()\n{\n  bra $nowhere;\n}\n", C));
  EXPECT_EQ(6u, F.Line);
  EXPECT_NE(std::string::npos, F.Message.find("$nowhere")) << F.Message;

  F = failure(compile(std::string(Header) + ".visible .entry k()\n{\n"
                                            "  .reg .b32 %r1;\n"
                                            "  mov.u32 %r1, nothere;\n}\n",
                      C));
  EXPECT_NE(std::string::npos, F.Message.find("nothere")) << F.Message;
}

} // namespace
