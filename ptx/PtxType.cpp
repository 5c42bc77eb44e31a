//===- PtxType.cpp - PTX fundamental types --------------------------------===//

#include "PtxType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Type.h"

#include <string>

namespace cucpu::ptx {

std::optional<PtxType> PtxType::parse(llvm::StringRef Name) {
  PtxType T;
  if (Name == "pred") {
    T.K = Kind::Pred;
    T.Bits = 1;
    return T;
  }
  if (Name.consume_back("x2"))
    T.Lanes = 2;
  if (Name.consume_front("bf"))
    T.K = Kind::BFloat;
  else if (Name.consume_front("s"))
    T.K = Kind::Signed;
  else if (Name.consume_front("u"))
    T.K = Kind::Unsigned;
  else if (Name.consume_front("b"))
    T.K = Kind::Bits;
  else if (Name.consume_front("f"))
    T.K = Kind::Float;
  else
    return std::nullopt;
  if (Name.getAsInteger(10, T.Bits))
    return std::nullopt;
  bool Ok = false;
  switch (T.K) {
  case Kind::Float:
    Ok = T.Bits == 16 || ((T.Bits == 32 || T.Bits == 64) && T.Lanes == 1);
    break;
  case Kind::BFloat:
    Ok = T.Bits == 16;
    break;
  case Kind::Bits:
    Ok = (T.Bits == 8 || T.Bits == 16 || T.Bits == 32 || T.Bits == 64 ||
          T.Bits == 128) &&
         T.Lanes == 1;
    break;
  default:
    Ok = (T.Bits == 8 || T.Bits == 16 || T.Bits == 32 || T.Bits == 64) &&
         T.Lanes == 1;
  }
  return Ok ? std::optional<PtxType>(T) : std::nullopt;
}

llvm::Type *PtxType::irType(llvm::LLVMContext &C) const {
  if (K == Kind::Pred)
    return llvm::Type::getInt1Ty(C);
  if (K == Kind::Float && Lanes == 1 && Bits == 32)
    return llvm::Type::getFloatTy(C);
  if (K == Kind::Float && Lanes == 1 && Bits == 64)
    return llvm::Type::getDoubleTy(C);
  return llvm::Type::getIntNTy(C, width());
}

llvm::Type *PtxType::floatType(llvm::LLVMContext &C) const {
  if (K == Kind::BFloat)
    return llvm::Type::getBFloatTy(C);
  if (K != Kind::Float)
    return nullptr;
  switch (Bits) {
  case 16:
    return llvm::Type::getHalfTy(C);
  case 32:
    return llvm::Type::getFloatTy(C);
  default:
    return llvm::Type::getDoubleTy(C);
  }
}

std::optional<PtxType> lastType(llvm::ArrayRef<std::string> Modifiers) {
  for (auto It = Modifiers.rbegin(); It != Modifiers.rend(); ++It)
    if (auto T = PtxType::parse(*It))
      return T;
  return std::nullopt;
}

} // namespace cucpu::ptx
