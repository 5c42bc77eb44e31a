//===- Texture.cpp - Texture references and texture objects ---------------===//
//
// Validation follows what NVIDIA's driver answers today (tools/texture-facts
// and its output on an H200).
//
//===----------------------------------------------------------------------===//
#include "core/Texture.h"

#include "core/AddressSpace.h"
#include "core/Array.h"
#include "core/Context.h"
#include "core/Error.h"
#include "core/HandleRegistry.h"
#include "core/MipmappedArray.h"

#include <algorithm>
#include <cstring>

using namespace cucpu;

namespace {
/// How much of linear memory [Base, Base + Bytes) a fetch may read: the
/// bytes up to the end of the allocation containing Base (0 if none), so
/// that a binding past an allocation reads zeros instead of faulting.
uint64_t readableBytes(uint64_t Base, uint64_t Bytes) {
  std::optional<OwnedAllocation> A = findAllocation(Base);
  if (!A)
    return 0;
  return std::min<uint64_t>(Bytes, A->Range.Base + A->Range.Size - Base);
}

/// Largest texture in linear memory, in texels
/// (CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH).
constexpr uint64_t MaxLinearTexels = uint64_t(1) << 28;
/// Largest pitched texture (CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_*).
constexpr uint64_t MaxPitchedWidth = 131072, MaxPitchedHeight = 65000,
                   MaxTexturePitch = 2097120;
/// cuTexRefSetFlags: read as integer, normalized coordinates, sRGB, no
/// trilinear optimization, and the two unnamed bits between them, which
/// NVIDIA's driver accepts too.
constexpr unsigned TexRefFlags = 0x3f;
/// Texture objects take the named flags and seamless cubemap filtering.
constexpr unsigned TexObjectFlags =
    CU_TRSF_READ_AS_INTEGER | CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB |
    CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION | CU_TRSF_SEAMLESS_CUBEMAP;

/// The cudaTextureType of an array of descriptor \p D.
uint32_t arrayShape(const CUDA_ARRAY3D_DESCRIPTOR &D) {
  bool Layered = D.Flags & CUDA_ARRAY3D_LAYERED;
  if (D.Flags & CUDA_ARRAY3D_CUBEMAP)
    return Layered ? CucpuShapeCubemapLayered : CucpuShapeCubemap;
  if (Layered)
    return D.Height ? CucpuShape2DLayered : CucpuShape1DLayered;
  return D.Depth ? CucpuShape3D : D.Height ? CucpuShape2D : CucpuShape1D;
}

/// A description that reads \p A whole.
CucpuTexture arrayTexture(const Array &A) {
  CucpuTexture T{};
  const CUDA_ARRAY3D_DESCRIPTOR &D = A.descriptor();
  T.Kind = CucpuTextureArray;
  T.Data = A.data();
  T.Width = D.Width;
  T.Height = A.rows();
  T.Depth = A.slices();
  T.RowPitch = A.rowBytes();
  T.SlicePitch = A.sliceBytes();
  T.Format = D.Format;
  T.Channels = D.NumChannels;
  T.Shape = arrayShape(D);
  return T;
}

/// A description of \p Height rows of \p Width texels \p Pitch apart from
/// \p Base, cut to what lies inside Base's allocation.
CucpuTexture linearTexture(uint32_t Kind, uint64_t Base, uint64_t Width,
                           uint64_t Height, uint64_t Pitch, unsigned Format,
                           unsigned Channels) {
  CucpuTexture T{};
  unsigned Texel = formatBytes(Format) * Channels;
  if (Texel == 0 || Width == 0 || Height == 0)
    return T;
  uint64_t Readable = readableBytes(Base, (Height - 1) * Pitch + Width * Texel);
  if (Height == 1)
    Width = std::min(Width, Readable / Texel);
  else if (Readable < (Height - 1) * Pitch + Width * Texel)
    Height =
        Readable >= Width * Texel ? (Readable - Width * Texel) / Pitch + 1 : 0;
  if (Width == 0 || Height == 0)
    return T;
  T.Kind = Kind;
  T.Data = reinterpret_cast<const char *>(Base);
  T.Width = Width;
  T.Height = Height;
  T.Depth = 1;
  T.RowPitch = Pitch;
  T.SlicePitch = Pitch * Height;
  T.Format = Format;
  T.Channels = Channels;
  return T;
}

/// The resource view format that reads \p Channels channels of \p Format
/// as they are (CU_RES_VIEW_FORMAT_NONE if none does).
CUresourceViewFormat sameFormatView(unsigned Format, unsigned Channels) {
  unsigned Index = Channels == 1 ? 0 : Channels == 2 ? 1 : 2;
  switch (Format) {
  case CU_AD_FORMAT_UNSIGNED_INT8:
    return CUresourceViewFormat(CU_RES_VIEW_FORMAT_UINT_1X8 + Index);
  case CU_AD_FORMAT_SIGNED_INT8:
    return CUresourceViewFormat(CU_RES_VIEW_FORMAT_SINT_1X8 + Index);
  case CU_AD_FORMAT_UNSIGNED_INT16:
    return CUresourceViewFormat(CU_RES_VIEW_FORMAT_UINT_1X16 + Index);
  case CU_AD_FORMAT_SIGNED_INT16:
    return CUresourceViewFormat(CU_RES_VIEW_FORMAT_SINT_1X16 + Index);
  case CU_AD_FORMAT_UNSIGNED_INT32:
    return CUresourceViewFormat(CU_RES_VIEW_FORMAT_UINT_1X32 + Index);
  case CU_AD_FORMAT_SIGNED_INT32:
    return CUresourceViewFormat(CU_RES_VIEW_FORMAT_SINT_1X32 + Index);
  case CU_AD_FORMAT_HALF:
    return CUresourceViewFormat(CU_RES_VIEW_FORMAT_FLOAT_1X16 + Index);
  case CU_AD_FORMAT_FLOAT:
    return CUresourceViewFormat(CU_RES_VIEW_FORMAT_FLOAT_1X32 + Index);
  default:
    return CU_RES_VIEW_FORMAT_NONE;
  }
}

/// A view of a mipmapped array, as NVIDIA's driver takes one: a format (the
/// array's own; cucpu reinterprets no texels), the extent of level 0, and
/// levels from firstMipmapLevel (a last level past the end means the end).
llvm::Error checkMipmapView(const MipmappedArray &M,
                            const CUDA_RESOURCE_VIEW_DESC &View) {
  const CUDA_ARRAY3D_DESCRIPTOR &D = M.descriptor();
  CU_INVALID_IF(View.format == CU_RES_VIEW_FORMAT_NONE,
                CUDA_ERROR_INVALID_VALUE,
                "A view of a mipmapped array needs a format.");
  CU_INVALID_IF(View.format != sameFormatView(D.Format, D.NumChannels),
                CUDA_ERROR_NOT_SUPPORTED,
                "Views that read a mipmapped array in another format are not "
                "supported.");
  CU_INVALID_IF(View.width != D.Width || View.height != D.Height,
                CUDA_ERROR_INVALID_VALUE,
                "The view's extent {0} x {1} is not the mipmapped array's {2} "
                "x {3}.",
                View.width, View.height, D.Width, D.Height);
  CU_INVALID_IF(View.firstMipmapLevel >= M.levelCount(),
                CUDA_ERROR_INVALID_VALUE,
                "The view's first level {0} is not a level of the {1}-level "
                "mipmapped array.",
                View.firstMipmapLevel, M.levelCount());
  return llvm::Error::success();
}

/// A view of an array: its own format and its whole extent (cucpu
/// reinterprets no texels and reads no sub-range of an array's layers).
llvm::Error checkArrayView(const Array &A,
                           const CUDA_RESOURCE_VIEW_DESC &View) {
  const CUDA_ARRAY3D_DESCRIPTOR &D = A.descriptor();
  CU_INVALID_IF(View.format != sameFormatView(D.Format, D.NumChannels),
                CUDA_ERROR_NOT_SUPPORTED,
                "Views that read an array in another format are not "
                "supported.");
  CU_INVALID_IF(
      View.width != D.Width || View.height != D.Height || View.depth != D.Depth,
      CUDA_ERROR_INVALID_VALUE,
      "The view's extent {0} x {1} x {2} is not the array's {3} x "
      "{4} x {5}.",
      View.width, View.height, View.depth, D.Width, D.Height, D.Depth);
  CU_INVALID_IF(View.firstMipmapLevel || View.lastMipmapLevel ||
                    View.firstLayer || View.lastLayer,
                CUDA_ERROR_NOT_SUPPORTED,
                "Views of an array's levels or layers are not supported.");
  return llvm::Error::success();
}

llvm::Error checkPitched(uint64_t Address, uint64_t Width, uint64_t Height,
                         uint64_t Pitch, unsigned Format, unsigned Channels) {
  CU_INVALID_IF(!validChannelCount(Channels), CUDA_ERROR_INVALID_VALUE,
                "A texel has 1, 2 or 4 channels, not {0}.", Channels);
  CU_INVALID_IF(Address % TextureAlignment != 0, CUDA_ERROR_INVALID_VALUE,
                "The address {0:x} of pitched texture memory is not aligned "
                "to {1} bytes.",
                Address, TextureAlignment);
  CU_INVALID_IF(Pitch % TexturePitchAlignment != 0 || Pitch > MaxTexturePitch,
                CUDA_ERROR_INVALID_VALUE,
                "The pitch {0} is not a multiple of {1} up to {2}.", Pitch,
                TexturePitchAlignment, MaxTexturePitch);
  CU_INVALID_IF(
      Width * formatBytes(Format) * Channels > Pitch, CUDA_ERROR_INVALID_VALUE,
      "A row of {0} texels does not fit in the pitch {1}.", Width, Pitch);
  CU_INVALID_IF(Width > MaxPitchedWidth || Height > MaxPitchedHeight,
                CUDA_ERROR_INVALID_VALUE,
                "A pitched texture of {0} x {1} exceeds the maximum {2} x {3}.",
                Width, Height, MaxPitchedWidth, MaxPitchedHeight);
  return llvm::Error::success();
}
} // namespace

