//===- Surfaces.cpp - PTX instructions: suld, sust, suq -------------------===//
//
// suld.b and sust.b move raw bytes, as cucc's surf*read and surf*write do:
// each calls the runtime's __cucpu_surf_read or __cucpu_surf_write
// (modules/abi/include/cucpu/modules/abi/SurfaceAbi.h) with the handle, the
// access's form (surface type, boundary mode, bytes) and x (a byte offset), y
// and z (a 3D slice, or the layer of an .a1d/.a2d access: a layered surface's
// layer, a cubemap's face or a layered cubemap's layer * 6 + face, which nvcc's
// surfCubemap* emit).
//
//===----------------------------------------------------------------------===//

#include "Ops.h"
#include "TexSurf.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

namespace cucpu::ptx {

namespace {

using llvm::Value;

/// The parts of a suld.b or sust.b instruction.
struct Access {
  Geometry G;
  PtxType Element;       ///< .b8, .b16, .b32 or .b64.
  unsigned Count = 1;    ///< Elements: 1, 2 or 4.
  unsigned Mode = 2;     ///< CucpuSurface*: zero 0, clamp 1, trap 2.
  const Operand *Values; ///< The destination or source registers.
  const Operand *Surface;
  std::vector<const Operand *> Coords;

  unsigned bytes() const { return Element.Bits / 8 * Count; }
  unsigned form() const { return G.Type | Mode << 8 | bytes() << 16; }
};

/// Parses suld.b.geom{.cop}{.vec}.dtype{.mode} d, [a, b] (\p Load) or
/// sust.b.geom{.cop}{.vec}.ctype{.mode} [a, b], c.
llvm::Expected<Access> parseAccess(FunctionTranslator &F, const Instruction &I,
                                   bool Load) {
  Access R;
  if (I.has("p"))
    return F.error(I, "formatted surface accesses (.p) are not supported by "
                      "this driver's PTX JIT");
  if (!I.has("b"))
    return F.error(I, "needs .b (raw bytes)");
  auto G = geometryOf(I);
  if (!G || G->Type == 0x0C || G->Type == 0xFC)
    return F.error(I, "needs a geometry .1d, .2d, .3d, .a1d or .a2d");
  R.G = *G;
  bool Typed = false, Moded = false;
  unsigned Geometries = 0;
  for (const std::string &M : I.Modifiers) {
    if ((M == "b" && llvm::count(I.Modifiers, M) == 1) ||
        (geometryNamed(M) && ++Geometries == 1))
      continue;
    if (M == "ca" || M == "cg" || M == "cs" || M == "cv" || M == "wb" ||
        M == "wt")
      continue; // Cache operators: the CPU has its own caches.
    if (M == "v2" || M == "v4") {
      R.Count = M == "v2" ? 2 : 4;
      continue;
    }
    int Mode = llvm::StringSwitch<int>(M)
                   .Case("zero", 0)
                   .Case("clamp", 1)
                   .Case("trap", 2)
                   .Default(-1);
    if (Mode >= 0 && !Moded) {
      R.Mode = unsigned(Mode);
      Moded = true;
      continue;
    }
    auto T = PtxType::parse(M);
    if (T && T->K == PtxType::Kind::Bits && T->Bits <= 64 && !Typed) {
      R.Element = *T;
      Typed = true;
      continue;
    }
    return F.error(I, "the modifier ." + M + " is not supported");
  }
  if (!Typed)
    return F.error(I, "needs a type .b8, .b16, .b32 or .b64");
  if (R.bytes() > 16)
    return F.error(I, "accesses at most 16 bytes (.v4.b64 is not an access)");
  if (I.Operands.size() != 2)
    return F.error(I, "takes 2 operands");
  const Operand &A = I.Operands[Load ? 1 : 0];
  R.Values = &I.Operands[Load ? 0 : 1];
  if (A.K != Operand::Kind::Address || A.Elements.size() != 2 || A.Value != 0)
    return F.error(I, "the surface operand must be [surface, coordinates]");
  R.Surface = &A.Elements[0];
  R.Coords = elementsOf(A.Elements[1]);
  unsigned Needed = R.G.Dims + (R.G.Layered ? 1 : 0);
  if (R.Coords.size() != Needed && !(Needed == 3 && R.Coords.size() == 4))
    return F.error(I, llvm::formatv("this geometry takes {0} coordinates, not "
                                    "{1}",
                                    Needed, R.Coords.size()));
  if (elementsOf(*R.Values).size() != R.Count)
    return F.error(I, llvm::formatv("the access moves {0} elements; {1} "
                                    "registers are given",
                                    R.Count, elementsOf(*R.Values).size()));
  return R;
}

/// The handle and x, y, z of an access, as cucc's surf* functions pass them.
llvm::Expected<std::array<Value *, 4>>
handleAndCoordinates(FunctionTranslator &F, const Instruction &I,
                     const Access &R) {
  auto Handle = textureHandle(F, I, *R.Surface, HandleKind::Surface);
  if (!Handle)
    return Handle.takeError();
  std::array<Value *, 4> Result = {*Handle, F.B.getInt32(0), F.B.getInt32(0),
                                   F.B.getInt32(0)};
  // (x, y, z), or (layer, x[, y]).
  unsigned First = R.G.Layered ? 1 : 0;
  for (unsigned D = 0; D < R.G.Dims; ++D) {
    auto V = F.readAs(I, *R.Coords[First + D], F.B.getInt32Ty(), true);
    if (!V)
      return V.takeError();
    Result[1 + D] = *V;
  }
  if (R.G.Layered) {
    auto Layer = F.readAs(I, *R.Coords[0], F.B.getInt32Ty(), false);
    if (!Layer)
      return Layer.takeError();
    Result[3] = *Layer;
  }
  return Result;
}

llvm::FunctionType *accessType(FunctionTranslator &F) {
  auto &B = F.B;
  llvm::Type *I32 = B.getInt32Ty();
  return llvm::FunctionType::get(
      B.getVoidTy(), {B.getInt64Ty(), I32, I32, I32, I32, B.getPtrTy()}, false);
}

/// suld.b: reads the bytes and stores them into the destination registers.
llvm::Error suld(FunctionTranslator &F, const Instruction &I) {
  auto R = parseAccess(F, I, /*Load=*/true);
  if (!R)
    return R.takeError();
  auto Args = handleAndCoordinates(F, I, *R);
  if (!Args)
    return Args.takeError();
  auto &B = F.B;
  Value *Bytes =
      F.entryAlloca(llvm::ArrayType::get(B.getInt8Ty(), 16), 16, "surface");
  auto Callee = F.declare("__cucpu_surf_read", accessType(F));
  auto [Handle, X, Y, Z] = *Args;
  markRuntimeCall(
      B.CreateCall(Callee, {Handle, B.getInt32(R->form()), X, Y, Z, Bytes}));
  llvm::Type *Ty = B.getIntNTy(R->Element.Bits);
  std::vector<const Operand *> Values = elementsOf(*R->Values);
  for (unsigned E = 0; E < R->Count; ++E) {
    Value *P = B.CreateConstGEP1_64(Ty, Bytes, E);
    if (auto Err = F.write(I, *Values[E], B.CreateLoad(Ty, P), R->Element))
      return Err;
  }
  return llvm::Error::success();
}

/// sust.b: writes the source registers' bytes.
llvm::Error sust(FunctionTranslator &F, const Instruction &I) {
  auto R = parseAccess(F, I, /*Load=*/false);
  if (!R)
    return R.takeError();
  auto Args = handleAndCoordinates(F, I, *R);
  if (!Args)
    return Args.takeError();
  auto &B = F.B;
  Value *Bytes =
      F.entryAlloca(llvm::ArrayType::get(B.getInt8Ty(), 16), 16, "surface");
  llvm::Type *Ty = B.getIntNTy(R->Element.Bits);
  std::vector<const Operand *> Values = elementsOf(*R->Values);
  for (unsigned E = 0; E < R->Count; ++E) {
    auto V = F.readAs(I, *Values[E], Ty, false);
    if (!V)
      return V.takeError();
    B.CreateStore(*V, B.CreateConstGEP1_64(Ty, Bytes, E));
  }
  auto Callee = F.declare("__cucpu_surf_write", accessType(F));
  auto [Handle, X, Y, Z] = *Args;
  markRuntimeCall(
      B.CreateCall(Callee, {Handle, B.getInt32(R->form()), X, Y, Z, Bytes}));
  return llvm::Error::success();
}

/// suq.width/height/depth.b32 d, [a]: the surface's size in elements, as
/// __cucpu_surf_query answers it.
llvm::Error suq(FunctionTranslator &F, const Instruction &I) {
  int Query = -1;
  for (const std::string &M : I.Modifiers) {
    if (M == "b32")
      continue;
    int Q = llvm::StringSwitch<int>(M)
                .Case("width", 0)
                .Case("height", 1)
                .Case("depth", 2)
                .Default(-1);
    if (Q < 0 || Query >= 0)
      // NVIDIA's driver (580, sm_90) refuses the others too
      // (CUDA_ERROR_NOT_SUPPORTED).
      return F.error(I, "the query ." + M +
                            " is not supported (width, height and depth are)");
    Query = Q;
  }
  if (Query < 0 || !I.has("b32"))
    return F.error(I, "needs a query (.width, .height, .depth) and .b32");
  if (auto E = F.expectOperands(I, 2))
    return E;
  const Operand &A = I.Operands[1];
  if (A.K != Operand::Kind::Address || A.Elements.size() != 1 || A.Value != 0)
    return F.error(I, "the second operand must be [surface]");
  auto Handle = textureHandle(F, I, A.Elements[0], HandleKind::Surface);
  if (!Handle)
    return Handle.takeError();
  auto &B = F.B;
  auto Callee =
      F.declare("__cucpu_surf_query",
                llvm::FunctionType::get(
                    B.getInt32Ty(), {B.getInt64Ty(), B.getInt32Ty()}, false));
  llvm::CallInst *Call =
      B.CreateCall(Callee, {*Handle, B.getInt32(unsigned(Query))});
  markRuntimeCall(Call);
  return F.write(I, I.Operands[0], Call, *PtxType::parse("b32"));
}

} // namespace

void addSurfaceOps(OpTable &T) {
  T["suld"] = suld;
  T["sust"] = sust;
  T["suq"] = suq;
}

} // namespace cucpu::ptx
