//===- UserObject.cpp - Reference-counted user objects --------------------===//
#include "core/UserObject.h"

#include "core/HandleRegistry.h"
#include "core/WorkerThreads.h"

using namespace cucpu;

std::shared_ptr<UserObject> UserObject::create(void *Resource, CUhostFn Destroy,
                                               unsigned Refs) {
  std::shared_ptr<UserObject> O(new UserObject(Resource, Destroy, Refs));
  HandleRegistry::get().add(O);
  return O;
}

bool UserObject::release(unsigned Count) {
  uint64_t Now = Refs.load();
  do {
    if (Now < Count)
      return false;
  } while (!Refs.compare_exchange_weak(Now, Now - Count));
  if (Now != Count)
    return true;
  HandleRegistry::get().remove(this);
  // The program's destructor may not call CUDA; it runs apart from the
  // caller, which may hold the driver's locks, on a worker thread the
  // driver joins before it goes.
  startWorkerThread(
      [Destroy = Destroy, Resource = Resource] { Destroy(Resource); });
  return true;
}

UserObjectRefs &UserObjectRefs::operator=(UserObjectRefs &&Other) {
  if (this != &Other) {
    UserObjectRefs Old(std::move(*this));
    Counts = std::move(Other.Counts);
    Other.Counts.clear();
  }
  return *this;
}

UserObjectRefs::~UserObjectRefs() {
  for (auto &[O, Count] : Counts)
    (void)O->release(Count);
}

void UserObjectRefs::add(const std::shared_ptr<UserObject> &O, unsigned Count,
                         bool Counted) {
  if (!Counted)
    O->retain(Count);
  Counts[O] += Count;
}

bool UserObjectRefs::release(UserObject &O, unsigned Count) {
  for (auto It = Counts.begin(); It != Counts.end(); ++It) {
    if (It->first.get() != &O)
      continue;
    if (It->second < Count)
      return false;
    It->second -= Count;
    std::shared_ptr<UserObject> Held = It->first;
    if (It->second == 0)
      Counts.erase(It);
    (void)Held->release(Count);
    return true;
  }
  return false;
}

UserObjectRefs UserObjectRefs::copy() const {
  UserObjectRefs Copy;
  for (const auto &[O, Count] : Counts)
    Copy.add(O, Count, /*Counted=*/false);
  return Copy;
}