// --- TexRef -------------------------------------------------------------

TexRef::TexRef(std::weak_ptr<Context> Ctx, bool FromModule)
    : Object(ObjectKind::TexRef), Ctx(std::move(Ctx)), FromModule(FromModule) {}

llvm::Error TexRef::setArray(std::shared_ptr<Array> A, unsigned SetFlags) {
  CU_INVALID_IF(SetFlags & ~unsigned(CU_TRSA_OVERRIDE_FORMAT),
                CUDA_ERROR_INVALID_VALUE,
                "cuTexRefSetArray takes 0 or CU_TRSA_OVERRIDE_FORMAT, not "
                "{0:x}.",
                SetFlags);
  std::lock_guard Lock(Mutex);
  Bound = Binding::Array;
  BoundArray = A;
  if (SetFlags & CU_TRSA_OVERRIDE_FORMAT) {
    Format = A->descriptor().Format;
    Channels = int(A->descriptor().NumChannels);
  }
  return llvm::Error::success();
}

llvm::Expected<size_t> TexRef::setAddress(CUdeviceptr Ptr, size_t Size) {
  std::lock_guard Lock(Mutex);
  unsigned Texel = std::max(1u, formatBytes(Format) * unsigned(Channels));
  CU_INVALID_IF(Size / Texel > MaxLinearTexels, CUDA_ERROR_INVALID_VALUE,
                "{0} bytes of {1}-byte texels exceed the {2} texels a texture "
                "in linear memory may have.",
                Size, Texel, MaxLinearTexels);
  size_t Offset = Ptr % TextureAlignment;
  Bound = Binding::Linear;
  BoundArray.reset();
  Address = Ptr - Offset;
  Bytes = Size + Offset;
  return Offset;
}

