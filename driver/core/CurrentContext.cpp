//===- CurrentContext.cpp - The calling thread's context stack ------------===//
#include "core/CurrentContext.h"

#include "core/Error.h"
#include "core/HandleRegistry.h"

#include <vector>

using namespace cucpu;

namespace {
/// One stack entry: the context's address and its never-reused id, so that
/// a new context at a recycled address is not mistaken for a destroyed one.
struct StackEntry {
  const Context *Ctx;
  uint64_t Id;
};

thread_local std::vector<StackEntry> Stack;

std::shared_ptr<Context> liveContext(const StackEntry &E) {
  auto C = HandleRegistry::get().findAs<Context>(E.Ctx);
  if (!C || C->id() != E.Id)
    return nullptr;
  return C;
}
} // namespace

llvm::Expected<std::shared_ptr<Context>> current::context() {
  CU_INVALID_IF(Stack.empty(), CUDA_ERROR_INVALID_CONTEXT,
                "No context is current to the calling thread.");
  std::shared_ptr<Context> C = liveContext(Stack.back());
  CU_INVALID_IF(!C, CUDA_ERROR_INVALID_CONTEXT,
                "The context current to the calling thread has been "
                "destroyed.");
  if (llvm::Error E = C->checkHealthy())
    return E;
  return C;
}

llvm::Error current::require() {
  llvm::Expected<std::shared_ptr<Context>> C = context();
  return C ? llvm::Error::success() : C.takeError();
}

std::shared_ptr<Context> current::top() {
  return Stack.empty() ? nullptr : liveContext(Stack.back());
}

bool current::hasEntry() { return !Stack.empty(); }

void current::push(const std::shared_ptr<Context> &C) {
  Stack.push_back({C.get(), C->id()});
}

std::shared_ptr<Context> current::pop() {
  if (Stack.empty())
    return nullptr;
  StackEntry E = Stack.back();
  Stack.pop_back();
  return liveContext(E);
}

void current::replaceTop(const std::shared_ptr<Context> &C) {
  if (!Stack.empty())
    Stack.pop_back();
  if (C)
    Stack.push_back({C.get(), C->id()});
}

void current::forget(const Context &C) {
  std::erase_if(Stack, [&](const StackEntry &E) {
    return E.Ctx == &C && E.Id == C.id();
  });
}
