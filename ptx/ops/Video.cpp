//===- Video.cpp - PTX instructions: SIMD video ---------------------------===//
//
// vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4, vmax2/4 and vset2/4: two
// half-words or four bytes of a 32-bit register at once, as the PTX ISA's
// pseudocode defines them. Each element is picked from the eight bytes (four
// half-words) of {b, a} by the operands' selectors (a.h10, b.b7654, ...),
// extended by its operand's type, operated on at full precision, then either
// merged into c under the destination's mask (saturated to the element with
// .sat, else wrapped) or, with .add, summed onto c.
//
//===----------------------------------------------------------------------===//

#include "ArithCommon.h"

#include "llvm/ADT/StringSwitch.h"

#include <array>

namespace cucpu::ptx {

namespace {

using llvm::Value;
using namespace arith;

/// The element operation of vadd/vsub/vavrg/vabsdiff/vmin/vmax/vset.
enum class VideoOp { Add, Sub, Average, AbsDiff, Min, Max, Set };

/// Two half-words (vop2) or four bytes (vop4).
struct SimdShape {
  unsigned Lanes;    ///< 2 or 4.
  unsigned LaneBits; ///< 16 or 8.
  char SelectorKind; ///< 'h' or 'b'.
};

/// A register operand without its selector suffix, and that suffix
/// ("h10", "b3210"; empty when there is none).
struct SelectedOperand {
  Operand Base;
  std::string Selector;
};

SelectedOperand splitSelector(const Operand &Op) {
  SelectedOperand S{Op, ""};
  if (Op.K != Operand::Kind::Register)
    return S;
  size_t Dot = Op.Name.rfind('.');
  if (Dot == std::string::npos)
    return S;
  llvm::StringRef Suffix = llvm::StringRef(Op.Name).substr(Dot + 1);
  if (Suffix.size() < 2 || (Suffix[0] != 'h' && Suffix[0] != 'b') ||
      !llvm::all_of(Suffix.drop_front(),
                    [](char C) { return C >= '0' && C <= '9'; }))
    return S;
  S.Base.Name = Op.Name.substr(0, Dot);
  S.Selector = Suffix.str();
  return S;
}

/// The source element (0-7 bytes, or 0-3 half-words of {b, a}) each lane of
/// a source operand takes; \p Default when the operand has no selector.
llvm::Expected<std::array<unsigned, 4>>
sourceSelection(FunctionTranslator &F, const Instruction &I,
                const SimdShape &Shape, llvm::StringRef Selector,
                llvm::StringRef Default) {
  llvm::StringRef Text = Selector.empty() ? Default : Selector;
  unsigned Limit = 2 * Shape.Lanes;
  if (Text.size() != Shape.Lanes + 1 || Text[0] != Shape.SelectorKind)
    return F.error(I, "the selector ." + Text + " does not pick " +
                          std::to_string(Shape.Lanes) +
                          (Shape.Lanes == 2 ? " half-words" : " bytes"));
  std::array<unsigned, 4> Pick{};
  for (unsigned L = 0; L < Shape.Lanes; ++L) {
    // The last digit names the source of lane 0.
    unsigned Digit = Text[Shape.Lanes - L] - '0';
    if (Digit >= Limit)
      return F.error(I, "the selector ." + Text + " names an element past " +
                            std::to_string(Limit - 1));
    Pick[L] = Digit;
  }
  return Pick;
}

/// The lanes the destination's mask selects (all when it has none).
llvm::Expected<unsigned> destinationMask(FunctionTranslator &F,
                                         const Instruction &I,
                                         const SimdShape &Shape,
                                         llvm::StringRef Selector) {
  unsigned All = (1u << Shape.Lanes) - 1;
  if (Selector.empty())
    return All;
  if (Selector[0] != Shape.SelectorKind || Selector.size() > Shape.Lanes + 1)
    return F.error(I, "the mask ." + Selector + " does not name " +
                          (Shape.Lanes == 2 ? "half-words" : "bytes"));
  unsigned Mask = 0;
  for (char C : Selector.drop_front()) {
    unsigned Lane = C - '0';
    if (Lane >= Shape.Lanes || (Mask & (1u << Lane)))
      return F.error(I, "the mask ." + Selector + " is not a set of " +
                            std::to_string(Shape.Lanes) + " lanes");
    Mask |= 1u << Lane;
  }
  return Mask;
}

/// Element \p Index of {B, A} (A holds elements 0 .. Lanes-1), extended to
/// i32 as \p Signed says.
Value *element(FunctionTranslator &F, Value *A, Value *B,
               const SimdShape &Shape, unsigned Index, bool Signed) {
  Value *Word = Index < Shape.Lanes ? A : B;
  unsigned Shift = (Index % Shape.Lanes) * Shape.LaneBits;
  Value *Bits = F.B.CreateTrunc(F.B.CreateLShr(Word, Shift),
                                F.B.getIntNTy(Shape.LaneBits));
  return Signed ? F.B.CreateSExt(Bits, F.B.getInt32Ty())
                : F.B.CreateZExt(Bits, F.B.getInt32Ty());
}

/// The operation on one lane's elements, at full precision (i32).
Value *operate(FunctionTranslator &F, VideoOp Op, llvm::StringRef Compare,
               Value *X, Value *Y) {
  auto &B = F.B;
  switch (Op) {
  case VideoOp::Add:
    return B.CreateAdd(X, Y);
  case VideoOp::Sub:
    return B.CreateSub(X, Y);
  case VideoOp::Average: {
    // Halves round away from zero: up for a sum >= 0, down below.
    Value *Sum = B.CreateAdd(X, Y);
    Value *Up = B.CreateAShr(B.CreateAdd(Sum, B.getInt32(1)), 1);
    return B.CreateSelect(B.CreateICmpSGE(Sum, B.getInt32(0)), Up,
                          B.CreateAShr(Sum, 1));
  }
  case VideoOp::AbsDiff: {
    Value *D = B.CreateSub(X, Y);
    return B.CreateSelect(B.CreateICmpSLT(D, B.getInt32(0)), B.CreateNeg(D), D);
  }
  case VideoOp::Min:
    return B.CreateSelect(B.CreateICmpSLT(X, Y), X, Y);
  case VideoOp::Max:
    return B.CreateSelect(B.CreateICmpSGT(X, Y), X, Y);
  case VideoOp::Set: {
    // The elements are extended to i32, so a signed compare orders both.
    auto Pred = llvm::StringSwitch<llvm::CmpInst::Predicate>(Compare)
                    .Case("eq", llvm::CmpInst::ICMP_EQ)
                    .Case("ne", llvm::CmpInst::ICMP_NE)
                    .Case("lt", llvm::CmpInst::ICMP_SLT)
                    .Case("le", llvm::CmpInst::ICMP_SLE)
                    .Case("gt", llvm::CmpInst::ICMP_SGT)
                    .Default(llvm::CmpInst::ICMP_SGE);
    return B.CreateZExt(B.CreateICmp(Pred, X, Y), B.getInt32Ty());
  }
  }
  return nullptr;
}

/// \p V clamped to the range of one element of the signed or unsigned
/// destination type.
Value *saturate(FunctionTranslator &F, Value *V, const SimdShape &Shape,
                bool Signed) {
  int32_t Low = Signed ? -(1 << (Shape.LaneBits - 1)) : 0;
  int32_t High =
      Signed ? (1 << (Shape.LaneBits - 1)) - 1 : (1 << Shape.LaneBits) - 1;
  auto &B = F.B;
  V = B.CreateSelect(B.CreateICmpSLT(V, B.getInt32(Low)), B.getInt32(Low), V);
  return B.CreateSelect(B.CreateICmpSGT(V, B.getInt32(High)), B.getInt32(High),
                        V);
}

/// Whether \p Name is .s32 (true) or .u32 (false); an error otherwise.
llvm::Expected<bool> signedWord(FunctionTranslator &F, const Instruction &I,
                                llvm::StringRef Name) {
  if (Name == "s32" || Name == "u32")
    return Name == "s32";
  return F.error(I, "takes .u32 or .s32 types, not ." + Name);
}

/// vop2/vop4/vset2/vset4 d{.mask}, a{.asel}, b{.bsel}, c.
llvm::Error simdVideo(FunctionTranslator &F, const Instruction &I) {
  llvm::StringRef Name = I.Opcode;
  SimdShape Shape =
      Name.back() == '2' ? SimdShape{2, 16, 'h'} : SimdShape{4, 8, 'b'};
  VideoOp Op = llvm::StringSwitch<VideoOp>(Name.drop_back())
                   .Case("vadd", VideoOp::Add)
                   .Case("vsub", VideoOp::Sub)
                   .Case("vavrg", VideoOp::Average)
                   .Case("vabsdiff", VideoOp::AbsDiff)
                   .Case("vmin", VideoOp::Min)
                   .Case("vmax", VideoOp::Max)
                   .Default(VideoOp::Set);
  if (auto E = F.expectOperands(I, 4))
    return E;

  // Types in order: (d,) a, b; then .cmp for vset, .sat or .add.
  std::vector<std::string> Types;
  std::string Compare;
  bool Saturate = false, Accumulate = false;
  for (const std::string &M : I.Modifiers) {
    if (M == "sat")
      Saturate = true;
    else if (M == "add")
      Accumulate = true;
    else if (Op == VideoOp::Set &&
             llvm::is_contained({"eq", "ne", "lt", "le", "gt", "ge"}, M))
      Compare = M;
    else
      Types.push_back(M);
  }
  size_t TypeCount = Op == VideoOp::Set ? 2 : 3;
  if (Types.size() != TypeCount)
    return F.error(I, "takes " + std::to_string(TypeCount) +
                          " types (.u32 or .s32)");
  if (Op == VideoOp::Set && Compare.empty())
    return F.error(I, "needs a comparison (.eq, .ne, .lt, .le, .gt, .ge)");
  if (Saturate && (Accumulate || Op == VideoOp::Set))
    return F.error(I, ".sat is not allowed with .add or on vset");
  std::array<bool, 3> Signed{};
  for (size_t K = 0; K < TypeCount; ++K) {
    auto S = signedWord(F, I, Types[K]);
    if (!S)
      return S.takeError();
    Signed[K] = *S;
  }
  bool DestSigned = Op == VideoOp::Set ? false : Signed[0];
  bool ASigned = Signed[TypeCount - 2], BSigned = Signed[TypeCount - 1];

  SelectedOperand D = splitSelector(I.Operands[0]);
  SelectedOperand A = splitSelector(I.Operands[1]);
  SelectedOperand Bop = splitSelector(I.Operands[2]);
  if (!splitSelector(I.Operands[3]).Selector.empty())
    return F.error(I, "operand c takes no selector");
  auto Mask = destinationMask(F, I, Shape, D.Selector);
  if (!Mask)
    return Mask.takeError();
  bool TwoLanes = Shape.Lanes == 2;
  auto PickA =
      sourceSelection(F, I, Shape, A.Selector, TwoLanes ? "h10" : "b3210");
  if (!PickA)
    return PickA.takeError();
  auto PickB =
      sourceSelection(F, I, Shape, Bop.Selector, TwoLanes ? "h32" : "b7654");
  if (!PickB)
    return PickB.takeError();

  PtxType Word = u32Type();
  auto VA = F.read(I, A.Base, Word);
  if (!VA)
    return VA.takeError();
  auto VB = F.read(I, Bop.Base, Word);
  if (!VB)
    return VB.takeError();
  auto VC = F.read(I, I.Operands[3], Word);
  if (!VC)
    return VC.takeError();

  auto &B = F.B;
  Value *Result = Accumulate ? *VC : B.getInt32(0);
  uint32_t LaneMask = (1u << Shape.LaneBits) - 1;
  for (unsigned L = 0; L < Shape.Lanes; ++L) {
    unsigned Shift = L * Shape.LaneBits;
    bool Selected = (*Mask >> L) & 1;
    if (!Selected) {
      if (!Accumulate)
        Result =
            B.CreateOr(Result, B.CreateAnd(*VC, B.getInt32(LaneMask << Shift)));
      continue;
    }
    Value *X = element(F, *VA, *VB, Shape, (*PickA)[L], ASigned);
    Value *Y = element(F, *VA, *VB, Shape, (*PickB)[L], BSigned);
    Value *T = operate(F, Op, Compare, X, Y);
    if (Saturate)
      T = saturate(F, T, Shape, DestSigned);
    if (Accumulate)
      Result = B.CreateAdd(Result, T);
    else
      Result = B.CreateOr(
          Result, B.CreateShl(B.CreateAnd(T, B.getInt32(LaneMask)), Shift));
  }
  return F.write(I, D.Base, Result, Word);
}

} // namespace

void addVideoOps(OpTable &T) {
  for (const char *Name :
       {"vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2", "vset2",
        "vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4", "vset4"})
    T[Name] = simdVideo;
}

} // namespace cucpu::ptx