llvm::Error TexRef::setAddress2D(const CUDA_ARRAY_DESCRIPTOR &Desc,
                                 CUdeviceptr Ptr, size_t RowPitch) {
  CU_TRY(checkPitched(Ptr, Desc.Width, Desc.Height, RowPitch, Desc.Format,
                      Desc.NumChannels));
  std::lock_guard Lock(Mutex);
  Bound = Binding::Pitch2D;
  BoundArray.reset();
  Address = Ptr;
  Width = Desc.Width;
  Height = Desc.Height;
  Pitch = RowPitch;
  Format = Desc.Format;
  Channels = int(Desc.NumChannels);
  return llvm::Error::success();
}

llvm::Error TexRef::setFormat(CUarray_format NewFormat, int NewChannels) {
  // NVIDIA's driver takes any format value, and 0 channels.
  CU_INVALID_IF(NewChannels != 0 && !validChannelCount(unsigned(NewChannels)),
                CUDA_ERROR_INVALID_VALUE,
                "A texel has 1, 2 or 4 channels, not {0}.", NewChannels);
  std::lock_guard Lock(Mutex);
  Format = NewFormat;
  Channels = NewChannels;
  return llvm::Error::success();
}

llvm::Error TexRef::setAddressMode(int Dim, CUaddress_mode Mode) {
  CU_INVALID_IF(Dim < 0 || Dim > 2, CUDA_ERROR_INVALID_VALUE,
                "The address mode dimension {0} is not 0, 1 or 2.", Dim);
  std::lock_guard Lock(Mutex);
  // NVIDIA's driver takes any value and reads back clamp for a value that
  // names no mode.
  AddressModes[Dim] =
      Mode > CU_TR_ADDRESS_MODE_BORDER ? CU_TR_ADDRESS_MODE_CLAMP : Mode;
  return llvm::Error::success();
}

