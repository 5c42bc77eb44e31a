//===- HostTarget.cpp - The CPU that JIT-compiled kernels run on ----------===//
#include "HostTarget.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <vector>

using namespace cucpu::modules;

HostTarget HostTarget::detect() {
  HostTarget T;
  T.Triple = llvm::sys::getProcessTriple();
  T.Cpu = llvm::sys::getHostCPUName().str();
  llvm::StringMap<bool> Features = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> Enabled;
  for (const auto &F : Features)
    if (F.second)
      Enabled.push_back("+" + F.first().str());
  std::sort(Enabled.begin(), Enabled.end());
  for (const std::string &F : Enabled)
    T.Features += (T.Features.empty() ? "" : ",") + F;
  if (Features.lookup("avx512f"))
    T.VectorBits = 512;
  else if (Features.lookup("avx2") || Features.lookup("avx"))
    T.VectorBits = 256;
  return T;
}

std::string HostTarget::describe() const {
  return Triple + " cpu=" + Cpu + " vector-bits=" + std::to_string(VectorBits);
}
