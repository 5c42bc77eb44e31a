//===- main.cpp - bench-native: the benchmarks as C++ with OpenMP ---------===//
#include "../common/Main.h"

int main(int Argc, char **Argv) { return bench::benchMain(Argc, Argv); }
