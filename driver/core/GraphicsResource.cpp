//===- GraphicsResource.cpp - A registered graphics resource --------------===//
#include "core/GraphicsResource.h"

#include "core/Array.h"
#include "core/Context.h"
#include "core/CurrentContext.h"
#include "core/Error.h"
#include "core/HandleRegistry.h"

using namespace cucpu;

namespace {

constexpr unsigned ReadOnly = CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY;
constexpr unsigned WriteDiscard = CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD;
constexpr unsigned ImageRegisterFlags =
    ReadOnly | WriteDiscard | CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST |
    CU_GRAPHICS_REGISTER_FLAGS_TEXTURE_GATHER;

/// Register flags: "READ_ONLY: CUDA will not write to this resource";
/// "WRITE_DISCARD: CUDA will not read from this resource" (cudaGL.h); the
/// two contradict each other. SURFACE_LDST and TEXTURE_GATHER are about
/// arrays, so only images take them.
llvm::Error checkRegisterFlags(unsigned Flags, bool Image) {
  unsigned Allowed = Image ? ImageRegisterFlags : ReadOnly | WriteDiscard;
  CU_INVALID_IF(Flags & ~Allowed, CUDA_ERROR_INVALID_VALUE,
                "Register flags {0:x} are not a combination of {1:x} for an "
                "OpenGL {2}.",
                Flags, Allowed, Image ? "image" : "buffer");
  CU_INVALID_IF((Flags & ReadOnly) && (Flags & WriteDiscard),
                CUDA_ERROR_INVALID_VALUE,
                "Register flags {0:x} ask for both READ_ONLY and "
                "WRITE_DISCARD.",
                Flags);
  return llvm::Error::success();
}

} // namespace

GraphicsResource::GraphicsResource(const std::shared_ptr<Context> &Ctx,
                                   gl::Uint Name, gl::Enum Target,
                                   unsigned Flags)
    : Object(Kind), Owner(Ctx), Name(Name), Target(Target),
      RegisterFlags(Flags) {}

GraphicsResource::~GraphicsResource() { release(); }

llvm::Expected<std::shared_ptr<GraphicsResource>>
GraphicsResource::registerGlBuffer(gl::Uint Buffer, unsigned Flags) {
  CU_INVALID_IF(Buffer == 0, CUDA_ERROR_INVALID_VALUE,
                "OpenGL name 0 is not a buffer object.");
  CU_TRY(checkRegisterFlags(Flags, /*Image=*/false));
  CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
  CU_TRY_ASSIGN(const gl::Functions &F, gl::current());
  CU_TRY(gl::bufferSize(F, Buffer).takeError());
  std::shared_ptr<GraphicsResource> R(
      new GraphicsResource(Ctx, Buffer, 0, Flags));
  HandleRegistry::get().add(R);
  return R;
}

llvm::Expected<std::shared_ptr<GraphicsResource>>
GraphicsResource::registerGlImage(gl::Uint Image, gl::Enum Target,
                                  unsigned Flags) {
  CU_INVALID_IF(!gl::isImageTarget(Target), CUDA_ERROR_INVALID_VALUE,
                "OpenGL target {0:x4} is not GL_TEXTURE_2D, "
                "GL_TEXTURE_RECTANGLE, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_3D, "
                "GL_TEXTURE_2D_ARRAY or GL_RENDERBUFFER.",
                Target);
  CU_TRY(checkRegisterFlags(Flags, /*Image=*/true));
  CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
  CU_TRY_ASSIGN(const gl::Functions &F, gl::current());
  CU_TRY_ASSIGN(gl::ImageShape Shape, gl::describeImage(F, Image, Target));
  std::shared_ptr<GraphicsResource> R(
      new GraphicsResource(Ctx, Image, Target, Flags));
  HandleRegistry::get().add(R);
  return R;
}

llvm::Error GraphicsResource::setMapFlags(unsigned Flags) {
  CU_INVALID_IF(Flags > CU_GRAPHICS_MAP_RESOURCE_FLAGS_WRITE_DISCARD,
                CUDA_ERROR_INVALID_VALUE,
                "Map flags {0:x} are not NONE (0), READ_ONLY (1) or "
                "WRITE_DISCARD (2).",
                Flags);
  CU_INVALID_IF(State.load() != MapState::Unmapped, CUDA_ERROR_ALREADY_MAPPED,
                "The graphics resource is mapped; its map flags can change "
                "only while it is not.");
  std::lock_guard<std::mutex> Lock(Mutex);
  MapFlags = Flags;
  return llvm::Error::success();
}

