//===- UserObject.h - Reference-counted user objects (CUuserObject) -*- C++
//-*-===//
//
// A user object wraps a program's resource and its destructor
// (cuUserObjectCreate) for the lifetime that graphs give it: the program and
// every graph holding references (cuGraphRetainUserObject, a clone, an
// executable graph and the launches it has queued) count towards it, and the
// destructor runs, on a thread of the driver's, when the count reaches 0.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_USEROBJECT_H
#define CUCPU_DRIVER_CORE_USEROBJECT_H

#include "core/Object.h"

#include <cuda.h>

#include <atomic>
#include <map>
#include <memory>

namespace cucpu {

/// One user object (CUuserObject).
class UserObject : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::UserObject;

  /// A registered object with \p Refs references.
  static std::shared_ptr<UserObject> create(void *Resource, CUhostFn Destroy,
                                            unsigned Refs);

  void retain(unsigned Count) { Refs.fetch_add(Count); }
  /// Drops \p Count references; at 0 the handle goes and the destructor
  /// runs on a thread of its own. False if there were fewer than Count.
  bool release(unsigned Count);

private:
  UserObject(void *Resource, CUhostFn Destroy, unsigned Refs)
      : Object(Kind), Resource(Resource), Destroy(Destroy), Refs(Refs) {}

  void *Resource;
  CUhostFn Destroy;
  std::atomic<uint64_t> Refs;
};

/// The references a graph (or an executable graph's plan) owns.
class UserObjectRefs {
public:
  UserObjectRefs() = default;
  UserObjectRefs(const UserObjectRefs &) = delete;
  UserObjectRefs &operator=(const UserObjectRefs &) = delete;
  UserObjectRefs(UserObjectRefs &&Other) : Counts(std::move(Other.Counts)) {
    Other.Counts.clear();
  }
  UserObjectRefs &operator=(UserObjectRefs &&Other);
  /// Releases every reference held.
  ~UserObjectRefs();

  /// Takes \p Count references to \p O (already counted on \p O when
  /// \p Counted, as CU_GRAPH_USER_OBJECT_MOVE hands them over).
  void add(const std::shared_ptr<UserObject> &O, unsigned Count, bool Counted);
  /// Gives back \p Count references; false if fewer are held.
  bool release(UserObject &O, unsigned Count);
  /// A holder of the same references, counted again.
  UserObjectRefs copy() const;

private:
  std::map<std::shared_ptr<UserObject>, unsigned> Counts;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_USEROBJECT_H
