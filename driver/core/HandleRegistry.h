//===- HandleRegistry.h - The live driver objects ---------------*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_HANDLEREGISTRY_H
#define CUCPU_DRIVER_CORE_HANDLEREGISTRY_H

#include "core/Object.h"

#include <memory>
#include <shared_mutex>
#include <unordered_map>

namespace cucpu {

/// Every object that a handle may name, process-wide. Lookups hand out
/// shared ownership, so an object stays valid for the call that found it
/// even if another thread destroys it meanwhile.
class HandleRegistry {
public:
  /// The process's registry.
  static HandleRegistry &get();

  /// Makes \p O reachable through its handle key (Object::handleKey).
  void add(std::shared_ptr<Object> O);

  /// Makes the object at \p Handle unreachable and returns it (null if it
  /// was not live).
  std::shared_ptr<Object> remove(const void *Handle);

  /// The live object at \p Handle if it is of \p Kind, else null.
  std::shared_ptr<Object> find(const void *Handle, ObjectKind Kind) const;

  /// Typed form of find().
  template <typename T> std::shared_ptr<T> findAs(const void *Handle) const {
    return std::static_pointer_cast<T>(find(Handle, T::Kind));
  }

private:
  mutable std::shared_mutex Mutex;
  std::unordered_map<const void *, std::shared_ptr<Object>> Live;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_HANDLEREGISTRY_H
