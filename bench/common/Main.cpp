//===- Main.cpp - The main function of every benchmark executable ---------===//
#include "Main.h"

#include "Form.h"
#include "Run.h"

#include <cstdio>

namespace bench {

int benchMain(int Argc, char **Argv) {
  Options O = parseOptions(Argc, Argv);
  const ModuleLoads *Loads = form::moduleLoads();
  if (!O.Child.empty()) {
    if (Loads && O.Child == Loads->Job)
      return runModuleLoadChild(O, *Loads);
    std::fprintf(stderr, "Unknown child job '%s'.\n", O.Child.c_str());
    return 2;
  }
  if (O.Ptx && !form::takesPtx()) {
    std::fprintf(stderr,
                 "--ptx: bench-%s has no kernels from PTX; only "
                 "bench-cucpu takes it.\n",
                 form::name());
    return 2;
  }
  registerKernelBenchmarks(O);
  if (!O.ScalingOnly) {
    form::registerLaunchBenchmarks(O);
    if (Loads)
      registerModuleLoadBenchmarks(O, *Loads);
    registerCopyBenchmarks(O);
  }
  int RC = runBenchmarks(Argc, Argv, form::name(), form::threads(), O);
  releaseKernelBenchmarks();
  releaseCopyBenchmarks();
  return RC;
}

} // namespace bench
