//===- Texture.cpp - Texture references and objects (E.9, E.7.7) ----------===//
#include "api/Handles.h"
#include "api/Kernels.h"
#include "core/EntryPoint.h"

#include <cstring>
#include <tuple>

using namespace cucpu;
using namespace cucpu::api;

namespace {
/// Runs \p Fn on the texture reference \p H after checking \p Out.
template <typename T, typename Fn>
CUresult getTexRef(T *Out, CUtexref H, Fn &&Get) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The result pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    return Get(*R);
  });
}

/// The live texture object \p H names.
llvm::Expected<std::shared_ptr<TexObject>> lookupTexObject(CUtexObject H) {
  return lookupHandle<TexObject>(reinterpret_cast<const void *>(uintptr_t(H)),
                                 {"texture object", CUDA_ERROR_INVALID_VALUE});
}
} // namespace

// --- Texture references ----------------------------------------------------

CUCPU_EXPORT CUresult CUDAAPI cuTexRefCreate(CUtexref *Out) {
  return CU_ENTRY(Out).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The texture reference pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
    auto R = std::make_shared<TexRef>(Ctx, /*FromModule=*/false);
    HandleRegistry::get().add(R);
    Ctx->own(R);
    *Out = toHandle(*R);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefDestroy(CUtexref H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    // NVIDIA's driver answers success for a module's reference and keeps
    // it: it lives as long as its module.
    if (R->fromModule())
      return llvm::Error::success();
    HandleRegistry::get().remove(R.get());
    if (std::shared_ptr<Context> Ctx = R->context())
      Ctx->disown(R.get());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefSetArray(CUtexref H, CUarray A,
                                               unsigned int Flags) {
  return CU_ENTRY(H, A, Flags).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    CU_TRY_ASSIGN(std::shared_ptr<Array> Bound, lookupArray(A));
    return R->setArray(std::move(Bound), Flags);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefSetAddress_v2(size_t *ByteOffset,
                                                    CUtexref H,
                                                    CUdeviceptr Address,
                                                    size_t Bytes) {
  return CU_ENTRY(ByteOffset, H, Address, Bytes).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    CU_TRY_ASSIGN(size_t Offset, R->setAddress(Address, Bytes));
    if (ByteOffset)
      *ByteOffset = Offset;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuTexRefSetAddress2D_v3(CUtexref H, const CUDA_ARRAY_DESCRIPTOR *Desc,
                        CUdeviceptr Address, size_t Pitch) {
  return CU_ENTRY(H, Desc, Address, Pitch).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    CU_INVALID_IF(!Desc, CUDA_ERROR_INVALID_VALUE,
                  "The array descriptor pointer is NULL.");
    return R->setAddress2D(*Desc, Address, Pitch);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefSetFormat(CUtexref H,
                                                CUarray_format Format,
                                                int Channels) {
  return CU_ENTRY(H, Format, Channels).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    return R->setFormat(Format, Channels);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefSetAddressMode(CUtexref H, int Dim,
                                                     CUaddress_mode Mode) {
  return CU_ENTRY(H, Dim, Mode).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    return R->setAddressMode(Dim, Mode);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefSetFilterMode(CUtexref H,
                                                    CUfilter_mode Mode) {
  return CU_ENTRY(H, Mode).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    R->setFilterMode(Mode);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefSetFlags(CUtexref H, unsigned int Flags) {
  return CU_ENTRY(H, Flags).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    return R->setFlags(Flags);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefSetBorderColor(CUtexref H, float *Color) {
  return CU_ENTRY(H, Color).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    CU_INVALID_IF(!Color, CUDA_ERROR_INVALID_VALUE,
                  "The border color pointer is NULL.");
    R->setBorderColor(Color);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefSetMaxAnisotropy(CUtexref H,
                                                       unsigned int Value) {
  return CU_ENTRY(H, Value).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    R->setMaxAnisotropy(Value);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefGetAddress_v2(CUdeviceptr *Out,
                                                    CUtexref H) {
  return getTexRef(Out, H, [&](TexRef &R) -> llvm::Error {
    *Out = 0; // Written even when the reference is not bound, as on NVIDIA.
    CU_TRY_ASSIGN(*Out, R.address());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefGetArray(CUarray *Out, CUtexref H) {
  return getTexRef(Out, H, [&](TexRef &R) -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Array> A, R.array());
    *Out = toHandle(*A);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefGetAddressMode(CUaddress_mode *Out,
                                                     CUtexref H, int Dim) {
  return getTexRef(Out, H, [&](TexRef &R) -> llvm::Error {
    CU_TRY_ASSIGN(*Out, R.addressMode(Dim));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefGetFilterMode(CUfilter_mode *Out,
                                                    CUtexref H) {
  return getTexRef(Out, H, [&](TexRef &R) -> llvm::Error {
    *Out = R.filterMode();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefGetFormat(CUarray_format *Format,
                                                int *Channels, CUtexref H) {
  return CU_ENTRY(Format, Channels, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Format && !Channels, CUDA_ERROR_INVALID_VALUE,
                  "The format and channel pointers are both NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    auto [F, C] = R->format();
    if (Format)
      *Format = F;
    if (Channels)
      *Channels = C;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefGetFlags(unsigned int *Out, CUtexref H) {
  return getTexRef(Out, H, [&](TexRef &R) -> llvm::Error {
    *Out = R.flags();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefGetBorderColor(float *Out, CUtexref H) {
  return getTexRef(Out, H, [&](TexRef &R) -> llvm::Error {
    std::array<float, 4> Color = R.borderColor();
    std::memcpy(Out, Color.data(), sizeof(Color));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefGetMaxAnisotropy(int *Out, CUtexref H) {
  return getTexRef(Out, H, [&](TexRef &R) -> llvm::Error {
    *Out = int(R.maxAnisotropy());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefSetMipmapFilterMode(CUtexref H,
                                                          CUfilter_mode Mode) {
  return CU_ENTRY(H, Mode).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    return R->setMipmapFilterMode(Mode);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefSetMipmapLevelBias(CUtexref H,
                                                         float Bias) {
  return CU_ENTRY(H, Bias).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    R->setMipmapLevelBias(Bias);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefSetMipmapLevelClamp(CUtexref H, float Min,
                                                          float Max) {
  return CU_ENTRY(H, Min, Max).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    R->setMipmapLevelClamp(Min, Max);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefGetMipmapFilterMode(CUfilter_mode *Out,
                                                          CUtexref H) {
  return getTexRef(Out, H, [&](TexRef &R) -> llvm::Error {
    *Out = R.mipmapFilterMode();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefGetMipmapLevelBias(float *Out,
                                                         CUtexref H) {
  return getTexRef(Out, H, [&](TexRef &R) -> llvm::Error {
    *Out = R.mipmapLevelBias();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefGetMipmapLevelClamp(float *Min,
                                                          float *Max,
                                                          CUtexref H) {
  return CU_ENTRY(Min, Max, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Min || !Max, CUDA_ERROR_INVALID_VALUE,
                  "The result pointers must not be NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    std::tie(*Min, *Max) = R->mipmapLevelClamp();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefSetMipmappedArray(CUtexref H,
                                                        CUmipmappedArray A,
                                                        unsigned int Flags) {
  return CU_ENTRY(H, A, Flags).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    CU_TRY_ASSIGN(std::shared_ptr<MipmappedArray> M, lookupMipmappedArray(A));
    return R->setMipmappedArray(std::move(M), Flags);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexRefGetMipmappedArray(CUmipmappedArray *Out,
                                                        CUtexref H) {
  return getTexRef(Out, H, [&](TexRef &R) -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<MipmappedArray> M, R.mipmappedArray());
    *Out = reinterpret_cast<CUmipmappedArray>(M.get());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuParamSetTexRef(CUfunction F, int TexUnit,
                                               CUtexref H) {
  return CU_ENTRY(F, TexUnit, H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Function> Fn, lookupFunction(F));
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, lookupTexRef(H));
    CU_INVALID_IF(TexUnit != CU_PARAM_TR_DEFAULT, CUDA_ERROR_INVALID_VALUE,
                  "The texture unit must be CU_PARAM_TR_DEFAULT, not {0}.",
                  TexUnit);
    std::shared_ptr<Module> M = Fn->module();
    CU_INVALID_IF(!M || !M->ownsTexRef(*R), CUDA_ERROR_INVALID_VALUE,
                  "cuParamSetTexRef takes a texture reference of the "
                  "function's own module (cuModuleGetTexRef).");
    // A kernel reads its module's references by name; nothing to record.
    return llvm::Error::success();
  });
}

// --- Texture objects --------------------------------------------------------

CUCPU_EXPORT CUresult CUDAAPI cuTexObjectCreate(
    CUtexObject *Out, const CUDA_RESOURCE_DESC *Res,
    const CUDA_TEXTURE_DESC *Tex, const CUDA_RESOURCE_VIEW_DESC *View) {
  return CU_ENTRY(Out, Res, Tex, View).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out || !Res || !Tex, CUDA_ERROR_INVALID_VALUE,
                  "The texture object, resource and texture description "
                  "pointers must not be NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<TexObject> O,
                  TexObject::create(Ctx, *Res, *Tex, View));
    *Out = O->handle();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexObjectDestroy(CUtexObject H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    if (H == 0)
      return llvm::Error::success(); // As on NVIDIA.
    CU_TRY_ASSIGN(std::shared_ptr<TexObject> O, lookupTexObject(H));
    // Queued launches may still read the texture through its handle.
    if (std::shared_ptr<Context> Ctx = O->context())
      CU_TRY(Ctx->queues().drain());
    HandleRegistry::get().remove(O->handleKey());
    if (std::shared_ptr<Context> Ctx = O->context())
      Ctx->disown(O.get());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *Out, CUtexObject H) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The result pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<TexObject> O, lookupTexObject(H));
    *Out = O->resourceDesc();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *Out,
                                                        CUtexObject H) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The result pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<TexObject> O, lookupTexObject(H));
    *Out = O->textureDesc();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *Out, CUtexObject H) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The result pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<TexObject> O, lookupTexObject(H));
    *Out = O->viewDesc();
    return llvm::Error::success();
  });
}
