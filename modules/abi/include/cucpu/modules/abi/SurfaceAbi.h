/*===- SurfaceAbi.h - Surfaces as JIT-compiled kernels see them ----------===*
 *
 * A surface access in a kernel names its surface by a 64-bit handle, as a
 * texture fetch does: the address of a CucpuTexture (TextureAbi.h) that
 * describes a CUDA array (Kind CucpuTextureArray; Data, Width, Height,
 * Depth, RowPitch, SlicePitch, Format, Channels) and carries
 * CucpuSurfaceMagic instead of CucpuTextureMagic. A surface object's handle
 * (CUsurfObject) is the address of the object's own description; a surface
 * reference's handle points into the launch's table of the module's
 * texture and surface references (CucpuBlock::TexRefs). The access
 * functions of the runtime library (modules/runtime/SurfaceAccess.cpp)
 * read and write raw bytes with NVIDIA's addressing and boundary modes.
 *
 * Plain C types only: the layout is shared by C++ code and by the kernel
 * headers' calls (include/cucpu/device/detail/surfaces.h). Any change here
 * must change both together.
 *
 *===----------------------------------------------------------------------===*/
#ifndef CUCPU_MODULES_SURFACEABI_H
#define CUCPU_MODULES_SURFACEABI_H

#include "cucpu/modules/abi/TextureAbi.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The Magic word of a surface description ("curf"). */
enum { CucpuSurfaceMagic = 0x66727563 };

/** What an access outside the surface does (cudaSurfaceBoundaryMode, bits
    8-15 of an access's Form). */
enum {
  CucpuSurfaceZero = 0,  /**< Reads zeros; a write does nothing. */
  CucpuSurfaceClamp = 1, /**< Reads or writes the nearest element. */
  CucpuSurfaceTrap = 2   /**< Fails the launch. */
};

/** An access's Form: the surface type the access names (cudaSurfaceType*:
    0x01, 0x02, 0x03, 0x0C, 0xF1, 0xF2, 0xFC) in bits 0-7, the boundary mode
    in bits 8-15, the bytes accessed (1, 2, 4, 8 or 16) in bits 16-23. */
static inline uint32_t cucpuSurfaceForm(uint32_t Type, uint32_t Mode,
                                        uint32_t Bytes) {
  return Type | Mode << 8 | Bytes << 16;
}

/** surf*read: reads the bytes Form names at byte X of row Y of slice Z (a
    layer, a cubemap face, or layer * 6 + face; unused coordinates 0) of
    the surface Handle into Out. */
void __cucpu_surf_read(uint64_t Handle, uint32_t Form, int32_t X, int32_t Y,
                       int32_t Z, void *Out);
/** surf*write: writes the bytes Form names from In at byte X of row Y of
    slice Z of the surface Handle. */
void __cucpu_surf_write(uint64_t Handle, uint32_t Form, int32_t X, int32_t Y,
                        int32_t Z, const void *In);
/** suq.width/height/depth (Query 0, 1, 2) of the surface Handle, whose
    description's Shape is its array's; 0 for handle 0 or no array. */
uint32_t __cucpu_surf_query(uint64_t Handle, uint32_t Query);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CUCPU_MODULES_SURFACEABI_H */
