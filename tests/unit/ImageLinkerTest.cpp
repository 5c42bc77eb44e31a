//===- ImageLinkerTest.cpp - modules::linkImages on hand-written IR -------===//
#include "cucpu/modules/ImageLinker.h"
#include "IrBitcode.h"
#include "cucpu/modules/JitError.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace cucpu;
using namespace cucpu::modules;

namespace {

const char *Header = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
)";

/// A kernel that calls scale(int) and reads offset, both defined elsewhere,
/// and printf, which the JIT provides.
LinkInput mainInput() {
  LinkInput In;
  In.Name = "main.o";
  In.Image.TargetArch = "sm_75";
  In.Image.Producer = "test";
  In.Image.Relocatable = true;
  In.Image.Bitcode = ::cucpu::testing::bitcodeOf(std::string(Header) + R"(
@offset = external addrspace(1) global i32, align 4
@bias = addrspace(4) externally_initialized global i32 7, align 4
declare i32 @_Z5scalei(i32)
declare i32 @vprintf(ptr, ptr)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
define void @apply(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = call i32 @_Z5scalei(i32 %t)
  %o = load i32, ptr addrspace(1) @offset
  %b = load i32, ptr addrspace(4) @bias
  %s = add i32 %v, %o
  %r = add i32 %s, %b
  store i32 %r, ptr %out
  %p = call i32 @vprintf(ptr null, ptr null)
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @apply, !"kernel", i32 1}
)");
  loader::KernelInfo K;
  K.Name = "apply";
  K.Params = {{0, 8, 8}};
  K.ParamBytes = 8;
  In.Image.Kernels.push_back(K);
  loader::GlobalInfo Bias;
  Bias.Name = "bias";
  Bias.Space = loader::GlobalSpace::Constant;
  Bias.Size = 4;
  Bias.Align = 4;
  Bias.Initializer = {7, 0, 0, 0};
  In.Image.Globals.push_back(Bias);
  return In;
}

/// Defines what mainInput() uses.
LinkInput libInput(const char *Name = "lib.o") {
  LinkInput In;
  In.Name = Name;
  In.Image.TargetArch = "sm_80";
  In.Image.Producer = "test";
  In.Image.Relocatable = true;
  In.Image.Bitcode = ::cucpu::testing::bitcodeOf(std::string(Header) + R"(
@offset = addrspace(1) externally_initialized global i32 100, align 4
define i32 @_Z5scalei(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}
)");
  loader::GlobalInfo Offset;
  Offset.Name = "offset";
  Offset.Size = 4;
  Offset.Align = 4;
  Offset.Initializer = {100, 0, 0, 0};
  In.Image.Globals.push_back(Offset);
  return In;
}

/// The message of a failed link, and its kind in \p Kind.
std::string failure(llvm::Expected<loader::ModuleImage> Result,
                    JitErrorKind &Kind) {
  if (Result) {
    ADD_FAILURE() << "the link succeeded";
    return "";
  }
  std::string Message;
  Kind = takeJitError(Result.takeError(), Message);
  return Message;
}

TEST(ImageLinker, LinksTwoImagesIntoOneWholeImage) {
  std::vector<LinkInput> Inputs = {mainInput(), libInput()};
  std::string Log;
  auto Linked = linkImages(Inputs, &Log);
  ASSERT_TRUE(bool(Linked)) << llvm::toString(Linked.takeError());
  EXPECT_FALSE(Linked->Relocatable) << "a linked image loads as it is";
  EXPECT_EQ("sm_80", Linked->TargetArch) << "the highest of the inputs";
  ASSERT_EQ(1u, Linked->Kernels.size());
  EXPECT_EQ("apply", Linked->Kernels[0].Name);
  ASSERT_EQ(2u, Linked->Globals.size()) << "both inputs' variables";
  EXPECT_EQ("bias", Linked->Globals[0].Name);
  EXPECT_EQ("offset", Linked->Globals[1].Name);
  EXPECT_NE(std::string::npos, Log.find("2 image(s)")) << Log;

  llvm::LLVMContext Ctx;
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Linked->Bitcode.data()),
                        Linked->Bitcode.size());
  auto M = llvm::parseBitcodeFile(llvm::MemoryBufferRef(Bytes, "linked"), Ctx);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  llvm::Function *Scale = (*M)->getFunction("_Z5scalei");
  ASSERT_NE(nullptr, Scale);
  EXPECT_FALSE(Scale->isDeclaration()) << "the call is resolved";
  llvm::GlobalVariable *Offset = (*M)->getGlobalVariable("offset");
  ASSERT_NE(nullptr, Offset);
  EXPECT_FALSE(Offset->isDeclaration()) << "the variable is resolved";
}

TEST(ImageLinker, UnresolvedSymbolsAreNotFoundAndNamed) {
  std::vector<LinkInput> Inputs = {mainInput()};
  JitErrorKind Kind = JitErrorKind::Internal;
  std::string Message = failure(linkImages(Inputs), Kind);
  EXPECT_EQ(JitErrorKind::NotFound, Kind);
  EXPECT_NE(std::string::npos, Message.find("'_Z5scalei' (scale(int))"))
      << Message;
  EXPECT_NE(std::string::npos, Message.find("'offset'")) << Message;
  EXPECT_NE(std::string::npos, Message.find("by 'main.o'")) << Message;
  EXPECT_EQ(std::string::npos, Message.find("vprintf"))
      << "the JIT provides printf: " << Message;
  EXPECT_EQ(std::string::npos, Message.find("llvm.nvvm"))
      << "intrinsics are not symbols to link: " << Message;
}

