//===- GraphicsResource.h - A registered graphics resource ------*- C++ -*-===//
//
// A CUgraphicsResource: an OpenGL buffer or image registered for access by
// CUDA (CUDA 11 guide §3.2.12.1). "A resource must be registered to CUDA
// before it can be mapped"; while it is mapped CUDA sees it as a device
// pointer (a buffer) or as CUDA arrays (an image's levels and layers), and
// the graphics API "should not access any resources while they are mapped
// by CUDA". On the CPU the GL object's contents are copied into memory CUDA
// owns when the resource is mapped and back into the GL object when it is
// unmapped, except where the register or map flags say that CUDA does not
// read (WRITE_DISCARD: nothing is copied in) or does not write (READ_ONLY:
// nothing is copied back). The memory and arrays stay with the resource
// between mappings and go when it is unregistered.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_GRAPHICSRESOURCE_H
#define CUCPU_DRIVER_CORE_GRAPHICSRESOURCE_H

#include "core/GlTransfer.h"
#include "core/Object.h"

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace cucpu {

class Array;
class Context;

/// An OpenGL buffer object or image registered with CUDA.
class GraphicsResource : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::GraphicsResource;

  /// cuGraphicsGLRegisterBuffer: \p Buffer of the current GL context, used
  /// by the current CUDA context. Checks, in NVIDIA's order, the name and
  /// \p Flags, the CUDA context, the GL context and the buffer.
  static llvm::Expected<std::shared_ptr<GraphicsResource>>
  registerGlBuffer(gl::Uint Buffer, unsigned Flags);
  /// cuGraphicsGLRegisterImage: texture or renderbuffer \p Image of
  /// \p Target; checks the target and \p Flags, the contexts, then the
  /// image (its target and format).
  static llvm::Expected<std::shared_ptr<GraphicsResource>>
  registerGlImage(gl::Uint Image, gl::Enum Target, unsigned Flags);
  ~GraphicsResource() override;

  /// Whether the resource is a buffer (else an image).
  bool isBuffer() const { return Target == 0; }
  /// The GL object's name.
  gl::Uint glName() const { return Name; }
  /// The context the resource was registered in (null once destroyed).
  std::shared_ptr<Context> context() const { return Owner.lock(); }

  /// cuGraphicsResourceSetMapFlags: the flags of the next mapping.
  llvm::Error setMapFlags(unsigned Flags);

  /// Claims the resource for a mapping; CUDA_ERROR_ALREADY_MAPPED when it
  /// is mapped or being mapped.
  llvm::Error claimForMap();
  /// Gives up a claim whose mapping did not happen.
  void abandonMap();
  /// Maps a claimed resource: makes CUDA's memory match the GL object and
  /// copies its contents in unless WRITE_DISCARD. The GL context must be
  /// current; call in the stream's order.
  llvm::Error map(const gl::Functions &F);
  /// Claims a mapped resource for unmapping; CUDA_ERROR_NOT_MAPPED if it is
  /// not mapped.
  llvm::Error claimForUnmap();
  /// Gives up a claim whose unmapping did not happen: still mapped.
  void abandonUnmap() { State.store(MapState::Mapped); }
  /// Unmaps a claimed resource, copying CUDA's contents back unless
  /// READ_ONLY or \p F is null (no GL context to copy into).
  llvm::Error unmap(const gl::Functions *F);
  /// Whether the resource is mapped.
  bool mapped() const { return State.load() == MapState::Mapped; }

  /// cuGraphicsResourceGetMappedPointer: the buffer's device pointer and
  /// size while mapped.
  llvm::Error mappedPointer(CUdeviceptr *Pointer, size_t *Bytes) const;
  /// cuGraphicsSubResourceGetMappedArray: the array of layer \p Index and
  /// level \p Level while mapped.
  llvm::Expected<std::shared_ptr<Array>> mappedArray(unsigned Index,
                                                     unsigned Level) const;

  /// cuGraphicsUnregisterResource: frees the memory and arrays CUDA saw.
  void release();

private:
  enum class MapState { Unmapped, Mapping, Mapped, Unmapping };

  GraphicsResource(const std::shared_ptr<Context> &Ctx, gl::Uint Name,
                   gl::Enum Target, unsigned Flags);
  /// Whether the next map copies GL's contents in / the next unmap out.
  bool copiesIn() const;
  bool copiesOut() const;
  llvm::Error mapBuffer(const gl::Functions &F);
  llvm::Error mapImage(const gl::Functions &F);
  void freeBuffer();
  void destroyArrays();

  std::weak_ptr<Context> Owner;
  const gl::Uint Name;
  const gl::Enum Target; ///< 0 for a buffer.
  const unsigned RegisterFlags;
  std::atomic<MapState> State{MapState::Unmapped};

  /// Guards what follows (map flags, memory, arrays).
  mutable std::mutex Mutex;
  unsigned MapFlags = CU_GRAPHICS_MAP_RESOURCE_FLAGS_NONE;
  /// The flags of the current mapping.
  unsigned ActiveMapFlags = CU_GRAPHICS_MAP_RESOURCE_FLAGS_NONE;
  CUdeviceptr Memory = 0; ///< A buffer's bytes while CUDA holds them.
  size_t Bytes = 0;
  gl::ImageShape Shape; ///< An image's shape when last mapped.
  /// An image's arrays, [Layer * Levels + Level].
  std::vector<std::shared_ptr<Array>> Arrays;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_GRAPHICSRESOURCE_H
