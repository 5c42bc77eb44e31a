//===- MetadataFields.h - Numbers in cucpu's metadata tuples ----*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_METADATAFIELDS_H
#define CUCPU_MODULES_PASSES_METADATAFIELDS_H

#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"

#include <cstdint>
#include <optional>

namespace cucpu::modules {

/// \p Value as an integer of \p Bits bits, for a metadata tuple.
inline llvm::Metadata *numberMD(llvm::LLVMContext &Ctx, uint64_t Value,
                                unsigned Bits) {
  return llvm::ConstantAsMetadata::get(
      llvm::ConstantInt::get(llvm::IntegerType::get(Ctx, Bits), Value));
}

/// Operand \p I of \p N as an integer, or std::nullopt.
inline std::optional<uint64_t> numberAt(const llvm::MDNode &N, unsigned I) {
  if (I >= N.getNumOperands())
    return std::nullopt;
  if (auto *C = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(
          N.getOperand(I)))
    return C->getZExtValue();
  return std::nullopt;
}

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_METADATAFIELDS_H
