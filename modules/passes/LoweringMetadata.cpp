//===- LoweringMetadata.cpp - What the passes and the JIT tell each other -===//
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "MetadataFields.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {

constexpr const char *ImageNode = "cucpu.image";
constexpr const char *ResultsNode = "cucpu.results";

MDString *text(LLVMContext &Ctx, StringRef S) { return MDString::get(Ctx, S); }

/// Operand \p I of \p N as a string, or std::nullopt.
std::optional<StringRef> textAt(const MDNode &N, unsigned I) {
  if (I >= N.getNumOperands())
    return std::nullopt;
  if (auto *S = dyn_cast_or_null<MDString>(N.getOperand(I)))
    return S->getString();
  return std::nullopt;
}

void appendResult(Module &M, ArrayRef<Metadata *> Tuple) {
  M.getOrInsertNamedMetadata(ResultsNode)
      ->addOperand(MDTuple::get(M.getContext(), Tuple));
}

std::optional<KernelLayout> readKernel(const MDNode &N) {
  std::optional<StringRef> Name = textAt(N, 1);
  std::optional<uint64_t> Bytes = numberAt(N, 2);
  if (!Name || !Bytes || *Bytes > UINT32_MAX || N.getNumOperands() % 2 == 0)
    return std::nullopt;
  KernelLayout K;
  K.Name = Name->str();
  K.ParamBytes = static_cast<uint32_t>(*Bytes);
  for (unsigned I = 3; I + 1 < N.getNumOperands(); I += 2) {
    std::optional<uint64_t> Offset = numberAt(N, I), Size = numberAt(N, I + 1);
    if (!Offset || !Size || *Offset > UINT32_MAX || *Size > UINT32_MAX)
      return std::nullopt;
    K.Params.push_back(
        {static_cast<uint32_t>(*Offset), static_cast<uint32_t>(*Size)});
  }
  return K;
}

} // namespace

const KernelLayout *ImageDescription::kernel(StringRef Name) const {
  for (const KernelLayout &K : Kernels)
    if (K.Name == Name)
      return &K;
  return nullptr;
}

int ImageDescription::texRefIndex(StringRef Name) const {
  for (size_t I = 0; I < TexRefs.size(); ++I)
    if (TexRefs[I] == Name)
      return static_cast<int>(I);
  return -1;
}

void cucpu::modules::attachImageDescription(Module &M,
                                            const ImageDescription &Image) {
  if (NamedMDNode *Old = M.getNamedMetadata(ImageNode))
    M.eraseNamedMetadata(Old);
  LLVMContext &Ctx = M.getContext();
  NamedMDNode *Node = M.getOrInsertNamedMetadata(ImageNode);
  if (!Image.TargetArch.empty())
    Node->addOperand(
        MDTuple::get(Ctx, {text(Ctx, "arch"), text(Ctx, Image.TargetArch)}));
  if (Image.Relocatable)
    Node->addOperand(MDTuple::get(Ctx, {text(Ctx, "relocatable")}));
  for (const KernelLayout &K : Image.Kernels) {
    SmallVector<Metadata *, 16> Ops{text(Ctx, "kernel"), text(Ctx, K.Name),
                                    numberMD(Ctx, K.ParamBytes, 32)};
    for (const ParamSlot &P : K.Params) {
      Ops.push_back(numberMD(Ctx, P.Offset, 32));
      Ops.push_back(numberMD(Ctx, P.Size, 32));
    }
    Node->addOperand(MDTuple::get(Ctx, Ops));
  }
  for (const std::string &Name : Image.TexRefs)
    Node->addOperand(MDTuple::get(Ctx, {text(Ctx, "texref"), text(Ctx, Name)}));
}

bool cucpu::modules::hasImageDescription(const Module &M) {
  return M.getNamedMetadata(ImageNode) != nullptr;
}

ImageDescription cucpu::modules::readImageDescription(const Module &M) {
  ImageDescription Image;
  const NamedMDNode *Node = M.getNamedMetadata(ImageNode);
  if (!Node)
    return Image;
  for (const MDNode *N : Node->operands()) {
    std::optional<StringRef> Tag = textAt(*N, 0);
    if (!Tag)
      continue;
    if (*Tag == "arch") {
      if (std::optional<StringRef> Arch = textAt(*N, 1))
        Image.TargetArch = Arch->str();
    } else if (*Tag == "relocatable") {
      Image.Relocatable = true;
    } else if (*Tag == "kernel") {
      if (std::optional<KernelLayout> K = readKernel(*N))
        Image.Kernels.push_back(std::move(*K));
    } else if (*Tag == "texref") {
      if (std::optional<StringRef> Name = textAt(*N, 1))
        Image.TexRefs.push_back(Name->str());
    }
  }
  return Image;
}

void cucpu::modules::recordKernelShared(Module &M, StringRef Kernel,
                                        uint32_t Bytes) {
  LLVMContext &Ctx = M.getContext();
  appendResult(
      M, {text(Ctx, "shared"), text(Ctx, Kernel), numberMD(Ctx, Bytes, 32)});
}

void cucpu::modules::recordGlobalSize(Module &M, StringRef Name,
                                      uint64_t Bytes) {
  LLVMContext &Ctx = M.getContext();
  appendResult(
      M, {text(Ctx, "global"), text(Ctx, Name), numberMD(Ctx, Bytes, 64)});
}

void cucpu::modules::recordKernelFrame(Module &M, StringRef Kernel,
                                       uint32_t Bytes) {
  LLVMContext &Ctx = M.getContext();
  appendResult(
      M, {text(Ctx, "frame"), text(Ctx, Kernel), numberMD(Ctx, Bytes, 32)});
}

void cucpu::modules::recordFallbackReason(Module &M, StringRef Kernel,
                                          StringRef Reason) {
  LLVMContext &Ctx = M.getContext();
  appendResult(M,
               {text(Ctx, "fallback"), text(Ctx, Kernel), text(Ctx, Reason)});
}

LoweringResults cucpu::modules::readLoweringResults(const Module &M) {
  LoweringResults R;
  const NamedMDNode *Node = M.getNamedMetadata(ResultsNode);
  if (!Node)
    return R;
  for (const MDNode *N : Node->operands()) {
    std::optional<StringRef> Tag = textAt(*N, 0), Name = textAt(*N, 1);
    if (!Tag || !Name)
      continue;
    if (*Tag == "fallback") {
      if (std::optional<StringRef> Why = textAt(*N, 2))
        R.FallbackReasons[*Name] = Why->str();
      continue;
    }
    std::optional<uint64_t> Value = numberAt(*N, 2);
    if (!Value)
      continue;
    if (*Tag == "global")
      R.GlobalSizes[*Name] = *Value;
    else if (*Tag == "shared")
      R.KernelShared[*Name] = static_cast<uint32_t>(*Value);
    else if (*Tag == "frame")
      R.KernelFrame[*Name] = static_cast<uint32_t>(*Value);
  }
  return R;
}
