//===- PtxJit.cpp - PTX text to a cucpu module image ----------------------===//

#include "PtxJit.h"
#include "Error.h"

#include "ImageBuilder.h"
#include "ModuleImage.h"
#include "PtxError.h"
#include "Translator.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"

namespace cucpu {

llvm::Expected<std::vector<uint8_t>> imageFromPtx(llvm::StringRef Text) {
  // PTX text ends at its first NUL, as NVIDIA's driver reads it.
  Text = Text.substr(0, Text.find('\0'));
  llvm::LLVMContext Context;
  auto M = ptx::compile(Text, Context);
  if (!M) {
    CUresult Code = CUDA_ERROR_INVALID_PTX;
    std::string Message;
    llvm::handleAllErrors(
        M.takeError(),
        [&](const ptx::PtxError &E) {
          if (E.kind() == ptx::PtxErrorKind::UnsupportedVersion)
            Code = CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
          Message = E.message();
        },
        [&](const llvm::ErrorInfoBase &E) { Message = E.message(); });
    return makeError(
        Code, llvm::formatv("PTX JIT compilation failed: {0}.", Message));
  }
  std::string Arch = "sm_75";
  auto Image = image::buildImage(**M, Arch, "cucpu PTX JIT");
  if (!Image)
    return makeError(CUDA_ERROR_INVALID_PTX,
                     llvm::formatv("PTX JIT compilation failed: {0}",
                                   llvm::toString(Image.takeError())));
  auto Bytes = loader::writeImage(*Image);
  if (!Bytes)
    return makeError(CUDA_ERROR_INVALID_PTX,
                     llvm::formatv("PTX JIT compilation failed: {0}",
                                   llvm::toString(Bytes.takeError())));
  return std::move(*Bytes);
}

} // namespace cucpu
