//===- LoadedModule.cpp - A module image compiled into the JIT ------------===//
#include "LoadedModule.h"

#include "JitError.h"
#include "JitSession.h"

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace cucpu::modules;

LoadedModule::LoadedModule(loader::ModuleImage TheImage,
                           orc::JITDylib &Dylib,
                           StringMap<KernelEntry> TheKernels,
                           StringMap<GlobalEntry> TheGlobals)
    : Image(std::move(TheImage)), Dylib(Dylib), Kernels(std::move(TheKernels)),
      Globals(std::move(TheGlobals)) {
  // KernelEntry::Info points into our own copy of the image.
  for (auto &K : Kernels)
    for (const loader::KernelInfo &Info : Image.Kernels)
      if (Info.Name == K.first())
        K.second.Info = &Info;
}

LoadedModule::~LoadedModule() {
  Expected<JitSession &> Session = JitSession::get();
  if (!Session) {
    consumeError(Session.takeError());
    return;
  }
  // A destructor cannot fail; a failure here leaks the code, nothing else.
  if (Error E = Session->removeModuleDylib(Dylib))
    logAllUnhandledErrors(std::move(E), errs(),
                          "cucpu: unloading a module: ");
}

Expected<KernelEntry> LoadedModule::kernel(StringRef Name) const {
  auto It = Kernels.find(Name);
  if (It == Kernels.end())
    return makeJitError(JitErrorKind::NotFound,
                        "The module has no kernel named " + Name + ".");
  return It->second;
}

Expected<GlobalEntry> LoadedModule::global(StringRef Name) const {
  auto It = Globals.find(Name);
  if (It == Globals.end())
    return makeJitError(JitErrorKind::NotFound,
                        "The module has no __device__ or __constant__ "
                        "variable named " +
                            Name + ".");
  return It->second;
}

std::string LoadedModule::dylibName() const { return Dylib.getName(); }
