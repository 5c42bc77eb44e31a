//===- Library.cpp - Context-independent libraries (CUlibrary) ------------===//
#include "core/Library.h"

#include "core/Context.h"
#include "core/Error.h"
#include "core/HandleRegistry.h"

using namespace cucpu;

llvm::Expected<std::shared_ptr<Library>>
Library::load(const void *Data, size_t Size,
              const std::shared_ptr<Context> &Current, std::string *InfoLog,
              const JitOptions &Jit) {
  std::shared_ptr<Library> L(new Library());
  L->OptLevel = Jit.OptLevel;
  CU_TRY_ASSIGN(L->Image, Module::imageBytes(Data, Size, Jit, InfoLog));
  auto Read = loader::readImage(L->Image);
  if (!Read)
    return toCuError(Read.takeError());
  CU_INVALID_IF(Read->Relocatable, CUDA_ERROR_INVALID_IMAGE,
                "The image is relocatable device code (cucc -rdc); link it "
                "with cuLinkCreate/cuLinkComplete before loading it.");
  L->ConstantBytes = loader::constantBytes(*Read);
  for (loader::KernelInfo &K : Read->Kernels)
    L->Kernels.push_back(std::make_shared<Kernel>(L, std::move(K)));
  if (Current) {
    CU_TRY_ASSIGN(std::shared_ptr<Module> M,
                  Module::load(Current, L->Image, InfoLog, L->OptLevel));
    L->Loaded.emplace_back(Current, M);
  }
  HandleRegistry &Registry = HandleRegistry::get();
  for (const auto &K : L->Kernels)
    Registry.add(K);
  Registry.add(L);
  return L;
}

Library::~Library() {
  HandleRegistry &Registry = HandleRegistry::get();
  for (const auto &K : Kernels)
    Registry.remove(K.get());
}

llvm::Error Library::unload() {
  HandleRegistry &Registry = HandleRegistry::get();
  for (const auto &K : Kernels)
    Registry.remove(K.get());
  Registry.remove(this);
  std::vector<std::pair<std::weak_ptr<Context>, std::weak_ptr<Module>>> Taken;
  {
    std::lock_guard Lock(Mutex);
    Taken.swap(Loaded);
  }
  llvm::Error First = llvm::Error::success();
  for (auto &[WeakCtx, WeakModule] : Taken) {
    std::shared_ptr<Context> Ctx = WeakCtx.lock();
    std::shared_ptr<Module> M = WeakModule.lock();
    if (!Ctx || !M)
      continue;
    // Queued launches of its kernels complete first, as for cuModuleUnload.
    if (llvm::Error E = Ctx->queues().drain(); E && !First)
      First = std::move(E);
    else
      llvm::consumeError(std::move(E));
    M->unload();
  }
  return First;
}

llvm::Expected<std::shared_ptr<Module>>
Library::module(const std::shared_ptr<Context> &Ctx) {
  std::lock_guard Lock(Mutex);
  std::erase_if(Loaded, [](const auto &Entry) {
    return Entry.first.expired() || Entry.second.expired();
  });
  for (const auto &[WeakCtx, WeakModule] : Loaded)
    if (WeakCtx.lock() == Ctx)
      if (std::shared_ptr<Module> M = WeakModule.lock())
        return M;
  CU_TRY_ASSIGN(std::shared_ptr<Module> M,
                Module::load(Ctx, Image, nullptr, OptLevel));
  Loaded.emplace_back(Ctx, M);
  return M;
}

llvm::Expected<std::shared_ptr<Kernel>>
Library::kernel(llvm::StringRef Name) const {
  for (const auto &K : Kernels)
    if (K->name() == Name)
      return K;
  return makeError(
      CUDA_ERROR_NOT_FOUND,
      llvm::formatv("The library has no kernel named \"{0}\".", Name));
}

llvm::Expected<std::shared_ptr<Function>>
Kernel::function(const std::shared_ptr<Context> &Ctx) {
  std::shared_ptr<Library> L = library();
  CU_INVALID_IF(!L, CUDA_ERROR_INVALID_HANDLE,
                "The library of kernel {0} has been unloaded.", name());
  CU_TRY_ASSIGN(std::shared_ptr<Module> M, L->module(Ctx));
  CU_TRY_ASSIGN(std::shared_ptr<Function> F, M->function(name()));
  CU_TRY(applySettings(*F));
  return F;
}

llvm::Error Kernel::applySettings(Function &F) {
  std::lock_guard Lock(Mutex);
  for (const auto &[Attribute, Value] : Attributes)
    CU_TRY(F.setAttribute(Attribute, Value));
  if (CacheConfig)
    CU_TRY(F.setCacheConfig(*CacheConfig));
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Function>> Kernel::detachedFunction() {
  std::shared_ptr<Library> L = library();
  CU_INVALID_IF(!L, CUDA_ERROR_INVALID_HANDLE,
                "The library of kernel {0} has been unloaded.", name());
  modules::KernelEntry Entry;
  Entry.StaticShared = Info.StaticShared;
  Entry.Info = &Info;
  auto F = std::make_unique<Function>(std::weak_ptr<Module>(),
                                      std::weak_ptr<Context>(), name(), Entry,
                                      L->constantBytes());
  CU_TRY(applySettings(*F));
  return F;
}

llvm::Error
Kernel::onFunction(const std::shared_ptr<Context> &Ctx,
                   llvm::function_ref<llvm::Error(Function &)> Apply) {
  if (Ctx) {
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, function(Ctx));
    return Apply(*F);
  }
  llvm::Expected<std::unique_ptr<Function>> Detached = detachedFunction();
  if (!Detached)
    return Detached.takeError();
  return Apply(**Detached);
}

llvm::Expected<int> Kernel::attribute(const std::shared_ptr<Context> &Ctx,
                                      int Attribute) {
  int Value = 0;
  CU_TRY(onFunction(Ctx, [&](Function &F) -> llvm::Error {
    CU_TRY_ASSIGN(Value, F.attribute(Attribute));
    return llvm::Error::success();
  }));
  return Value;
}

llvm::Error Kernel::setAttribute(const std::shared_ptr<Context> &Ctx,
                                 int Attribute, int Value) {
  CU_TRY(onFunction(
      Ctx, [&](Function &F) { return F.setAttribute(Attribute, Value); }));
  std::lock_guard Lock(Mutex);
  Attributes[Attribute] = Value;
  return llvm::Error::success();
}

llvm::Error Kernel::setCacheConfig(const std::shared_ptr<Context> &Ctx,
                                   int Config) {
  CU_TRY(
      onFunction(Ctx, [&](Function &F) { return F.setCacheConfig(Config); }));
  std::lock_guard Lock(Mutex);
  CacheConfig = Config;
  return llvm::Error::success();
}
