//===- Object.h - Driver objects handed out as handles ----------*- C++ -*-===//
//
// Handles (CUcontext, CUstream, ...) are addresses of Objects. A handle is
// never trusted: it is looked up in the registry of live objects and its
// per-kind cookie is checked before it is used, so a destroyed, foreign or
// garbage handle gives an error instead of undefined behaviour.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_OBJECT_H
#define CUCPU_DRIVER_CORE_OBJECT_H

#include <cstdint>

namespace cucpu {

/// The kind of a driver object; its value is the object's cookie.
enum class ObjectKind : uint32_t {
  Context = 0x43545831, // "CTX1"
  Stream = 0x53544d31,  // "STM1"
  Event = 0x45564e31,   // "EVN1"
  Module = 0x4d4f4431,  // "MOD1"
  Function = 0x46554e31,
  Array = 0x41525231,
  MipmappedArray = 0x4d495031, // "MIP1"
  TexRef = 0x54455831,
  TexObject = 0x54584f31,
  SurfRef = 0x53524631,          // "SRF1"
  SurfObject = 0x53464f31,       // "SFO1"
  MemoryPool = 0x4d504c31,       // "MPL1"
  Library = 0x4c494231,          // "LIB1"
  Kernel = 0x4b524e31,           // "KRN1"
  Graph = 0x47524131,            // "GRA1"
  GraphNode = 0x474e4431,        // "GND1"
  GraphExec = 0x47455831,        // "GEX1"
  GraphicsResource = 0x47525331, // "GRS1"
  UserObject = 0x55534f31,       // "USO1"
  Dead = 0xdeadbeef,             ///< Stamped on destruction.
};

/// Base of every object reachable through a handle.
class Object {
public:
  explicit Object(ObjectKind Kind) : Cookie(Kind) {}
  Object(const Object &) = delete;
  Object &operator=(const Object &) = delete;
  virtual ~Object() { Cookie = ObjectKind::Dead; }

  /// The kind this object was created as (Dead once destroyed).
  ObjectKind kind() const { return Cookie; }
  /// The address its handle holds: the object itself, except for objects
  /// whose handle must point at data kernels read (texture objects).
  virtual const void *handleKey() const { return this; }

private:
  volatile ObjectKind Cookie;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_OBJECT_H
