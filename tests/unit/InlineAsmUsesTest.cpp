//===- InlineAsmUsesTest.cpp - What a kernel's inline PTX says it uses ----===//
//
// The image builder reads the opcodes of a kernel's inline PTX assembly for
// the kernel's Uses bits, as it reads the intrinsics clang writes.
//
//===----------------------------------------------------------------------===//
#include "cucpu/loader/ModuleImage.h"
#include "cucpu/modules/image/ImageBuilder.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <string>

using namespace cucpu;

namespace {

/// The Uses bits of kernel @k, whose body is \p Body.
uint32_t usesOf(const std::string &Body) {
  std::string Ir = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr %p, i32 %v) {
)" + Body + R"(
  ret void
}
)";
  llvm::LLVMContext Context;
  llvm::SMDiagnostic Diag;
  auto M = llvm::parseAssemblyString(Ir, Diag, Context);
  if (!M) {
    ADD_FAILURE() << Diag.getMessage().str();
    return ~0u;
  }
  auto Image = image::buildImage(*M, "sm_75", "test");
  if (!Image) {
    ADD_FAILURE() << llvm::toString(Image.takeError());
    return ~0u;
  }
  if (Image->Kernels.size() != 1) {
    ADD_FAILURE() << "one kernel";
    return ~0u;
  }
  return Image->Kernels[0].Uses;
}

TEST(InlineAsmUses, OpcodesOfTheAsmSetTheKernelsUses) {
  EXPECT_EQ(uint32_t(loader::UsesBarrier),
            usesOf(R"(call void asm sideeffect "bar.sync 0;", "~{memory}"())"))
      << "bar.sync is a barrier";
  EXPECT_EQ(
      uint32_t(loader::UsesWarpFunctions),
      usesOf(
          R"(%r = call i32 asm sideeffect "{\0A\09.reg .pred p;\0A\09shfl.sync.down.b32 $0|p, $1, 1, 31, -1;\0A\09}", "=r,r"(i32 %v))"))
      << "a shuffle after a declaration is a warp function";
  EXPECT_EQ(uint32_t(loader::UsesWarpFunctions),
            usesOf(R"(call void asm sideeffect "bar.warp.sync -1;", ""())"))
      << "bar.warp.sync is a warp function, not a barrier";
  EXPECT_EQ(
      uint32_t(loader::UsesAtomics),
      usesOf(
          R"(call void asm sideeffect "@p red.global.add.u32 [$0], 1;", "l"(ptr %p))"))
      << "a guarded reduction is an atomic";
  EXPECT_EQ(
      uint32_t(loader::UsesAtomics | loader::UsesBarrier),
      usesOf(
          R"(%r = call i32 asm sideeffect "// atom.add in a comment\0AL1: atom.global.add.u32 $0, [$1], 1;\0A\09bar.sync 0;", "=r,l"(ptr %p))"))
      << "a labelled atomic and a barrier; comments do not count";
  EXPECT_EQ(0u, usesOf(R"(%r = call i32 asm "mov.u32 $0, %laneid;", "=r"())"))
      << "a special register uses nothing special";
}

} // namespace
