//===- Texture.h - Texture references and objects ---------------*- C++ -*-===//
//
// A texture reference (CUtexref) is mutable state that kernels of its module
// read at each launch: what is bound (linear memory, pitched memory or a CUDA
// array) and how it is read (format, address modes, filter, flags, border
// color). A launch copies every reference of the module into a table of
// CucpuTexture (modules/abi/include/cucpu/modules/abi/TextureAbi.h). A texture
// object (CUtexObject) is the same description fixed at creation; its handle is
// the address of its CucpuTexture, which kernels read directly.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_TEXTURE_H
#define CUCPU_DRIVER_CORE_TEXTURE_H

#include "core/Object.h"

#include "cucpu/modules/abi/TextureAbi.h"

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <array>
#include <memory>
#include <mutex>
#include <vector>

namespace cucpu {

class Array;
class Context;
class MipmappedArray;

/// The hardware's texture alignment (CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT):
/// cuTexRefSetAddress binds the address rounded down to it.
inline constexpr uint64_t TextureAlignment = 512;
/// Row pitch alignment of pitched textures
/// (CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT).
inline constexpr uint64_t TexturePitchAlignment = 32;

/// A texture reference of a module (cuModuleGetTexRef) or of the
/// application (cuTexRefCreate).
class TexRef : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::TexRef;

  /// A texture reference with NVIDIA's defaults (float, 1 channel, clamp,
  /// point, no flags) in \p Ctx; \p FromModule for a module's reference.
  TexRef(std::weak_ptr<Context> Ctx, bool FromModule);

  bool fromModule() const { return FromModule; }
  /// The context the reference belongs to (null once destroyed).
  std::shared_ptr<Context> context() const { return Ctx.lock(); }

  /// cuTexRefSetArray (\p Flags 0 or CU_TRSA_OVERRIDE_FORMAT).
  llvm::Error setArray(std::shared_ptr<Array> A, unsigned Flags);
  /// cuTexRefSetMipmappedArray (\p Flags 0 or CU_TRSA_OVERRIDE_FORMAT).
  llvm::Error setMipmappedArray(std::shared_ptr<MipmappedArray> M,
                                unsigned Flags);
  /// cuTexRefSetAddress: binds [Address, Address + Bytes) and returns the
  /// offset of Address from the aligned address actually bound.
  llvm::Expected<size_t> setAddress(CUdeviceptr Address, size_t Bytes);
  /// cuTexRefSetAddress2D.
  llvm::Error setAddress2D(const CUDA_ARRAY_DESCRIPTOR &Desc,
                           CUdeviceptr Address, size_t Pitch);
  /// cuTexRefSetFormat.
  llvm::Error setFormat(CUarray_format Format, int Channels);
  /// cuTexRefSetAddressMode.
  llvm::Error setAddressMode(int Dim, CUaddress_mode Mode);
  void setFilterMode(CUfilter_mode Mode);
  /// cuTexRefSetFlags.
  llvm::Error setFlags(unsigned Flags);
  void setBorderColor(const float *Color);
  void setMaxAnisotropy(unsigned Value);
  /// cuTexRefSetMipmapFilterMode (point or linear).
  llvm::Error setMipmapFilterMode(CUfilter_mode Mode);
  void setMipmapLevelBias(float Bias);
  void setMipmapLevelClamp(float Min, float Max);

  /// The getters: an error when the reference is not bound that way.
  llvm::Expected<CUdeviceptr> address() const;
  llvm::Expected<std::shared_ptr<Array>> array() const;
  llvm::Expected<std::shared_ptr<MipmappedArray>> mipmappedArray() const;
  std::pair<CUarray_format, int> format() const;
  llvm::Expected<CUaddress_mode> addressMode(int Dim) const;
  CUfilter_mode filterMode() const;
  unsigned flags() const;
  std::array<float, 4> borderColor() const;
  unsigned maxAnisotropy() const;
  CUfilter_mode mipmapFilterMode() const;
  float mipmapLevelBias() const;
  std::pair<float, float> mipmapLevelClamp() const;

  /// What a launch reads; \p Keep receives what the description points
  /// into (the bound array, or a mipmapped array's levels), which must
  /// outlive the launch.
  CucpuTexture describe(std::shared_ptr<const void> &Keep) const;

private:
  enum class Binding { None, Linear, Pitch2D, Array, Mipmapped };
  /// A bound mipmapped array and the descriptions of its levels.
  struct MipmapBinding {
    std::shared_ptr<MipmappedArray> Array;
    std::vector<CucpuTexture> Levels;
  };

  std::weak_ptr<Context> Ctx;
  const bool FromModule;

  mutable std::mutex Mutex;
  Binding Bound = Binding::None;
  std::weak_ptr<Array> BoundArray;
  std::shared_ptr<const MipmapBinding> BoundMipmaps;
  CUdeviceptr Address = 0; ///< Aligned base (Linear) or base (Pitch2D).
  size_t Bytes = 0;        ///< Linear: bytes from the aligned base.
  size_t Width = 0, Height = 0, Pitch = 0; ///< Pitch2D.
  CUarray_format Format = CU_AD_FORMAT_FLOAT;
  int Channels = 1;
  std::array<CUaddress_mode, 3> AddressModes = {CU_TR_ADDRESS_MODE_CLAMP,
                                                CU_TR_ADDRESS_MODE_CLAMP,
                                                CU_TR_ADDRESS_MODE_CLAMP};
  CUfilter_mode Filter = CU_TR_FILTER_MODE_POINT;
  unsigned Flags = 0;
  std::array<float, 4> Border = {0, 0, 0, 0};
  unsigned MaxAnisotropy = 0;
  CUfilter_mode MipmapFilter = CU_TR_FILTER_MODE_POINT;
  float MipmapBias = 0, MipmapMinClamp = 0, MipmapMaxClamp = 0;
};

/// A texture object (cuTexObjectCreate).
class TexObject : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::TexObject;

  /// Validates the descriptions as NVIDIA's driver does and creates the
  /// object, owned by \p Ctx and registered under its handle.
  static llvm::Expected<std::shared_ptr<TexObject>>
  create(const std::shared_ptr<Context> &Ctx, const CUDA_RESOURCE_DESC &Res,
         const CUDA_TEXTURE_DESC &Tex, const CUDA_RESOURCE_VIEW_DESC *View);

  /// The CUtexObject value: the address of the description kernels read.
  CUtexObject handle() const { return reinterpret_cast<uintptr_t>(&Texture); }
  const void *handleKey() const override { return &Texture; }

  const CUDA_RESOURCE_DESC &resourceDesc() const { return Resource; }
  const CUDA_TEXTURE_DESC &textureDesc() const { return TextureDesc; }
  const CUDA_RESOURCE_VIEW_DESC &viewDesc() const { return View; }
  /// The context that owns the object (null once destroyed).
  std::shared_ptr<Context> context() const { return Owner.lock(); }

  ~TexObject() override;

private:
  TexObject() : Object(ObjectKind::TexObject) {}

  std::weak_ptr<Context> Owner;
  CUDA_RESOURCE_DESC Resource{};
  CUDA_TEXTURE_DESC TextureDesc{};
  CUDA_RESOURCE_VIEW_DESC View{};
  std::shared_ptr<Array> Keep;                 ///< The array read, if any.
  std::shared_ptr<MipmappedArray> KeepMipmaps; ///< The mipmapped array read.
  std::vector<CucpuTexture> Levels; ///< Its levels, as Texture.Levels.
  CucpuTexture Texture{};
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_TEXTURE_H