void TexRef::setFilterMode(CUfilter_mode Mode) {
  std::lock_guard Lock(Mutex);
  Filter = Mode;
}

llvm::Error TexRef::setFlags(unsigned NewFlags) {
  CU_INVALID_IF(NewFlags & ~TexRefFlags, CUDA_ERROR_INVALID_VALUE,
                "Texture reference flags {0:x} are not CU_TRSF_* flags.",
                NewFlags & ~TexRefFlags);
  std::lock_guard Lock(Mutex);
  Flags = NewFlags;
  return llvm::Error::success();
}

void TexRef::setBorderColor(const float *Color) {
  std::lock_guard Lock(Mutex);
  std::copy(Color, Color + 4, Border.begin());
}

void TexRef::setMaxAnisotropy(unsigned Value) {
  std::lock_guard Lock(Mutex);
  MaxAnisotropy = Value;
}

llvm::Error TexRef::setMipmapFilterMode(CUfilter_mode Mode) {
  CU_INVALID_IF(Mode > CU_TR_FILTER_MODE_LINEAR, CUDA_ERROR_INVALID_VALUE,
                "{0} is not a CUfilter_mode.", int(Mode));
  std::lock_guard Lock(Mutex);
  MipmapFilter = Mode;
  return llvm::Error::success();
}

void TexRef::setMipmapLevelBias(float Bias) {
  std::lock_guard Lock(Mutex);
  MipmapBias = Bias;
}

void TexRef::setMipmapLevelClamp(float Min, float Max) {
  std::lock_guard Lock(Mutex);
  MipmapMinClamp = Min;
  MipmapMaxClamp = Max;
}

CUfilter_mode TexRef::mipmapFilterMode() const {
  std::lock_guard Lock(Mutex);
  return MipmapFilter;
}

float TexRef::mipmapLevelBias() const {
  std::lock_guard Lock(Mutex);
  return MipmapBias;
}