TEST(ImageLinker, DuplicateDefinitionsNameBothInputs) {
  std::vector<LinkInput> Inputs = {mainInput(), libInput(), libInput("lib2.o")};
  JitErrorKind Kind = JitErrorKind::Internal;
  std::string Message = failure(linkImages(Inputs), Kind);
  EXPECT_EQ(JitErrorKind::InvalidImage, Kind);
  EXPECT_NE(std::string::npos,
            Message.find("'_Z5scalei' (scale(int)) is defined in both "
                         "'lib.o' and 'lib2.o'"))
      << Message;
  EXPECT_NE(std::string::npos, Message.find("'offset' is defined in both"))
      << Message;
}

/// An input with a kernel \p Kernel reading its own static variable.
LinkInput staticInput(const char *Name, const char *Kernel, int Value) {
  LinkInput In;
  In.Name = Name;
  In.Image.TargetArch = "sm_75";
  In.Image.Producer = "test";
  In.Image.Relocatable = true;
  In.Image.Bitcode = ::cucpu::testing::bitcodeOf(
      std::string(Header) + "@_ZL7counter = internal addrspace(1) global i32 " +
      std::to_string(Value) + ", align 4\n" + "define void @" + Kernel +
      "(ptr %out) {\n"
      "  %v = load i32, ptr addrspace(1) @_ZL7counter\n"
      "  store i32 %v, ptr %out\n"
      "  ret void\n}\n"
      "!nvvm.annotations = !{!0}\n!0 = !{ptr @" +
      Kernel + ", !\"kernel\", i32 1}\n");
  loader::KernelInfo K;
  K.Name = Kernel;
  K.Params = {{0, 8, 8}};
  K.ParamBytes = 8;
  In.Image.Kernels.push_back(K);
  loader::GlobalInfo G;
  G.Name = "_ZL7counter";
  G.Size = 4;
  G.Align = 4;
  G.Initializer = {uint8_t(Value), 0, 0, 0};
  In.Image.Globals.push_back(G);
  return In;
}

TEST(ImageLinker, StaticVariablesOfTheSameNameStayApart) {
  std::vector<LinkInput> Inputs = {staticInput("one.o", "first", 1),
                                   staticInput("two.o", "second", 2)};
  std::string Log;
  auto Linked = linkImages(Inputs, &Log);
  ASSERT_TRUE(bool(Linked)) << llvm::toString(Linked.takeError());
  ASSERT_EQ(1u, Linked->Globals.size())
      << "one name in cuModuleGetGlobal's namespace: the first input's";
  EXPECT_EQ(1u, Linked->Globals[0].Initializer[0]);
  EXPECT_EQ(2u, Linked->Kernels.size());
  EXPECT_NE(std::string::npos, Log.find("'_ZL7counter' of 'two.o'")) << Log;
}

TEST(ImageLinker, NothingToLinkIsAnError) {
  JitErrorKind Kind = JitErrorKind::Internal;
  std::string Message = failure(linkImages({}), Kind);
  EXPECT_EQ(JitErrorKind::InvalidImage, Kind);
  EXPECT_NE(std::string::npos, Message.find("nothing to link")) << Message;
}

TEST(ImageLinker, OneWholeImageLinksToItself) {
  std::vector<LinkInput> Inputs = {libInput()};
  auto Linked = linkImages(Inputs);
  ASSERT_TRUE(bool(Linked)) << llvm::toString(Linked.takeError());
  EXPECT_FALSE(Linked->Relocatable);
  EXPECT_EQ(1u, Linked->Globals.size());
}

TEST(ImageLinker, DynamicSharedMemoryNeedsNoDefinition) {
  // extern __shared__ float s[]: a declaration in address space 3 that each
  // launch provides, as in an image that is not relocatable.
  LinkInput In;
  In.Name = "shared.o";
  In.Image.TargetArch = "sm_75";
  In.Image.Producer = "test";
  In.Image.Relocatable = true;
  In.Image.Bitcode = ::cucpu::testing::bitcodeOf(
      std::string(Header) +
      "@s = external addrspace(3) global [0 x float], align 4\n"
      "define void @reverse(ptr %out) {\n"
      "  %v = load float, ptr addrspace(3) @s\n"
      "  store float %v, ptr %out\n"
      "  ret void\n}\n"
      "!nvvm.annotations = !{!0}\n!0 = !{ptr @reverse, !\"kernel\", i32 1}\n");
  loader::KernelInfo K;
  K.Name = "reverse";
  K.Params = {{0, 8, 8}};
  K.ParamBytes = 8;
  In.Image.Kernels.push_back(K);
  std::vector<LinkInput> Inputs = {In};
  auto Linked = linkImages(Inputs);
  ASSERT_TRUE(bool(Linked)) << llvm::toString(Linked.takeError());
  EXPECT_EQ(1u, Linked->Kernels.size());
}

TEST(ImageLinker, RuntimeFunctionsAreProvidedAtLoad) {
  for (const char *Name : {"vprintf", "__assertfail", "malloc", "free",
                           "__nv_sinf", "llvm.nvvm.barrier0"})
    EXPECT_TRUE(isProvidedAtLoad(Name)) << Name;
  EXPECT_FALSE(isProvidedAtLoad("_Z5scalei")) << "a user's function";
}

} // namespace
