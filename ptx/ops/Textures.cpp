//===- Textures.cpp - PTX instructions: tex, tld4, txq --------------------===//
//
// A fetch calls the runtime function cucc's kernels call for the same fetch
// (include/cucpu/device/detail/textures.h,
// modules/abi/include/cucpu/modules/abi/TextureAbi.h), with the same arguments,
// so both give the same bits: tex.1d/2d/3d with float coordinates is
// tex1D/tex2D/tex3D (__cucpu_tex_fetch), tex.1d with integer coordinates
// tex1Dfetch (__cucpu_tex_fetch_index), and the layered, cubemap, level,
// gradient and gather forms fill a CucpuFetch for __cucpu_tex_sample. The four
// 32-bit words a fetch returns are the destination's bits, floats for .f32 and
// integers for .s32/.u32, as cucc's headers reinterpret them; how texels are
// read (as integers or normalized floats) is the texture's state, not the
// instruction's type, on NVIDIA's hardware as here.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"
#include "TexSurf.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

namespace cucpu::ptx {

namespace {

using llvm::Value;

/// CucpuFetch's layout (modules/abi/include/cucpu/modules/abi/TextureAbi.h).
enum FetchField : unsigned {
  CoordOffset = 0,
  LayerOffset = 12,
  LevelOffset = 16,
  GradientOffset = 20,
  FormOffset = 44,
  FetchBytes = 48,
};

/// What a CucpuFetch does (CucpuFetch* << 8 in its Form).
enum FetchOp : unsigned {
  Sample = 0,
  Level = 1u << 8,
  Gradient = 2u << 8,
  Gather = 3u << 8,
};

/// The parts of a tex or tld4 instruction.
struct Fetch {
  Geometry G;
  PtxType Result;     ///< .f32, .s32 or .u32.
  PtxType Coordinate; ///< .f32 or .s32.
  const Operand *Destination = nullptr;
  const Operand *Resident = nullptr; ///< The p of d|p, or null.
  const Operand *Texture = nullptr;
  std::vector<const Operand *> Coords;
};

/// Parses the modifiers and operands that tex and tld4 share: the geometry,
/// .v4, the result and coordinate types, d[|p] and [a, c]. \p Allowed are
/// the other modifiers the instruction takes.
llvm::Expected<Fetch> parseFetch(FunctionTranslator &F, const Instruction &I,
                                 llvm::ArrayRef<llvm::StringRef> Allowed) {
  Fetch R;
  auto G = geometryOf(I);
  if (!G)
    return F.error(I, "needs a geometry (.1d, .2d, .3d, .a1d, .a2d, .cube, "
                      ".acube); multisample textures are not supported");
  R.G = *G;
  std::vector<PtxType> Types;
  bool Vector4 = false;
  unsigned Geometries = 0;
  for (const std::string &M : I.Modifiers) {
    if (auto T = PtxType::parse(M)) {
      Types.push_back(*T);
      continue;
    }
    if (M == "v4") {
      Vector4 = true;
      continue;
    }
    if (M == "v2")
      return F.error(I, "half-precision results (.v2.f16x2) are not "
                        "supported by this driver's PTX JIT");
    if (geometryNamed(M) && ++Geometries == 1)
      continue;
    if (llvm::is_contained(Allowed, M) && llvm::count(I.Modifiers, M) == 1)
      continue;
    return F.error(I, "the modifier ." + M + " is not supported");
  }
  if (!Vector4 || Types.size() != 2)
    return F.error(I, "takes .v4, a result type and a coordinate type");
  R.Result = Types[0];
  R.Coordinate = Types[1];
  if (R.Result.Bits != 32 || R.Result.K == PtxType::Kind::Bits ||
      R.Result.K == PtxType::Kind::BFloat || R.Result.Lanes != 1)
    return F.error(I, "the result type must be .f32, .s32 or .u32");
  if (R.Coordinate.Bits != 32 || (R.Coordinate.K != PtxType::Kind::Float &&
                                  R.Coordinate.K != PtxType::Kind::Signed))
    return F.error(I, "the coordinate type must be .f32 or .s32");
  if (I.Operands.size() < 2)
    return F.error(I, "takes a destination and a texture operand [a, c]");
  const Operand &D = I.Operands[0];
  R.Destination = &D;
  if (D.K == Operand::Kind::Pair) {
    R.Destination = &D.Elements[0];
    R.Resident = &D.Elements[1];
  }
  if (R.Destination->K != Operand::Kind::Vector ||
      R.Destination->Elements.size() != 4)
    return F.error(I, "the destination must be a vector of four registers");
  const Operand &A = I.Operands[1];
  if (A.K != Operand::Kind::Address || A.Elements.size() < 2)
    return F.error(I, "the second operand must be [texture, coordinates]");
  if (A.Elements.size() == 3)
    return F.error(I, "separate samplers (independent texture mode) are not "
                      "supported by this driver's PTX JIT");
  if (A.Elements.size() != 2 || A.Value != 0)
    return F.error(I, "the second operand must be [texture, coordinates]");
  R.Texture = &A.Elements[0];
  R.Coords = elementsOf(A.Elements[1]);
  unsigned Needed = R.G.Dims + (R.G.Layered ? 1 : 0);
  // Three coordinates come as a vector of four, the last unused.
  if (R.Coords.size() != Needed && !(Needed == 3 && R.Coords.size() == 4))
    return F.error(I, llvm::formatv("this geometry takes {0} coordinates, "
                                    "not {1}",
                                    Needed, R.Coords.size()));
  return R;
}

/// Reads coordinate \p Index (after the layer) of \p R as a float.
llvm::Expected<Value *> coordinate(FunctionTranslator &F, const Instruction &I,
                                   const Fetch &R, unsigned Index) {
  if (Index >= R.G.Dims)
    return llvm::ConstantFP::get(F.B.getFloatTy(), 0.0);
  return F.readAs(I, *R.Coords[Index + (R.G.Layered ? 1 : 0)], F.B.getFloatTy(),
                  false);
}

/// Stores the four words at \p Words into the destination registers, as the
/// result type, and marks the texel resident.
llvm::Error writeResult(FunctionTranslator &F, const Instruction &I,
                        const Fetch &R, Value *Words) {
  for (unsigned C = 0; C < 4; ++C) {
    Value *P = F.B.CreateConstGEP1_64(F.B.getInt32Ty(), Words, C);
    Value *W = F.B.CreateLoad(F.B.getInt32Ty(), P);
    if (R.Result.isFloat())
      W = F.B.CreateBitCast(W, F.B.getFloatTy());
    if (auto E = F.write(I, R.Destination->Elements[C], W, R.Result))
      return E;
  }
  // cucpu's arrays are never sparse: every texel is resident.
  if (R.Resident)
    if (auto E =
            F.write(I, *R.Resident, F.B.getTrue(), *PtxType::parse("pred")))
      return E;
  return llvm::Error::success();
}

/// Calls __cucpu_tex_sample with a CucpuFetch of form \p Form for \p R;
/// \p Extra stores the level or gradients. Returns the words' address.
llvm::Expected<Value *>
sample(FunctionTranslator &F, const Instruction &I, const Fetch &R,
       Value *Handle, unsigned Form,
       llvm::function_ref<llvm::Error(Value *Record)> Extra) {
  auto &B = F.B;
  Value *Record = F.entryAlloca(llvm::ArrayType::get(B.getInt8Ty(), FetchBytes),
                                4, "fetch");
  B.CreateMemSet(Record, B.getInt8(0), FetchBytes, llvm::MaybeAlign(4));
  for (unsigned D = 0; D < R.G.Dims; ++D) {
    auto X = coordinate(F, I, R, D);
    if (!X)
      return X.takeError();
    B.CreateStore(
        *X, B.CreateConstGEP1_64(B.getInt8Ty(), Record, CoordOffset + 4 * D));
  }
  if (R.G.Layered) {
    auto Layer = F.readAs(I, *R.Coords[0], B.getInt32Ty(), false);
    if (!Layer)
      return Layer.takeError();
    B.CreateStore(*Layer,
                  B.CreateConstGEP1_64(B.getInt8Ty(), Record, LayerOffset));
  }
  if (auto E = Extra(Record))
    return E;
  B.CreateStore(B.getInt32(Form),
                B.CreateConstGEP1_64(B.getInt8Ty(), Record, FormOffset));
  Value *Words =
      F.entryAlloca(llvm::ArrayType::get(B.getInt32Ty(), 4), 4, "texel");
  auto Callee = F.declare(
      "__cucpu_tex_sample",
      llvm::FunctionType::get(
          B.getVoidTy(), {B.getInt64Ty(), B.getPtrTy(), B.getPtrTy()}, false));
  markRuntimeCall(B.CreateCall(Callee, {Handle, Record, Words}));
  return Words;
}

/// Stores the gradient vector \p Op (dPdx for \p Which 0, dPdy for 1).
llvm::Error storeGradient(FunctionTranslator &F, const Instruction &I,
                          const Fetch &R, const Operand &Op, unsigned Which,
                          Value *Record) {
  std::vector<const Operand *> Elements = elementsOf(Op);
  unsigned Dims = R.G.Dims;
  if (Elements.size() != Dims && !(Dims == 3 && Elements.size() == 4))
    return F.error(I, llvm::formatv("the gradients of this geometry have {0} "
                                    "components, not {1}",
                                    Dims, Elements.size()));
  for (unsigned D = 0; D < Dims; ++D) {
    auto V = F.readAs(I, *Elements[D], F.B.getFloatTy(), false);
    if (!V)
      return V.takeError();
    F.B.CreateStore(
        *V, F.B.CreateConstGEP1_64(F.B.getInt8Ty(), Record,
                                   GradientOffset + 12 * Which + 4 * D));
  }
  return llvm::Error::success();
}

/// tex{.level,.grad}.geom.v4.dtype.ctype d[|p], [a, c] {, lod | dPdx, dPdy}
llvm::Error tex(FunctionTranslator &F, const Instruction &I) {
  auto R = parseFetch(F, I, {"level", "grad"});
  if (!R)
    return R.takeError();
  bool IsLevel = I.has("level"), IsGrad = I.has("grad");
  if (IsLevel && IsGrad)
    return F.error(I, "takes .level or .grad, not both");
  size_t Operands = IsLevel ? 3 : IsGrad ? 4 : 2;
  if (I.Operands.size() != Operands)
    return F.error(I, llvm::formatv("takes {0} operands, not {1} (texel "
                                    "offsets and depth comparison are not "
                                    "supported)",
                                    Operands, I.Operands.size()));
  auto Handle = textureHandle(F, I, *R->Texture, HandleKind::Texture);
  if (!Handle)
    return Handle.takeError();
  auto &B = F.B;
  Value *Words = nullptr;
  if (R->Coordinate.isSigned()) {
    // Integer coordinates: tex1Dfetch's fetch of texel x.
    if (R->G.Type != 0x01 || IsLevel || IsGrad)
      return F.error(I, "integer coordinates are supported by tex.1d (a "
                        "fetch from linear memory) only");
    auto X = F.readAs(I, *R->Coords[0], B.getInt32Ty(), true);
    if (!X)
      return X.takeError();
    Words = F.entryAlloca(llvm::ArrayType::get(B.getInt32Ty(), 4), 4, "texel");
    auto Callee =
        F.declare("__cucpu_tex_fetch_index",
                  llvm::FunctionType::get(
                      B.getVoidTy(),
                      {B.getInt64Ty(), B.getInt32Ty(), B.getPtrTy()}, false));
    markRuntimeCall(B.CreateCall(Callee, {*Handle, *X, Words}));
    return writeResult(F, I, *R, Words);
  }
  bool Plain = R->G.Type <= 0x03;
  if (Plain && !IsLevel && !IsGrad) {
    // tex1D, tex2D, tex3D.
    Value *XYZ[3];
    for (unsigned D = 0; D < 3; ++D) {
      auto X = coordinate(F, I, *R, D);
      if (!X)
        return X.takeError();
      XYZ[D] = *X;
    }
    Words = F.entryAlloca(llvm::ArrayType::get(B.getInt32Ty(), 4), 4, "texel");
    llvm::Type *Fl = B.getFloatTy();
    auto Callee = F.declare(
        "__cucpu_tex_fetch",
        llvm::FunctionType::get(
            B.getVoidTy(),
            {B.getInt64Ty(), B.getInt32Ty(), Fl, Fl, Fl, B.getPtrTy()}, false));
    markRuntimeCall(B.CreateCall(Callee, {*Handle, B.getInt32(R->G.Dims),
                                          XYZ[0], XYZ[1], XYZ[2], Words}));
    return writeResult(F, I, *R, Words);
  }
  unsigned Form = R->G.Type | (IsLevel ? Level : IsGrad ? Gradient : Sample);
  auto Extra = [&](Value *Record) -> llvm::Error {
    if (IsLevel) {
      auto L = F.readAs(I, I.Operands[2], B.getFloatTy(), false);
      if (!L)
        return L.takeError();
      B.CreateStore(*L,
                    B.CreateConstGEP1_64(B.getInt8Ty(), Record, LevelOffset));
    }
    if (IsGrad)
      for (unsigned G = 0; G < 2; ++G)
        if (auto E = storeGradient(F, I, *R, I.Operands[2 + G], G, Record))
          return E;
    return llvm::Error::success();
  };
  auto W = sample(F, I, *R, *Handle, Form, Extra);
  if (!W)
    return W.takeError();
  return writeResult(F, I, *R, *W);
}

/// tld4.comp.2d.v4.dtype.f32 d[|p], [a, c]: one channel of the four texels
/// of the bilinear footprint (tex2Dgather).
llvm::Error tld4(FunctionTranslator &F, const Instruction &I) {
  auto R = parseFetch(F, I, {"r", "g", "b", "a"});
  if (!R)
    return R.takeError();
  int Component = -1, Components = 0;
  for (const std::string &M : I.Modifiers) {
    int C = llvm::StringSwitch<int>(M)
                .Case("r", 0)
                .Case("g", 1)
                .Case("b", 2)
                .Case("a", 3)
                .Default(-1);
    if (C >= 0) {
      Component = C;
      ++Components;
    }
  }
  if (Components != 1)
    return F.error(I, "needs one component (.r, .g, .b or .a)");
  if (R->G.Type != 0x02)
    return F.error(I, "gathers from .2d textures only are supported by this "
                      "driver's PTX JIT");
  if (!R->Coordinate.isFloat())
    return F.error(I, "the coordinate type must be .f32");
  if (I.Operands.size() != 2)
    return F.error(I, "texel offsets and depth comparison are not supported");
  auto Handle = textureHandle(F, I, *R->Texture, HandleKind::Texture);
  if (!Handle)
    return Handle.takeError();
  unsigned Form = R->G.Type | Gather | unsigned(Component) << 16;
  auto W = sample(F, I, *R, *Handle, Form,
                  [](Value *) { return llvm::Error::success(); });
  if (!W)
    return W.takeError();
  return writeResult(F, I, *R, *W);
}

/// txq{.level}.width/height/depth.b32 d, [a]{, lod}: the size of (a level
/// of) the texture, as __cucpu_tex_query answers it.
llvm::Error txq(FunctionTranslator &F, const Instruction &I) {
  bool IsLevel = I.has("level");
  int Query = -1;
  for (const std::string &M : I.Modifiers) {
    if (M == "level" || M == "b32")
      continue;
    int Q = llvm::StringSwitch<int>(M)
                .Case("width", 0)
                .Case("height", 1)
                .Case("depth", 2)
                .Default(-1);
    if (Q < 0 || Query >= 0)
      // NVIDIA's driver (580, sm_90) compiles no other query either: the
      // kernel is missing from the module it loads.
      return F.error(I, "the query ." + M +
                            " is not supported (width, height and depth are)");
    Query = Q;
  }
  if (Query < 0 || !I.has("b32"))
    return F.error(I, "needs a query (.width, .height, .depth) and .b32");
  if (auto E = F.expectOperands(I, IsLevel ? 3 : 2))
    return E;
  const Operand &A = I.Operands[1];
  if (A.K != Operand::Kind::Address || A.Elements.size() != 1 || A.Value != 0)
    return F.error(I, "the second operand must be [texture]");
  auto Handle = textureHandle(F, I, A.Elements[0], HandleKind::Texture);
  if (!Handle)
    return Handle.takeError();
  auto &B = F.B;
  Value *Level = B.getInt32(0);
  if (IsLevel) {
    auto L = F.readAs(I, I.Operands[2], B.getInt32Ty(), true);
    if (!L)
      return L.takeError();
    Level = *L;
  }
  auto Callee =
      F.declare("__cucpu_tex_query",
                llvm::FunctionType::get(
                    B.getInt32Ty(),
                    {B.getInt64Ty(), B.getInt32Ty(), B.getInt32Ty()}, false));
  llvm::CallInst *Call =
      B.CreateCall(Callee, {*Handle, B.getInt32(unsigned(Query)), Level});
  markRuntimeCall(Call);
  return F.write(I, I.Operands[0], Call, *PtxType::parse("b32"));
}

} // namespace

void addTextureOps(OpTable &T) {
  T["tex"] = tex;
  T["tld4"] = tld4;
  T["txq"] = txq;
  addSurfaceOps(T);
}

} // namespace cucpu::ptx