bool GraphicsResource::copiesIn() const {
  return !(RegisterFlags & WriteDiscard) &&
         ActiveMapFlags != CU_GRAPHICS_MAP_RESOURCE_FLAGS_WRITE_DISCARD;
}

bool GraphicsResource::copiesOut() const {
  return !(RegisterFlags & ReadOnly) &&
         ActiveMapFlags != CU_GRAPHICS_MAP_RESOURCE_FLAGS_READ_ONLY;
}

llvm::Error GraphicsResource::claimForMap() {
  MapState Expected = MapState::Unmapped;
  CU_INVALID_IF(!State.compare_exchange_strong(Expected, MapState::Mapping),
                CUDA_ERROR_ALREADY_MAPPED,
                "The graphics resource (OpenGL name {0}) is already mapped.",
                Name);
  return llvm::Error::success();
}

void GraphicsResource::abandonMap() { State.store(MapState::Unmapped); }

llvm::Error GraphicsResource::map(const gl::Functions &F) {
  std::lock_guard<std::mutex> Lock(Mutex);
  ActiveMapFlags = MapFlags;
  llvm::Error E = isBuffer() ? mapBuffer(F) : mapImage(F);
  State.store(E ? MapState::Unmapped : MapState::Mapped);
  return E;
}

llvm::Error GraphicsResource::mapBuffer(const gl::Functions &F) {
  CU_TRY_ASSIGN(size_t Size, gl::bufferSize(F, Name));
  if (Size != Bytes) {
    freeBuffer();
    if (Size) {
      std::shared_ptr<Context> Ctx = context();
      CU_INVALID_IF(!Ctx, CUDA_ERROR_INVALID_CONTEXT,
                    "The context the graphics resource was registered in is "
                    "destroyed.");
      CU_TRY_ASSIGN(uintptr_t Address,
                    Ctx->allocate(Size, MemoryKind::Device, 0));
      Memory = Address;
    }
    Bytes = Size;
  }
  if (!copiesIn() || !Bytes)
    return llvm::Error::success();
  return gl::readBuffer(F, Name, reinterpret_cast<void *>(Memory), Bytes);
}

llvm::Error GraphicsResource::mapImage(const gl::Functions &F) {
  CU_TRY_ASSIGN(gl::ImageShape Now, gl::describeImage(F, Name, Target));
  if (!(Now == Shape) || Arrays.empty()) {
    destroyArrays();
    std::shared_ptr<Context> Ctx = context();
    CU_INVALID_IF(!Ctx, CUDA_ERROR_INVALID_CONTEXT,
                  "The context the graphics resource was registered in is "
                  "destroyed.");
    Shape = Now;
    for (unsigned Layer = 0; Layer < Shape.Layers; ++Layer) {
      for (const gl::LevelExtent &L : Shape.Levels) {
        CUDA_ARRAY3D_DESCRIPTOR Desc{};
        Desc.Width = L.Width;
        Desc.Height = L.Height;
        Desc.Depth = Target == gl::Texture3D ? L.Depth : 0;
        Desc.Format = Shape.Format->Format;
        Desc.NumChannels = Shape.Format->Channels;
        if (RegisterFlags & CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST)
          Desc.Flags |= CUDA_ARRAY3D_SURFACE_LDST;
        if (RegisterFlags & CU_GRAPHICS_REGISTER_FLAGS_TEXTURE_GATHER &&
            Desc.Depth == 0)
          Desc.Flags |= CUDA_ARRAY3D_TEXTURE_GATHER;
        auto A = Array::create(Ctx, Desc);
        if (!A) {
          destroyArrays();
          return A.takeError();
        }
        Arrays.push_back(std::move(*A));
      }
    }
  }
  if (!copiesIn())
    return llvm::Error::success();
  size_t Levels = Shape.Levels.size();
  for (unsigned Layer = 0; Layer < Shape.Layers; ++Layer)
    for (unsigned Level = 0; Level < Levels; ++Level)
      CU_TRY(gl::readImage(F, Name, Shape, Layer, Level,
                           Arrays[Layer * Levels + Level]->data()));
  return llvm::Error::success();
}

