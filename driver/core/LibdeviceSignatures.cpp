//===- LibdeviceSignatures.cpp - C types of the libdevice functions -------===//

#include "LibdeviceSignatures.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DerivedTypes.h"

#include <vector>

namespace cucpu {

namespace {

enum class CType : char { Void, I16, I32, I64, F32, F64, Ptr };

struct Signature {
  std::vector<CType> Types; ///< The return type, then the parameters'.
};

const llvm::StringMap<Signature> &table() {
  using enum CType;
  static const llvm::StringMap<Signature> Table = {
#define LIBDEVICE(Name, ...) {#Name, Signature{{__VA_ARGS__}}},
#include "LibdeviceSignatures.def"
#undef LIBDEVICE
  };
  return Table;
}

llvm::Type *irType(CType T, llvm::LLVMContext &C) {
  switch (T) {
  case CType::Void:
    return llvm::Type::getVoidTy(C);
  case CType::I16:
    return llvm::Type::getInt16Ty(C);
  case CType::I32:
    return llvm::Type::getInt32Ty(C);
  case CType::I64:
    return llvm::Type::getInt64Ty(C);
  case CType::F32:
    return llvm::Type::getFloatTy(C);
  case CType::F64:
    return llvm::Type::getDoubleTy(C);
  case CType::Ptr:
    return llvm::PointerType::get(C, 0);
  }
  return nullptr;
}

} // namespace

llvm::FunctionType *libdeviceSignature(llvm::StringRef Name,
                                       llvm::LLVMContext &C) {
  auto It = table().find(Name);
  if (It == table().end())
    return nullptr;
  const std::vector<CType> &Types = It->second.Types;
  std::vector<llvm::Type *> Params;
  for (size_t I = 1; I < Types.size(); ++I)
    Params.push_back(irType(Types[I], C));
  return llvm::FunctionType::get(irType(Types[0], C), Params, false);
}

} // namespace cucpu
