//===- SurfaceAccess.cpp - Surface reads and writes as NVIDIA's do them ---===//
//
// surf*read and surf*write (CUDA Programming Guide B.9) move raw bytes: x is
// a byte offset into a row, y a row, z a slice (a 3D slice, a layer, a
// cubemap face or layer * 6 + face). What an access outside the surface or
// at a misaligned x does was measured on an H200 (tests/textures
// SurfaceConformance, docs/surfaces.md).
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/runtime/KernelAccess.h"
#include "cucpu/modules/runtime/RuntimeLibrary.h"

#include "cucpu/modules/abi/SurfaceAbi.h"

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

/// The description at \p Handle, or null unless it is a surface the driver
/// made (its magic word). Its first and last words are read here, so the
/// whole description is readable memory once this returns it.
CUCPU_KERNEL_ACCESS const CucpuTexture *checkedSurface(uint64_t Handle) {
  if (Handle % alignof(CucpuTexture) != 0)
    return nullptr;
  const auto *T = reinterpret_cast<const CucpuTexture *>(Handle);
  (void)*reinterpret_cast<const volatile uint64_t *>(T);
  if (*static_cast<const volatile uint32_t *>(&T->Magic) != CucpuSurfaceMagic)
    return nullptr;
  return T;
}

/// Copies \p Bytes bytes between a kernel's value and the surface's memory.
CUCPU_KERNEL_ACCESS void copyBytes(void *Dst, const void *Src, unsigned Bytes) {
  auto *D = static_cast<volatile unsigned char *>(Dst);
  const auto *S = static_cast<const volatile unsigned char *>(Src);
  for (unsigned I = 0; I < Bytes; ++I)
    D[I] = S[I];
}

[[noreturn]] void fail(int Code, const char *Format, uint64_t Handle, int32_t X,
                       int32_t Y, int32_t Z, unsigned Bytes) {
  char Message[224];
  std::snprintf(Message, sizeof(Message), Format,
                static_cast<unsigned long long>(Handle), Bytes, X, Y, Z);
  cucpu::modules::failKernel(Code, Message);
}

/// Whether an access of surface type \p Type uses y, and whether its z is
/// a layer or cubemap face (read unsigned) rather than a 3D slice.
bool usesY(uint32_t Type) { return Type != 0x01 && Type != 0xF1; }
bool usesZ(uint32_t Type) { return Type != 0x01 && Type != 0x02; }
bool isLayerIndex(uint32_t Type) {
  return Type == 0xF1 || Type == 0xF2 || Type == 0x0C || Type == 0xFC;
}

int64_t clampTo(int64_t V, int64_t Low, int64_t High) {
  return V < Low ? Low : V > High ? High : V;
}

/// The address of the \p Bytes bytes an access reads or writes, or null
/// when it reads zeros and writes nothing. As on an H200 (docs/surfaces.md):
///  * x must be a multiple of the access size, in every boundary mode and
///    whether in range or not (CUDA_ERROR_MISALIGNED_ADDRESS); it need not
///    be a multiple of the element size.
///  * A row holds RowBytes / Bytes whole accesses; one that reaches past
///    the row's end is outside. A layer or face index is read unsigned.
///  * Outside, zero mode reads zeros and drops writes; clamp mode moves x
///    to the nearest whole access in the row (and y, z to the nearest row
///    and slice; a negative layer to the last), or acts as zero mode when
///    not even one access fits in the row; trap mode fails the launch with
///    CUDA_ERROR_ILLEGAL_ADDRESS.
char *locate(uint64_t Handle, uint32_t Form, int32_t X, int32_t Y, int32_t Z) {
  uint32_t Type = Form & 0xff, Mode = (Form >> 8) & 0xff,
           Bytes = (Form >> 16) & 0xff;
  // Handle 0 reads zeros and takes writes, in every boundary mode, as on
  // NVIDIA.
  if (Handle == 0)
    return nullptr;
  const CucpuTexture *T = checkedSurface(Handle);
  if (!T)
    fail(CUDA_ERROR_ILLEGAL_ADDRESS,
         "The kernel accessed surface handle %#llx, which is no surface "
         "object or reference (%u bytes at x %d, y %d, z %d).",
         Handle, X, Y, Z, Bytes);
  // An unbound reference (or one whose array was destroyed) reads zeros.
  if (T->Kind != CucpuTextureArray || !T->Data)
    return nullptr;
  if (X % int32_t(Bytes) != 0)
    fail(CUDA_ERROR_MISALIGNED_ADDRESS,
         "The kernel accessed surface %#llx with %u bytes at x %d (y %d, z "
         "%d), which is not a multiple of the access size.",
         Handle, X, Y, Z, Bytes);
  unsigned Element = cucpuFormatChannelBytes(T->Format) * T->Channels;
  int64_t Units = int64_t(T->Width) * Element / Bytes;
  int64_t Rows = int64_t(T->Height), Slices = int64_t(T->Depth);
  int64_t PX = X / int32_t(Bytes), PY = usesY(Type) ? Y : 0;
  int64_t PZ = !usesZ(Type)         ? 0
               : isLayerIndex(Type) ? int64_t(uint32_t(Z))
                                    : int64_t(Z);
  bool Outside =
      PX < 0 || PX >= Units || PY < 0 || PY >= Rows || PZ < 0 || PZ >= Slices;
  if (Outside) {
    if (Mode == CucpuSurfaceTrap)
      fail(CUDA_ERROR_ILLEGAL_ADDRESS,
           "The kernel accessed surface %#llx with %u bytes at x %d, y %d, z "
           "%d, outside the surface, in trap mode.",
           Handle, X, Y, Z, Bytes);
    if (Mode != CucpuSurfaceClamp || Units == 0)
      return nullptr;
    PX = clampTo(PX, 0, Units - 1);
    PY = clampTo(PY, 0, Rows - 1);
    PZ = clampTo(PZ, 0, Slices - 1);
  }
  return const_cast<char *>(T->Data) + PZ * int64_t(T->SlicePitch) +
         PY * int64_t(T->RowPitch) + PX * Bytes;
}

} // namespace

extern "C" {
void __cucpu_surf_read(uint64_t Handle, uint32_t Form, int32_t X, int32_t Y,
                       int32_t Z, void *Out) {
  unsigned Bytes = (Form >> 16) & 0xff;
  std::memset(Out, 0, Bytes);
  if (char *P = locate(Handle, Form, X, Y, Z))
    copyBytes(Out, P, Bytes);
}

void __cucpu_surf_write(uint64_t Handle, uint32_t Form, int32_t X, int32_t Y,
                        int32_t Z, const void *In) {
  if (char *P = locate(Handle, Form, X, Y, Z))
    copyBytes(P, In, (Form >> 16) & 0xff);
}
}

void cucpu::modules::addSurfaceAccess(llvm::StringMap<void *> &Map) {
  CUCPU_RT_ADD(Map, __cucpu_surf_read);
  CUCPU_RT_ADD(Map, __cucpu_surf_write);
}