llvm::Error GraphicsResource::claimForUnmap() {
  MapState Expected = MapState::Mapped;
  CU_INVALID_IF(!State.compare_exchange_strong(Expected, MapState::Unmapping),
                CUDA_ERROR_NOT_MAPPED,
                "The graphics resource (OpenGL name {0}) is not mapped.", Name);
  return llvm::Error::success();
}

llvm::Error GraphicsResource::unmap(const gl::Functions *F) {
  std::lock_guard<std::mutex> Lock(Mutex);
  llvm::Error E = llvm::Error::success();
  if (F && copiesOut()) {
    if (isBuffer()) {
      E = gl::writeBuffer(*F, Name, reinterpret_cast<void *>(Memory), Bytes);
    } else {
      size_t Levels = Shape.Levels.size();
      for (unsigned Layer = 0; Layer < Shape.Layers && !E; ++Layer)
        for (unsigned Level = 0; Level < Levels && !E; ++Level)
          E = gl::writeImage(*F, Name, Shape, Layer, Level,
                             Arrays[Layer * Levels + Level]->data());
    }
  }
  // The resource is unmapped even when GL refused the contents: CUDA may
  // not use it any more either way.
  State.store(MapState::Unmapped);
  return E;
}

llvm::Error GraphicsResource::mappedPointer(CUdeviceptr *Pointer,
                                            size_t *Size) const {
  CU_INVALID_IF(!mapped(), CUDA_ERROR_NOT_MAPPED,
                "The graphics resource (OpenGL name {0}) is not mapped.", Name);
  CU_INVALID_IF(!isBuffer(), CUDA_ERROR_NOT_MAPPED_AS_POINTER,
                "The graphics resource (OpenGL name {0}) is an image, which "
                "CUDA sees as arrays, not through a pointer.",
                Name);
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Pointer)
    *Pointer = Memory;
  if (Size)
    *Size = Bytes;
  return llvm::Error::success();
}

llvm::Expected<std::shared_ptr<Array>>
GraphicsResource::mappedArray(unsigned Index, unsigned Level) const {
  CU_INVALID_IF(!mapped(), CUDA_ERROR_NOT_MAPPED,
                "The graphics resource (OpenGL name {0}) is not mapped.", Name);
  CU_INVALID_IF(isBuffer(), CUDA_ERROR_NOT_MAPPED_AS_ARRAY,
                "The graphics resource (OpenGL name {0}) is a buffer, which "
                "CUDA sees through a pointer, not as an array.",
                Name);
  std::lock_guard<std::mutex> Lock(Mutex);
  CU_INVALID_IF(Index >= Shape.Layers, CUDA_ERROR_INVALID_VALUE,
                "Array index {0} is not below the image's {1} layers.", Index,
                Shape.Layers);
  CU_INVALID_IF(Level >= Shape.Levels.size(), CUDA_ERROR_INVALID_VALUE,
                "Mipmap level {0} is not below the image's {1} levels.", Level,
                Shape.Levels.size());
  return Arrays[Index * Shape.Levels.size() + Level];
}

void GraphicsResource::freeBuffer() {
  if (!Memory)
    return;
  if (std::shared_ptr<Context> Ctx = context())
    llvm::consumeError(Ctx->free(Memory, {MemoryKind::Device}));
  Memory = 0;
  Bytes = 0;
}

void GraphicsResource::destroyArrays() {
  if (Arrays.empty())
    return;
  std::shared_ptr<Context> Ctx = context();
  // Queued copies and launches may still read the arrays (as cuArrayDestroy).
  if (Ctx)
    llvm::consumeError(Ctx->queues().drain());
  for (const std::shared_ptr<Array> &A : Arrays) {
    HandleRegistry::get().remove(A.get());
    A->markDestroyed();
    if (Ctx)
      Ctx->disown(A.get());
  }
  Arrays.clear();
  Shape = gl::ImageShape();
}

void GraphicsResource::release() {
  std::lock_guard<std::mutex> Lock(Mutex);
  freeBuffer();
  destroyArrays();
}
