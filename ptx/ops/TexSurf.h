//===- TexSurf.h - What texture and surface instructions share --*- C++ -*-===//
//
// Texture and surface references become what cucc makes of texture<> and
// surface<> variables: an i64 in the global address space that
// nvvm.annotations marks "texture" or "surface", so that the image records it
// (modules/image/TextureRefs) and the cucpu-textures pass turns its handle,
// llvm.nvvm.texsurf.handle.internal(@ref), into the launch's table entry.
// An instruction's texture or surface operand is such a reference or a
// register holding an object's 64-bit handle; both become the handle the
// runtime's __cucpu_tex_* and __cucpu_surf_* functions take.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_OPS_TEXSURF_H
#define CUCPU_PTX_OPS_TEXSURF_H

#include "ModuleContext.h"
#include "Ops.h"

#include <optional>

namespace cucpu::ptx {

/// Declares the module-scope .texref, .surfref or .samplerref (or .tex
/// state space) variable \p V.
llvm::Error declareTextureReference(ModuleContext &Module, const Variable &V);

/// What a texture or surface operand must name.
enum class HandleKind { Texture, Surface };

/// The 64-bit handle of the texture or surface \p Base (a reference's name or
/// a register holding an object's handle).
llvm::Expected<llvm::Value *> textureHandle(FunctionTranslator &F,
                                            const Instruction &I,
                                            const Operand &Base,
                                            HandleKind Kind);

/// A texture or surface geometry modifier (.1d, .a2d, ...).
struct Geometry {
  /// cudaTextureType of the geometry (1, 2, 3, 0x0C, 0xF1, 0xF2, 0xFC).
  unsigned Type = 0;
  /// Coordinates (x, y, z) the geometry takes.
  unsigned Dims = 0;
  /// Whether the coordinate vector starts with a layer index.
  bool Layered = false;
};

/// The geometry a modifier names (.2dms and .a2dms are not among them).
std::optional<Geometry> geometryNamed(llvm::StringRef Modifier);
/// The geometry among \p I's modifiers, if any.
std::optional<Geometry> geometryOf(const Instruction &I);

/// The elements of a vector operand ({a, b}) or the operand itself.
std::vector<const Operand *> elementsOf(const Operand &Op);

/// Marks a call of the runtime library as cucc's calls of it are marked.
void markRuntimeCall(llvm::CallInst *Call);

/// Adds suld, sust and suq (ops/Surfaces.cpp).
void addSurfaceOps(OpTable &T);

} // namespace cucpu::ptx

#endif // CUCPU_PTX_OPS_TEXSURF_H