std::pair<float, float> TexRef::mipmapLevelClamp() const {
  std::lock_guard Lock(Mutex);
  return {MipmapMinClamp, MipmapMaxClamp};
}

llvm::Expected<CUdeviceptr> TexRef::address() const {
  std::lock_guard Lock(Mutex);
  CU_INVALID_IF(Bound != Binding::Linear && Bound != Binding::Pitch2D,
                CUDA_ERROR_INVALID_VALUE,
                "The texture reference is not bound to linear memory.");
  return Address;
}

llvm::Error TexRef::setMipmappedArray(std::shared_ptr<MipmappedArray> M,
                                      unsigned SetFlags) {
  CU_INVALID_IF(SetFlags & ~unsigned(CU_TRSA_OVERRIDE_FORMAT),
                CUDA_ERROR_INVALID_VALUE,
                "cuTexRefSetMipmappedArray takes 0 or CU_TRSA_OVERRIDE_FORMAT, "
                "not {0:x}.",
                SetFlags);
  auto Binding = std::make_shared<MipmapBinding>();
  for (unsigned L = 0; L < M->levelCount(); ++L)
    Binding->Levels.push_back(arrayTexture(*M->level(L)));
  Binding->Array = std::move(M);
  std::lock_guard Lock(Mutex);
  Bound = Binding::Mipmapped;
  if (SetFlags & CU_TRSA_OVERRIDE_FORMAT) {
    Format = Binding->Array->descriptor().Format;
    Channels = int(Binding->Array->descriptor().NumChannels);
  }
  BoundMipmaps = std::move(Binding);
  return llvm::Error::success();
}

llvm::Expected<std::shared_ptr<MipmappedArray>> TexRef::mipmappedArray() const {
  std::lock_guard Lock(Mutex);
  CU_INVALID_IF(Bound != Binding::Mipmapped, CUDA_ERROR_INVALID_VALUE,
                "The texture reference is not bound to a mipmapped array.");
  return BoundMipmaps->Array;
}

llvm::Expected<std::shared_ptr<Array>> TexRef::array() const {
  std::lock_guard Lock(Mutex);
  std::shared_ptr<Array> A =
      Bound == Binding::Array ? BoundArray.lock() : nullptr;
  CU_INVALID_IF(!A || A->destroyed(), CUDA_ERROR_INVALID_VALUE,
                "The texture reference is not bound to an array.");
  return A;
}

std::pair<CUarray_format, int> TexRef::format() const {
  std::lock_guard Lock(Mutex);
  return {Format, Channels};
}

llvm::Expected<CUaddress_mode> TexRef::addressMode(int Dim) const {
  CU_INVALID_IF(Dim < 0 || Dim > 2, CUDA_ERROR_INVALID_VALUE,
                "The address mode dimension {0} is not 0, 1 or 2.", Dim);
  std::lock_guard Lock(Mutex);
  return AddressModes[Dim];
}

CUfilter_mode TexRef::filterMode() const {
  std::lock_guard Lock(Mutex);
  return Filter;
}

unsigned TexRef::flags() const {
  std::lock_guard Lock(Mutex);
  return Flags;
}

std::array<float, 4> TexRef::borderColor() const {
  std::lock_guard Lock(Mutex);
  return Border;
}

unsigned TexRef::maxAnisotropy() const {
  std::lock_guard Lock(Mutex);
  return MaxAnisotropy;
}

