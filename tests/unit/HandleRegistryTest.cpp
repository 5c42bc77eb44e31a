//===- HandleRegistryTest.cpp - Validation of handles ---------------------===//
#include "core/HandleRegistry.h"
#include "core/Context.h"
#include "core/Stream.h"

#include <gtest/gtest.h>

using namespace cucpu;

namespace {
struct Dummy : Object {
  static constexpr ObjectKind Kind = ObjectKind::Module;
  Dummy() : Object(Kind) {}
};
} // namespace

TEST(HandleRegistry, FindsOnlyLiveObjectsOfTheRightKind) {
  auto &R = HandleRegistry::get();
  auto D = std::make_shared<Dummy>();
  R.add(D);
  EXPECT_EQ(R.findAs<Dummy>(D.get()), D) << "a live object of its kind";
  EXPECT_EQ(R.find(D.get(), ObjectKind::Stream), nullptr)
      << "the same address as another kind of handle";
  int Garbage = 0;
  EXPECT_EQ(R.find(&Garbage, ObjectKind::Module), nullptr)
      << "an address that was never a handle";
  EXPECT_EQ(R.find(nullptr, ObjectKind::Module), nullptr) << "NULL";
  EXPECT_EQ(R.remove(D.get()), D) << "removal hands the object back";
  EXPECT_EQ(R.findAs<Dummy>(D.get()), nullptr) << "destroyed";
  EXPECT_EQ(R.remove(D.get()), nullptr) << "double destroy";
}

TEST(HandleRegistry, LookupKeepsTheObjectAliveAfterRemoval) {
  auto &R = HandleRegistry::get();
  std::weak_ptr<Dummy> Weak;
  std::shared_ptr<Dummy> Held;
  {
    auto D = std::make_shared<Dummy>();
    Weak = D;
    R.add(D);
    Held = R.findAs<Dummy>(D.get());
    R.remove(D.get());
  }
  EXPECT_FALSE(Weak.expired()) << "a call in flight still holds the object";
  EXPECT_EQ(Held->kind(), ObjectKind::Module);
  Held.reset();
  EXPECT_TRUE(Weak.expired()) << "freed once the last user lets go";
}
