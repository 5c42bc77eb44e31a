//===- ModuleLoadBenchmarks.cpp - Module loads in a fresh process ---------===//
#include "ModuleLoadBenchmarks.h"

#include "Form.h"
#include "Run.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

namespace bench {
namespace {

/// Times one child per iteration, each loading \p File with \p Env (\p
/// Name's environment); the first call first runs an untimed child.
void timeChildren(benchmark::State &S, const char *Name, const ModuleLoads &L,
                  const std::string &File, const ChildEnv &Env) {
  auto Fail = [&](const std::string &Why) {
    return std::string(form::name()) + " " + Name + ": " + Why;
  };
  static std::vector<std::string> WarmedUp;
  if (std::find(WarmedUp.begin(), WarmedUp.end(), Name) == WarmedUp.end()) {
    WarmedUp.push_back(Name);
    ChildResult R = runChild(L.Job, {File}, Env.Vars);
    if (!R.Ok)
      fatal(Fail(R.Error));
    if (!Env.CacheDir.empty() && std::filesystem::is_empty(Env.CacheDir))
      reportFailure(Fail(std::string("the first ") + L.Job + " left " +
                         Env.CacheDir + " empty; no " + L.Cache + " to hit."));
  }
  for (auto _ : S) {
    ChildResult R = runChild(L.Job, {File}, Env.Vars);
    if (!R.Ok)
      fatal(Fail(R.Error));
    S.SetIterationTime(R.Seconds);
  }
}

} // namespace

void registerModuleLoadBenchmarks(const Options &O, const ModuleLoads &L) {
  // The loads of a benchmark and of its .ptx variant run one after the
  // other, so that the two meet the machine in the same state.
  for (bool Warm : {false, true})
    for (bool FromPtx : {false, true}) {
      if (FromPtx && (!O.Ptx || L.PtxFile.empty()))
        continue;
      const char *Name =
          Warm ? (FromPtx ? "module_load.warm.ptx" : "module_load.warm")
               : (FromPtx ? "module_load.cold.ptx" : "module_load.cold");
      auto *B = benchmark::RegisterBenchmark(
          Name, [&L, Name, Warm, FromPtx](benchmark::State &S) {
            timeChildren(S, Name, L, FromPtx ? L.PtxFile : L.File,
                         L.Env(Warm, FromPtx));
          });
      timed(B, O, Clock::Manual, 1);
    }
}

int runModuleLoadChild(const Options &O, const ModuleLoads &L) {
  if (O.ChildArgs.size() != 1)
    fatal(std::string("--child=") + L.Job + " takes " + L.Takes + ".");
  double Seconds = 0;
  if (!L.LoadAndCheck(O.ChildArgs[0], Seconds))
    return 1;
  std::printf("%.9f\n", Seconds);
  return 0;
}

const std::string &cacheDir(const char *Tag, const char *What) {
  static std::vector<std::unique_ptr<TempDir>> Dirs;
  Dirs.push_back(std::make_unique<TempDir>(Tag));
  if (Dirs.back()->path().empty())
    fatal(std::string("Could not create a temporary ") + What + " directory.");
  return Dirs.back()->path();
}

} // namespace bench
