//===- HandleRegistry.cpp - The live driver objects -----------------------===//
#include "core/HandleRegistry.h"

#include <mutex>

using namespace cucpu;

HandleRegistry &HandleRegistry::get() {
  // Never destroyed: objects may be released by other static destructors.
  static HandleRegistry *Registry = new HandleRegistry;
  return *Registry;
}

void HandleRegistry::add(std::shared_ptr<Object> O) {
  std::unique_lock Lock(Mutex);
  const void *Key = O->handleKey();
  Live.emplace(Key, std::move(O));
}

std::shared_ptr<Object> HandleRegistry::remove(const void *Handle) {
  std::unique_lock Lock(Mutex);
  auto It = Live.find(Handle);
  if (It == Live.end())
    return nullptr;
  std::shared_ptr<Object> O = std::move(It->second);
  Live.erase(It);
  return O;
}

std::shared_ptr<Object> HandleRegistry::find(const void *Handle,
                                             ObjectKind Kind) const {
  if (!Handle)
    return nullptr;
  std::shared_lock Lock(Mutex);
  auto It = Live.find(Handle);
  if (It == Live.end() || It->second->kind() != Kind)
    return nullptr;
  return It->second;
}
