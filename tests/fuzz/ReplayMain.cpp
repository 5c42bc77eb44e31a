//===- ReplayMain.cpp - Runs a fuzz harness over saved inputs -------------===//
//
// Outside the fuzz configuration each harness is linked with this main
// instead of libFuzzer: it feeds every file named on the command line (or
// found in a directory named there) to LLVMFuzzerTestOneInput once. CTest
// runs it over the seed corpus and the inputs that once crashed
// (tests/fuzz/regressions), in every configuration, sanitizers included.
//
//===----------------------------------------------------------------------===//
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

namespace {
int replay(const std::filesystem::path &File) {
  std::ifstream In(File, std::ios::binary);
  if (!In) {
    std::fprintf(stderr, "replay: cannot read %s\n", File.c_str());
    return 1;
  }
  std::vector<uint8_t> Bytes((std::istreambuf_iterator<char>(In)),
                             std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(Bytes.data(), Bytes.size());
  return 0;
}
} // namespace

int main(int Argc, char **Argv) {
  int Failures = 0, Inputs = 0;
  for (int I = 1; I < Argc; ++I) {
    std::filesystem::path Arg(Argv[I]);
    if (std::filesystem::is_directory(Arg)) {
      for (const auto &Entry : std::filesystem::directory_iterator(Arg))
        if (Entry.is_regular_file()) {
          Failures += replay(Entry.path());
          ++Inputs;
        }
    } else {
      Failures += replay(Arg);
      ++Inputs;
    }
  }
  std::printf("replayed %d inputs\n", Inputs);
  return Failures ? 1 : 0;
}