CucpuTexture TexRef::describe(std::shared_ptr<const void> &Keep) const {
  std::lock_guard Lock(Mutex);
  CucpuTexture T{};
  std::shared_ptr<Array> BoundNow;
  switch (Bound) {
  case Binding::None:
    break;
  case Binding::Array:
    BoundNow = BoundArray.lock();
    if (BoundNow && !BoundNow->destroyed())
      T = arrayTexture(*BoundNow);
    Keep = BoundNow;
    break;
  case Binding::Mipmapped:
    T = BoundMipmaps->Levels.front();
    T.Levels = BoundMipmaps->Levels.data();
    T.LevelCount = unsigned(BoundMipmaps->Levels.size());
    BoundNow = BoundMipmaps->Array->level(0);
    Keep = BoundMipmaps;
    break;
  case Binding::Linear: {
    unsigned Texel = formatBytes(Format) * unsigned(Channels);
    if (Texel)
      T = linearTexture(CucpuTextureLinear, Address, Bytes / Texel, 1, Bytes,
                        Format, unsigned(Channels));
    break;
  }
  case Binding::Pitch2D:
    T = linearTexture(CucpuTexturePitch2D, Address, Width, Height, Pitch,
                      Format, unsigned(Channels));
    break;
  }
  // The reference's own format reads the texels (the array's only with
  // CU_TRSA_OVERRIDE_FORMAT, as on NVIDIA).
  T.Format = Format;
  T.Channels = unsigned(Channels);
  if (T.Kind == CucpuTextureArray && BoundNow &&
      formatBytes(Format) * unsigned(Channels) != BoundNow->elementBytes())
    T.Kind = CucpuTextureUnbound; // A mismatched format reads nothing.
  for (int D = 0; D < 3; ++D)
    T.AddressMode[D] = AddressModes[D];
  T.FilterMode = Filter;
  T.Flags = Flags;
  std::copy(Border.begin(), Border.end(), T.BorderColor);
  T.MipmapFilterMode = MipmapFilter;
  T.MipmapLevelBias = MipmapBias;
  T.MinMipmapLevelClamp = MipmapMinClamp;
  T.MaxMipmapLevelClamp = MipmapMaxClamp;
  T.MaxAnisotropy = MaxAnisotropy;
  T.Magic = CucpuTextureMagic;
  return T;
}

// --- TexObject ----------------------------------------------------------

