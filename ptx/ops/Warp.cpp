//===- Warp.cpp - PTX instructions: vote, activemask, shfl, match, redux --===//
//
// The warp instructions become the NVVM intrinsics cucc's clang emits for
// __ballot_sync/__all_sync/__any_sync/__uni_sync, __activemask,
// __shfl*_sync, __match_any_sync/__match_all_sync and __reduce_*_sync (and
// the legacy forms without a member mask), which SyncPass lowers to the
// execution engine's warp services. Operands keep PTX's order except where
// the intrinsic's differs (the member mask comes first, but last for
// redux.sync).
//
//===----------------------------------------------------------------------===//

#include "Sync.h"

#include "llvm/ADT/StringSwitch.h"

namespace cucpu::ptx {

namespace {

using llvm::Value;

PtxType predType() {
  PtxType T;
  T.K = PtxType::Kind::Pred;
  T.Bits = 1;
  return T;
}

PtxType bitsType(unsigned Bits) {
  PtxType T;
  T.K = PtxType::Kind::Bits;
  T.Bits = Bits;
  return T;
}

/// The one modifier of \p I among \p Names, or an empty string (an error if
/// there are several).
llvm::Expected<std::string> oneOf(FunctionTranslator &F, const Instruction &I,
                                  std::initializer_list<llvm::StringRef> Names,
                                  llvm::StringRef What) {
  std::string Found;
  for (const std::string &M : I.Modifiers)
    if (llvm::is_contained(Names, M)) {
      if (!Found.empty())
        return F.error(I, "names two " + What);
      Found = M;
    }
  return Found;
}

/// Writes \p R, a {value, predicate} pair, to a d|p destination or the
/// value alone to a d destination.
llvm::Error writeWithPredicate(FunctionTranslator &F, const Instruction &I,
                               Value *R, bool Paired, PtxType T) {
  const Operand &Dst = I.Operands[0];
  if (!Paired)
    return F.write(I, Dst, R, T);
  if (auto E = F.write(I, Dst.Elements[0], F.B.CreateExtractValue(R, 0), T))
    return E;
  return F.write(I, Dst.Elements[1], F.B.CreateExtractValue(R, 1), predType());
}

/// Reads operand \p K of \p I as an i32.
llvm::Expected<Value *> readI32(FunctionTranslator &F, const Instruction &I,
                                size_t K) {
  return F.readAs(I, I.Operands[K], F.B.getInt32Ty(), false);
}

/// vote{.sync}.{all,any,uni}.pred d, {!}a{, membermask};
/// vote{.sync}.ballot.b32 d, {!}a{, membermask}.
llvm::Error vote(FunctionTranslator &F, const Instruction &I) {
  if (auto E = onlyModifiers(
          F, I, {"sync", "all", "any", "uni", "ballot", "pred", "b32"}))
    return E;
  auto Mode = oneOf(F, I, {"all", "any", "uni", "ballot"}, "modes");
  if (!Mode)
    return Mode.takeError();
  if (Mode->empty())
    return F.error(I, "needs .all, .any, .uni or .ballot");
  bool Ballot = *Mode == "ballot";
  if (Ballot ? !I.has("b32") || I.has("pred") : !I.has("pred") || I.has("b32"))
    return F.error(I, Ballot ? "vote.ballot needs .b32" : "needs .pred");
  bool Sync = I.has("sync");
  if (auto E = F.expectOperands(I, Sync ? 3 : 2))
    return E;
  auto Pred = F.readAs(I, I.Operands[1], F.B.getInt1Ty(), false);
  if (!Pred)
    return Pred.takeError();
  llvm::Type *Ret = Ballot ? F.B.getInt32Ty() : F.B.getInt1Ty();
  std::string Name = "llvm.nvvm.vote." + *Mode + (Sync ? ".sync" : "");
  Value *R;
  if (Sync) {
    auto Mask = readI32(F, I, 2);
    if (!Mask)
      return Mask.takeError();
    R = callNvvm(F, Name, Ret, {*Mask, *Pred});
  } else {
    R = callNvvm(F, Name, Ret, {*Pred});
  }
  return F.write(I, I.Operands[0], R, Ballot ? bitsType(32) : predType());
}

/// activemask.b32 d.
llvm::Error activeMask(FunctionTranslator &F, const Instruction &I) {
  if (auto E = onlyModifiers(F, I, {"b32"}))
    return E;
  if (auto E = F.expectOperands(I, 1))
    return E;
  Value *R = callNvvm(F, "llvm.nvvm.activemask", F.B.getInt32Ty(), {});
  return F.write(I, I.Operands[0], R, bitsType(32));
}

/// shfl{.sync}.{up,down,bfly,idx}.b32 d[|p], a, b, c{, membermask}.
llvm::Error shuffle(FunctionTranslator &F, const Instruction &I) {
  if (auto E =
          onlyModifiers(F, I, {"sync", "up", "down", "bfly", "idx", "b32"}))
    return E;
  auto Mode = oneOf(F, I, {"up", "down", "bfly", "idx"}, "modes");
  if (!Mode)
    return Mode.takeError();
  if (Mode->empty())
    return F.error(I, "needs .up, .down, .bfly or .idx");
  if (!I.has("b32"))
    return F.error(I, "needs .b32");
  bool Sync = I.has("sync");
  if (auto E = F.expectOperands(I, Sync ? 5 : 4))
    return E;
  const Operand &Dst = I.Operands[0];
  bool Paired = Dst.K == Operand::Kind::Pair;
  if (Paired && Dst.Elements.size() != 2)
    return F.error(I, "expects d|p as the destination");
  std::vector<Value *> Args;
  if (Sync) {
    auto Mask = readI32(F, I, 4);
    if (!Mask)
      return Mask.takeError();
    Args.push_back(*Mask);
  }
  for (size_t K = 1; K <= 3; ++K) {
    auto V = readI32(F, I, K);
    if (!V)
      return V.takeError();
    Args.push_back(*V);
  }
  llvm::Type *I32 = F.B.getInt32Ty();
  llvm::Type *Ret =
      Paired ? llvm::StructType::get(F.Ctx, {I32, F.B.getInt1Ty()}) : I32;
  std::string Name = std::string("llvm.nvvm.shfl.") + (Sync ? "sync." : "") +
                     *Mode + ".i32" + (Paired ? "p" : "");
  return writeWithPredicate(F, I, callNvvm(F, Name, Ret, Args), Paired,
                            bitsType(32));
}

/// match.any.sync.{b32,b64} d, a, membermask;
/// match.all.sync.{b32,b64} d[|p], a, membermask.
llvm::Error match(FunctionTranslator &F, const Instruction &I) {
  if (auto E = onlyModifiers(F, I, {"sync", "any", "all", "b32", "b64"}))
    return E;
  auto Mode = oneOf(F, I, {"any", "all"}, "modes");
  if (!Mode)
    return Mode.takeError();
  if (Mode->empty() || !I.has("sync"))
    return F.error(I, "needs .any or .all, and .sync");
  auto Width = oneOf(F, I, {"b32", "b64"}, "types");
  if (!Width)
    return Width.takeError();
  if (Width->empty())
    return F.error(I, "needs .b32 or .b64");
  if (auto E = F.expectOperands(I, 3))
    return E;
  bool All = *Mode == "all";
  const Operand &Dst = I.Operands[0];
  bool Paired = Dst.K == Operand::Kind::Pair;
  if (Paired && (!All || Dst.Elements.size() != 2))
    return F.error(I, All ? "expects d|p as the destination"
                          : "match.any has no predicate destination");
  bool Wide = *Width == "b64";
  auto V = F.readAs(I, I.Operands[1],
                    Wide ? F.B.getInt64Ty() : F.B.getInt32Ty(), false);
  if (!V)
    return V.takeError();
  auto Mask = readI32(F, I, 2);
  if (!Mask)
    return Mask.takeError();
  llvm::Type *I32 = F.B.getInt32Ty();
  std::string Type = Wide ? "i64" : "i32";
  if (!All) {
    Value *R =
        callNvvm(F, "llvm.nvvm.match.any.sync." + Type, I32, {*Mask, *V});
    return F.write(I, Dst, R, bitsType(32));
  }
  // clang's __match_all_sync: always the form with the predicate.
  llvm::Type *Ret = llvm::StructType::get(F.Ctx, {I32, F.B.getInt1Ty()});
  Value *R =
      callNvvm(F, "llvm.nvvm.match.all.sync." + Type + "p", Ret, {*Mask, *V});
  if (Paired)
    return writeWithPredicate(F, I, R, true, bitsType(32));
  return F.write(I, Dst, F.B.CreateExtractValue(R, 0), bitsType(32));
}

/// redux.sync.{add,min,max}.{u32,s32} d, a, membermask;
/// redux.sync.{and,or,xor}.b32 d, a, membermask.
llvm::Error redux(FunctionTranslator &F, const Instruction &I) {
  if (auto E = onlyModifiers(F, I,
                             {"sync", "add", "min", "max", "and", "or", "xor",
                              "u32", "s32", "b32"}))
    return E;
  auto Op =
      oneOf(F, I, {"add", "min", "max", "and", "or", "xor"}, "operations");
  if (!Op)
    return Op.takeError();
  auto Type = oneOf(F, I, {"u32", "s32", "b32"}, "types");
  if (!Type)
    return Type.takeError();
  if (Op->empty() || Type->empty() || !I.has("sync"))
    return F.error(I, "needs .sync, an operation and a type");
  bool Bitwise = *Op == "and" || *Op == "or" || *Op == "xor";
  if (Bitwise != (*Type == "b32"))
    return F.error(I, Bitwise ? "the bitwise operations take .b32"
                              : "add, min and max take .u32 or .s32");
  if (auto E = F.expectOperands(I, 3))
    return E;
  auto V = readI32(F, I, 1);
  if (!V)
    return V.takeError();
  auto Mask = readI32(F, I, 2);
  if (!Mask)
    return Mask.takeError();
  std::string Name = *Op;
  if (*Type == "u32" && (Name == "min" || Name == "max"))
    Name = "u" + Name;
  // The intrinsic takes the value first and the mask second, as the
  // instruction does.
  Value *R = callNvvm(F, "llvm.nvvm.redux.sync." + Name, F.B.getInt32Ty(),
                      {*V, *Mask});
  return F.write(I, I.Operands[0], R, bitsType(32));
}

} // namespace

void addWarpOps(OpTable &T) {
  T["vote"] = vote;
  T["activemask"] = activeMask;
  T["shfl"] = shuffle;
  T["match"] = match;
  T["redux"] = redux;
}

} // namespace cucpu::ptx
