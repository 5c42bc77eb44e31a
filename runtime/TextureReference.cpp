//===- TextureReference.cpp - The texture reference API (CUDA 11) ---------===//
//
// cudaBindTexture, cudaBindTexture2D, cudaBindTextureToArray,
// cudaBindTextureToMipmappedArray, cudaUnbindTexture,
// cudaGetTextureAlignmentOffset and cudaGetTextureReference, which the
// seeds teach and CUDA 12 removed (declared with CUDA_ENABLE_DEPRECATED).
// A texture<> variable is registered with the name of its module's texture
// reference (__cudaRegisterTexture); binding it sets that reference, in the
// current context, from the variable's host-side fields (normalization,
// filter and address modes, sRGB, mipmap settings) and the channel format.
//
//===----------------------------------------------------------------------===//
#define CUDA_ENABLE_DEPRECATED
#include "Context.h"
#include "Errors.h"
#include "Formats.h"
#include "Registry.h"

#include <map>
#include <mutex>

using namespace cucpu;
using namespace cucpu::rt;

namespace {

/// The offsets cudaBindTexture reported, by texture<> variable.
struct BindOffsets {
  std::mutex Mutex;
  std::map<const textureReference *, size_t> Offsets;
};

BindOffsets &bindOffsets() {
  static BindOffsets *B = new BindOffsets;
  return *B;
}

void recordOffset(const textureReference *Ref, size_t Offset) {
  BindOffsets &B = bindOffsets();
  std::lock_guard Lock(B.Mutex);
  B.Offsets[Ref] = Offset;
}

void forgetOffset(const textureReference *Ref) {
  BindOffsets &B = bindOffsets();
  std::lock_guard Lock(B.Mutex);
  B.Offsets.erase(Ref);
}

/// The driver's texture reference of \p Ref in the current context, set from
/// the variable's fields and the channel format \p Desc.
cudaError_t prepare(const char *Function, const textureReference *Ref,
                    const cudaChannelFormatDesc &Desc, CUtexref &Out,
                    CUarray_format &Format, unsigned &Channels) {
  CUDART_FAIL_IF_FOR(Function, !Ref, cudaErrorInvalidTexture,
                     "The texture reference is null.");
  CUDART_CONTEXT_FOR(Function, Ctx);
  bool NormalizedFloat = false;
  CUDART_TRY(findTextureReference(Function, Ref, Ctx, Out, NormalizedFloat));
  CUDART_TRY(driverFormat(Function, Desc, Format, Channels));
  unsigned Flags = 0;
  if (!NormalizedFloat && isIntegerFormat(Format))
    Flags |= CU_TRSF_READ_AS_INTEGER;
  if (Ref->normalized)
    Flags |= CU_TRSF_NORMALIZED_COORDINATES;
  if (Ref->sRGB)
    Flags |= CU_TRSF_SRGB;
  if (Ref->disableTrilinearOptimization)
    Flags |= CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
  CUDART_DRIVER_FOR(Function, cuTexRefSetFlags(Out, Flags));
  CUDART_DRIVER_FOR(
      Function,
      cuTexRefSetFilterMode(Out, static_cast<CUfilter_mode>(Ref->filterMode)));
  for (int Dim = 0; Dim < 3; ++Dim)
    CUDART_DRIVER_FOR(
        Function,
        cuTexRefSetAddressMode(
            Out, Dim, static_cast<CUaddress_mode>(Ref->addressMode[Dim])));
  CUDART_DRIVER_FOR(Function,
                    cuTexRefSetMaxAnisotropy(
                        Out, Ref->maxAnisotropy ? Ref->maxAnisotropy : 1));
  CUDART_DRIVER_FOR(
      Function, cuTexRefSetMipmapFilterMode(
                    Out, static_cast<CUfilter_mode>(Ref->mipmapFilterMode)));
  CUDART_DRIVER_FOR(Function,
                    cuTexRefSetMipmapLevelBias(Out, Ref->mipmapLevelBias));
  CUDART_DRIVER_FOR(Function,
                    cuTexRefSetMipmapLevelClamp(Out, Ref->minMipmapLevelClamp,
                                                Ref->maxMipmapLevelClamp));
  return cudaSuccess;
}

} // namespace

