/*===- TextureAbi.h - Textures as JIT-compiled kernels see them ----------===*
 *
 * A texture fetch in a kernel names its texture by a 64-bit handle: the
 * address of a CucpuTexture. A texture reference's handle points into the
 * launch's table of the module's texture references (CucpuBlock::TexRefs,
 * filled by the driver from their state at the launch); a texture object's
 * handle (CUtexObject) points at the object's own description; both carry
 * a magic word, so that a fetch can tell them from other memory. The fetch
 * functions of the runtime library (modules/runtime/TextureSampler.cpp)
 * implement addressing, filtering and format conversion as NVIDIA's
 * hardware does.
 *
 * Plain C types only: the layout is shared by C++ code and by the kernel
 * headers' calls. Any change here must change both together.
 *
 *===----------------------------------------------------------------------===*/
#ifndef CUCPU_MODULES_TEXTUREABI_H
#define CUCPU_MODULES_TEXTUREABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What a texture reads. */
enum {
  CucpuTextureUnbound = 0, /**< Nothing: every fetch returns zeros. */
  CucpuTextureLinear = 1,  /**< Linear memory, fetched by integer index. */
  CucpuTexturePitch2D = 2, /**< Pitched linear memory, fetched as 2D. */
  CucpuTextureArray = 3    /**< A CUDA array (1D, 2D or 3D). */
};

/** One texture: where its texels are and how they are read. */
typedef struct CucpuTexture {
  const char *Data;        /**< The first texel. */
  uint64_t Width;          /**< Texels per row. */
  uint64_t Height;         /**< Rows (1 for 1D). */
  uint64_t Depth;          /**< Slices (1 for 1D and 2D). */
  uint64_t RowPitch;       /**< Bytes from one row to the next. */
  uint64_t SlicePitch;     /**< Bytes from one slice to the next. */
  uint32_t Format;         /**< CUarray_format of each channel. */
  uint32_t Channels;       /**< 1, 2 or 4. */
  uint32_t AddressMode[3]; /**< CUaddress_mode per coordinate. */
  uint32_t FilterMode;     /**< CUfilter_mode. */
  uint32_t Flags;          /**< CU_TRSF_* flags. */
  uint32_t Kind;           /**< CucpuTexture* kind above. */
  float BorderColor[4];    /**< Returned outside the texture in border mode. */
  uint32_t Shape;          /**< An array's cudaTextureType (CucpuShape*);
                                0 for linear and pitched memory. */
  uint32_t MipmapFilterMode; /**< CUfilter_mode between levels. */
  float MipmapLevelBias;     /**< Added to every level of detail. */
  float MinMipmapLevelClamp; /**< Least level of detail read. */
  float MaxMipmapLevelClamp; /**< Greatest level of detail read. */
  uint32_t MaxAnisotropy;    /**< Anisotropic filtering above 1. */
  uint32_t LevelCount;       /**< Entries of Levels (0: no mipmaps). */
  uint32_t Reserved;
  const struct CucpuTexture *Levels; /**< A mipmapped array's levels, level 0
                                          first: Data, sizes and pitches. */
  uint32_t Magic; /**< CucpuTextureMagic in every description the
                       driver made; a fetch through anything else
                       fails the launch. */
  uint32_t Reserved2;
} CucpuTexture;

/** The array shapes of CucpuTexture::Shape (cudaTextureType values). Depth
    counts the layers of a layered array and the faces (6 per layer) of a
    cubemap. */
enum {
  CucpuShape1D = 0x01,
  CucpuShape2D = 0x02,
  CucpuShape3D = 0x03,
  CucpuShapeCubemap = 0x0C,
  CucpuShape1DLayered = 0xF1,
  CucpuShape2DLayered = 0xF2,
  CucpuShapeCubemapLayered = 0xFC
};

/** What a CucpuFetch does (bits 8-15 of its Form). */
enum {
  CucpuFetchSample = 0,   /**< tex1D ... texCubemapLayered. */
  CucpuFetchLevel = 1,    /**< tex*Lod: at the given level of detail. */
  CucpuFetchGradient = 2, /**< tex*Grad: level of detail from gradients. */
  CucpuFetchGather = 3    /**< tex2Dgather: one channel of four texels. */
};

/** A fetch of any form: tex*Layered, texCubemap*, tex2Dgather, tex*Lod,
    tex*Grad. */
typedef struct CucpuFetch {
  float Coord[3];       /**< x, y, z (unused ones 0). */
  int32_t Layer;        /**< The layer of a layered fetch. */
  float Level;          /**< The level of detail of CucpuFetchLevel. */
  float Gradient[2][3]; /**< dPdx and dPdy of CucpuFetchGradient. */
  uint32_t Form;        /**< The texture type the fetch names
                             (cudaTextureType*) in bits 0-7, what it does
                             (CucpuFetch* above) in bits 8-15, the channel a
                             gather reads in bits 16-17. */
} CucpuFetch;

/** The Magic word of a texture description ("cutx"). */
enum { CucpuTextureMagic = 0x78747563 };

/** Bytes of one channel of a CUarray_format (0 for a value that names
    none): 8-bit (0x01, 0x08), 16-bit (0x02, 0x09, half 0x10) and 32-bit
    (0x03, 0x0a, float 0x20) formats. */
static inline unsigned cucpuFormatChannelBytes(uint32_t Format) {
  switch (Format) {
  case 0x01:
  case 0x08:
    return 1;
  case 0x02:
  case 0x09:
  case 0x10:
    return 2;
  case 0x03:
  case 0x0a:
  case 0x20:
    return 4;
  default:
    return 0;
  }
}

/** tex1D/tex2D/tex3D: reads the texture at the Dims float coordinates X, Y,
    Z (unused ones ignored) and writes four 32-bit result words to Out:
    floats, or integers for integer formats read with
    CU_TRSF_READ_AS_INTEGER. */
void __cucpu_tex_fetch(uint64_t Handle, uint32_t Dims, float X, float Y,
                       float Z, uint32_t *Out);
/** tex1Dfetch: reads texel X of a texture in linear memory (zeros outside
    it), converted as __cucpu_tex_fetch converts. */
void __cucpu_tex_fetch_index(uint64_t Handle, int32_t X, uint32_t *Out);
/** Every other fetch form: reads the texture as \p Fetch says and writes
    four words as __cucpu_tex_fetch does. */
void __cucpu_tex_sample(uint64_t Handle, const CucpuFetch *Fetch,
                        uint32_t *Out);
/** txq.width/height/depth (Query 0, 1, 2) of level \p Level of the
    texture Handle: 0 for a level it does not have and for handle 0. */
uint32_t __cucpu_tex_query(uint64_t Handle, uint32_t Query, int32_t Level);

#ifdef __cplusplus
} /* extern "C" */

static_assert(sizeof(CucpuTexture) == 144, "texture ABI");
static_assert(sizeof(CucpuFetch) == 48, "texture ABI");
#endif

#endif /* CUCPU_MODULES_TEXTUREABI_H */