llvm::Expected<std::shared_ptr<TexObject>>
TexObject::create(const std::shared_ptr<Context> &Ctx,
                  const CUDA_RESOURCE_DESC &Res, const CUDA_TEXTURE_DESC &Tex,
                  const CUDA_RESOURCE_VIEW_DESC *View) {
  for (int D = 0; D < 3; ++D)
    CU_INVALID_IF(Tex.addressMode[D] > CU_TR_ADDRESS_MODE_BORDER,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0} is not a CUaddress_mode (dimension {1}).",
                  int(Tex.addressMode[D]), D);
  CU_INVALID_IF(Tex.filterMode > CU_TR_FILTER_MODE_LINEAR,
                CUDA_ERROR_INVALID_VALUE, "{0} is not a CUfilter_mode.",
                int(Tex.filterMode));
  CU_INVALID_IF(Tex.flags & ~TexObjectFlags, CUDA_ERROR_INVALID_VALUE,
                "Texture flags {0:x} are not CU_TRSF_* flags.",
                Tex.flags & ~TexObjectFlags);
  CU_INVALID_IF(View && View->format != CU_RES_VIEW_FORMAT_NONE &&
                    Res.resType != CU_RESOURCE_TYPE_MIPMAPPED_ARRAY &&
                    Res.resType != CU_RESOURCE_TYPE_ARRAY,
                CUDA_ERROR_INVALID_VALUE,
                "Only arrays and mipmapped arrays take a resource view.");

  std::shared_ptr<TexObject> O(new TexObject);
  CucpuTexture &T = O->Texture;
  switch (Res.resType) {
  case CU_RESOURCE_TYPE_ARRAY: {
    auto A = HandleRegistry::get().findAs<Array>(Res.res.array.hArray);
    CU_INVALID_IF(!A, CUDA_ERROR_INVALID_VALUE,
                  "The resource's array is not a live CUarray.");
    if (View && View->format != CU_RES_VIEW_FORMAT_NONE)
      CU_TRY(checkArrayView(*A, *View));
    T = arrayTexture(*A);
    O->Keep = std::move(A);
    break;
  }
  case CU_RESOURCE_TYPE_LINEAR: {
    const auto &L = Res.res.linear;
    unsigned Texel = formatBytes(L.format) * L.numChannels;
    CU_INVALID_IF(Texel == 0 || !validChannelCount(L.numChannels),
                  CUDA_ERROR_INVALID_VALUE,
                  "Linear texture memory needs a CUarray_format and 1, 2 or 4 "
                  "channels (format {0:x}, {1} channels).",
                  unsigned(L.format), L.numChannels);
    CU_INVALID_IF(L.devPtr % TextureAlignment != 0, CUDA_ERROR_INVALID_VALUE,
                  "The address {0:x} of linear texture memory is not aligned "
                  "to {1} bytes.",
                  L.devPtr, TextureAlignment);
    CU_INVALID_IF(L.sizeInBytes / Texel > MaxLinearTexels,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0} bytes exceed the {1} texels a texture in linear memory "
                  "may have.",
                  L.sizeInBytes, MaxLinearTexels);
    T = linearTexture(CucpuTextureLinear, L.devPtr, L.sizeInBytes / Texel, 1,
                      L.sizeInBytes, L.format, L.numChannels);
    break;
  }
  case CU_RESOURCE_TYPE_PITCH2D: {
    const auto &P = Res.res.pitch2D;
    CU_INVALID_IF(formatBytes(P.format) == 0, CUDA_ERROR_INVALID_VALUE,
                  "{0:x} is not a CUarray_format.", unsigned(P.format));
    CU_TRY(checkPitched(P.devPtr, P.width, P.height, P.pitchInBytes, P.format,
                        P.numChannels));
    T = linearTexture(CucpuTexturePitch2D, P.devPtr, P.width, P.height,
                      P.pitchInBytes, P.format, P.numChannels);
    break;
  }
  case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
    auto M = HandleRegistry::get().findAs<MipmappedArray>(
        Res.res.mipmap.hMipmappedArray);
    CU_INVALID_IF(!M, CUDA_ERROR_INVALID_VALUE,
                  "The resource's mipmapped array is not a live "
                  "CUmipmappedArray.");
    unsigned First = 0, Last = M->levelCount() - 1;
    if (View) {
      CU_TRY(checkMipmapView(*M, *View));
      First = View->firstMipmapLevel;
      Last = std::clamp(View->lastMipmapLevel, First, Last);
    }
    for (unsigned L = First; L <= Last; ++L)
      O->Levels.push_back(arrayTexture(*M->level(L)));
    T = O->Levels.front();
    T.Levels = O->Levels.data();
    T.LevelCount = unsigned(O->Levels.size());
    O->KeepMipmaps = std::move(M);
    break;
  }
  default:
    return makeError(
        CUDA_ERROR_INVALID_VALUE,
        llvm::formatv("{0} is not a CUresourcetype.", int(Res.resType)));
  }
  for (int D = 0; D < 3; ++D)
    T.AddressMode[D] = Tex.addressMode[D];
  T.FilterMode = Tex.filterMode;
  T.Flags = Tex.flags;
  std::copy(Tex.borderColor, Tex.borderColor + 4, T.BorderColor);
  T.MipmapFilterMode = Tex.mipmapFilterMode;
  T.MipmapLevelBias = Tex.mipmapLevelBias;
  T.MinMipmapLevelClamp = Tex.minMipmapLevelClamp;
  T.MaxMipmapLevelClamp = Tex.maxMipmapLevelClamp;
  T.MaxAnisotropy = Tex.maxAnisotropy;
  T.Magic = CucpuTextureMagic;
  O->Owner = Ctx;
  O->Resource = Res;
  O->TextureDesc = Tex;
  if (View)
    O->View = *View;
  HandleRegistry::get().add(O);
  Ctx->own(O);
  return O;
}

TexObject::~TexObject() {
  // A fetch through the destroyed object's handle that still finds this
  // memory fails the launch instead of reading the texels of before.
  *static_cast<volatile uint32_t *>(&Texture.Magic) = 0;
}
