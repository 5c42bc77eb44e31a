//===- Array.cpp - A CUDA array (CUarray) ---------------------------------===//
#include "core/Array.h"

#include "core/Context.h"
#include "core/Error.h"
#include "core/HandleRegistry.h"
#include "core/HostMemory.h"

#include "cucpu/modules/abi/TextureAbi.h"

#include "llvm/Support/MathExtras.h"

#include <cstdlib>
#include <cstring>

#include <sys/mman.h>

using namespace cucpu;

namespace {
// The limits NVIDIA's H200 enforces (CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE*).
constexpr size_t Max1DWidth = 131072;
constexpr size_t Max2DWidth = 131072, Max2DHeight = 65536;
constexpr size_t Max3DExtent = 16384;
constexpr size_t MaxLayeredExtent = 32768, MaxLayers = 2048;
constexpr size_t MaxCubemapWidth = 32768, MaxCubemapLayers = 2046;

/// The flags cuArray3DCreate accepts: layered, surface load/store, cubemap,
/// texture gather.
constexpr unsigned SupportedFlags =
    CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP |
    CUDA_ARRAY3D_TEXTURE_GATHER;

llvm::Error checkExtent(size_t Value, size_t Max, const char *What) {
  CU_INVALID_IF(Value > Max, CUDA_ERROR_INVALID_VALUE,
                "The array {0} {1} exceeds the maximum {2}.", What, Value, Max);
  return llvm::Error::success();
}

/// The shape rules of cuArray3DCreate, as NVIDIA's driver applies them
/// (tools/texture-facts).
llvm::Error checkShape(const CUDA_ARRAY3D_DESCRIPTOR &D) {
  size_t W = D.Width, H = D.Height, Depth = D.Depth;
  bool Layered = D.Flags & CUDA_ARRAY3D_LAYERED;
  bool Cubemap = D.Flags & CUDA_ARRAY3D_CUBEMAP;
  CU_INVALID_IF(W == 0, CUDA_ERROR_INVALID_VALUE, "The array width is 0.");
  if (Cubemap) {
    CU_INVALID_IF(W != H, CUDA_ERROR_INVALID_VALUE,
                  "A cubemap array must be square; it is {0} x {1}.", W, H);
    CU_INVALID_IF(Layered ? Depth == 0 || Depth % 6 != 0 : Depth != 6,
                  CUDA_ERROR_INVALID_VALUE,
                  "A {0}cubemap array needs {1} faces; its depth is {2}.",
                  Layered ? "layered " : "",
                  Layered ? "a positive multiple of 6" : "6", Depth);
    CU_TRY(checkExtent(W, MaxCubemapWidth, "width"));
    return checkExtent(Depth / 6, MaxCubemapLayers, "cubemap count");
  }
  if (Layered) {
    CU_INVALID_IF(Depth == 0, CUDA_ERROR_INVALID_VALUE,
                  "A layered array needs its layer count as depth; it is 0.");
    CU_TRY(checkExtent(W, MaxLayeredExtent, "width"));
    CU_TRY(checkExtent(H, MaxLayeredExtent, "height"));
    return checkExtent(Depth, MaxLayers, "layer count");
  }
  CU_INVALID_IF(D.Flags & CUDA_ARRAY3D_TEXTURE_GATHER && Depth != 0,
                CUDA_ERROR_INVALID_VALUE,
                "A texture-gather array must be 2D; its depth is {0}.", Depth);
  if (Depth != 0) {
    CU_INVALID_IF(H == 0, CUDA_ERROR_INVALID_VALUE,
                  "A 3D array of depth {0} needs a height.", Depth);
    CU_TRY(checkExtent(W, Max3DExtent, "width"));
    CU_TRY(checkExtent(H, Max3DExtent, "height"));
    return checkExtent(Depth, Max3DExtent, "depth");
  }
  if (H != 0) {
    CU_TRY(checkExtent(W, Max2DWidth, "width"));
    return checkExtent(H, Max2DHeight, "height");
  }
  return checkExtent(W, Max1DWidth, "width");
}
/// Arrays from this size on are anonymous mappings: zero without touching
/// their pages.
constexpr size_t MappedArrayBytes = size_t(1) << 20;

char *allocateZeroed(size_t Bytes) {
  if (Bytes >= MappedArrayBytes) {
    void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return P == MAP_FAILED ? nullptr : static_cast<char *>(P);
  }
  void *P = std::aligned_alloc(64, Bytes);
  if (P)
    std::memset(P, 0, Bytes);
  return static_cast<char *>(P);
}

void freeZeroed(char *P, size_t Bytes) {
  if (!P)
    return;
  if (Bytes >= MappedArrayBytes)
    munmap(P, Bytes);
  else
    std::free(P);
}

} // namespace

unsigned cucpu::formatBytes(unsigned Format) {
  return cucpuFormatChannelBytes(Format);
}

Array::Array(Device &Dev, const CUDA_ARRAY3D_DESCRIPTOR &Desc,
             unsigned ElementBytes, size_t Bytes)
    : Object(ObjectKind::Array), Dev(Dev), Desc(Desc),
      ElementBytes(ElementBytes), Bytes(Bytes) {}

Array::~Array() {
  freeZeroed(Storage, Bytes);
  Dev.releaseMemory(Bytes);
}

llvm::Expected<std::shared_ptr<Array>>
Array::create(const std::shared_ptr<Context> &Ctx,
              const CUDA_ARRAY3D_DESCRIPTOR &Desc) {
  unsigned Channel = formatBytes(Desc.Format);
  CU_INVALID_IF(Channel == 0, CUDA_ERROR_INVALID_VALUE,
                "{0:x} is not a CUarray_format.", unsigned(Desc.Format));
  CU_INVALID_IF(!validChannelCount(Desc.NumChannels), CUDA_ERROR_INVALID_VALUE,
                "An array element has 1, 2 or 4 channels, not {0}.",
                Desc.NumChannels);
  CU_INVALID_IF(Desc.Flags & CUDA_ARRAY3D_SPARSE, CUDA_ERROR_NOT_SUPPORTED,
                "Sparse arrays are not supported.");
  CU_INVALID_IF(Desc.Flags & ~SupportedFlags, CUDA_ERROR_INVALID_VALUE,
                "Array flags {0:x} are not supported (layered, surface "
                "load/store, cubemap and texture gather are).",
                Desc.Flags & ~SupportedFlags);
  CU_TRY(checkShape(Desc));

  unsigned ElementBytes = Channel * Desc.NumChannels;
  size_t Bytes = Desc.Width * ElementBytes * (Desc.Height ? Desc.Height : 1) *
                 (Desc.Depth ? Desc.Depth : 1);
  size_t Rounded = llvm::alignTo(Bytes, 64);
  Device &Dev = Ctx->device();
  CU_TRY(host::checkHostCanBack(Rounded, "the array"));
  CU_TRY(Dev.reserveMemory(Rounded));
  std::shared_ptr<Array> A(new Array(Dev, Desc, ElementBytes, Rounded));
  A->Owner = Ctx;
  A->Storage = allocateZeroed(Rounded);
  CU_INVALID_IF(!A->Storage, CUDA_ERROR_OUT_OF_MEMORY,
                "The host could not provide {0} bytes for the array.", Rounded);
  CU_TRY(host::commitPages(A->Storage, Rounded));
  HandleRegistry::get().add(A);
  Ctx->own(A);
  return A;
}