extern "C" {

cudaError_t CUDARTAPI cudaBindTexture(size_t *Offset,
                                      const struct textureReference *Ref,
                                      const void *DevPtr,
                                      const struct cudaChannelFormatDesc *Desc,
                                      size_t Size) {
  CUDART_FAIL_IF(!Desc, cudaErrorInvalidChannelDescriptor,
                 "The channel format is null.");
  CUtexref R;
  CUarray_format Format;
  unsigned Channels;
  CUDART_TRY(prepare(__func__, Ref, *Desc, R, Format, Channels));
  CUDART_DRIVER(cuTexRefSetFormat(R, Format, int(Channels)));
  auto Address = reinterpret_cast<CUdeviceptr>(DevPtr);
  // The default size (UINT_MAX) binds the rest of the allocation.
  if (Size == UINT_MAX) {
    CUdeviceptr Base = 0;
    size_t Bytes = 0;
    CUDART_DRIVER(cuMemGetAddressRange(&Base, &Bytes, Address));
    Size = Bytes - (Address - Base);
  }
  size_t ByteOffset = 0;
  CUDART_DRIVER(cuTexRefSetAddress(&ByteOffset, R, Address, Size));
  CUDART_FAIL_IF(!Offset && ByteOffset != 0, cudaErrorInvalidValue,
                 "The memory at %p is not aligned for a texture and no "
                 "offset pointer was given to receive the misalignment.",
                 DevPtr);
  if (Offset)
    *Offset = ByteOffset;
  recordOffset(Ref, ByteOffset);
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaBindTexture2D(size_t *Offset, const struct textureReference *Ref,
                  const void *DevPtr, const struct cudaChannelFormatDesc *Desc,
                  size_t Width, size_t Height, size_t Pitch) {
  CUDART_FAIL_IF(!Desc, cudaErrorInvalidChannelDescriptor,
                 "The channel format is null.");
  CUtexref R;
  CUDA_ARRAY_DESCRIPTOR D = {};
  unsigned Channels;
  CUDART_TRY(prepare(__func__, Ref, *Desc, R, D.Format, Channels));
  D.Width = Width;
  D.Height = Height;
  D.NumChannels = Channels;
  CUDART_DRIVER(cuTexRefSetAddress2D(
      R, &D, reinterpret_cast<CUdeviceptr>(DevPtr), Pitch));
  if (Offset)
    *Offset = 0;
  recordOffset(Ref, 0);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaBindTextureToArray(
    const struct textureReference *Ref, cudaArray_const_t Array,
    const struct cudaChannelFormatDesc *Desc) {
  CUDART_FAIL_IF(!Desc, cudaErrorInvalidChannelDescriptor,
                 "The channel format is null.");
  CUDART_FAIL_IF(!Array, cudaErrorInvalidResourceHandle,
                 "The array handle is null.");
  CUtexref R;
  CUarray_format Format;
  unsigned Channels;
  CUDART_TRY(prepare(__func__, Ref, *Desc, R, Format, Channels));
  CUDART_DRIVER(cuTexRefSetArray(
      R, reinterpret_cast<CUarray>(const_cast<cudaArray *>(Array)),
      CU_TRSA_OVERRIDE_FORMAT));
  recordOffset(Ref, 0);
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaBindTextureToMipmappedArray(const struct textureReference *Ref,
                                cudaMipmappedArray_const_t MipmappedArray,
                                const struct cudaChannelFormatDesc *Desc) {
  CUDART_FAIL_IF(!Desc, cudaErrorInvalidChannelDescriptor,
                 "The channel format is null.");
  CUDART_FAIL_IF(!MipmappedArray, cudaErrorInvalidResourceHandle,
                 "The mipmapped array handle is null.");
  CUtexref R;
  CUarray_format Format;
  unsigned Channels;
  CUDART_TRY(prepare(__func__, Ref, *Desc, R, Format, Channels));
  CUDART_DRIVER(cuTexRefSetMipmappedArray(
      R,
      reinterpret_cast<CUmipmappedArray>(
          const_cast<cudaMipmappedArray *>(MipmappedArray)),
      CU_TRSA_OVERRIDE_FORMAT));
  recordOffset(Ref, 0);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaUnbindTexture(const struct textureReference *Ref) {
  CUDART_FAIL_IF(!Ref || !isTextureReference(Ref), cudaErrorInvalidTexture,
                 "%p is not a registered texture<> variable.",
                 static_cast<const void *>(Ref));
  // The driver's reference keeps its binding until the next one replaces
  // it: a fetch through an unbound reference is undefined.
  forgetOffset(Ref);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetTextureAlignmentOffset(
    size_t *Offset, const struct textureReference *Ref) {
  CUDART_FAIL_IF(!Offset, cudaErrorInvalidValue, "The offset pointer is null.");
  CUDART_FAIL_IF(!Ref || !isTextureReference(Ref), cudaErrorInvalidTexture,
                 "%p is not a registered texture<> variable.",
                 static_cast<const void *>(Ref));
  BindOffsets &B = bindOffsets();
  std::lock_guard Lock(B.Mutex);
  auto It = B.Offsets.find(Ref);
  CUDART_FAIL_IF(It == B.Offsets.end(), cudaErrorInvalidTextureBinding,
                 "The texture reference %p was never bound.",
                 static_cast<const void *>(Ref));
  *Offset = It->second;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetTextureReference(
    const struct textureReference **Ref, const void *Symbol) {
  CUDART_FAIL_IF(!Ref, cudaErrorInvalidValue, "The result pointer is null.");
  CUDART_FAIL_IF(!Symbol || !isTextureReference(Symbol),
                 cudaErrorInvalidTexture,
                 "%p is not a registered texture<> variable.", Symbol);
  *Ref = static_cast<const textureReference *>(Symbol);
  return cudaSuccess;
}

} // extern "C"
