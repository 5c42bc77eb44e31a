//===- PoclHarness.cpp - OpenCL helpers of bench-pocl ---------------------===//
#include "PoclHarness.h"

#include "../common/Run.h"

#include <fstream>
#include <map>
#include <sstream>
#include <vector>

namespace bench::pocl {

void check(cl_int Err, const char *What) {
  if (Err != CL_SUCCESS)
    fatal(std::string(What) + " returned OpenCL error " + std::to_string(Err) +
          ".");
}

Device &device() {
  static Device D = [] {
    Device D;
    cl_uint N = 0;
    CL_CHECK(clGetPlatformIDs(0, nullptr, &N));
    std::vector<cl_platform_id> Platforms(N);
    CL_CHECK(clGetPlatformIDs(N, Platforms.data(), nullptr));
    for (cl_platform_id P : Platforms) {
      char Name[256] = {};
      CL_CHECK(clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Name) - 1, Name,
                                 nullptr));
      if (std::string(Name).find("Portable Computing Language") !=
          std::string::npos)
        D.Platform = P;
    }
    if (!D.Platform)
      fatal("No PoCL platform (is pocl-opencl-icd installed?).");
    CL_CHECK(clGetDeviceIDs(D.Platform, CL_DEVICE_TYPE_CPU, 1, &D.Id, nullptr));
    cl_int Err;
    D.Context = clCreateContext(nullptr, 1, &D.Id, nullptr, nullptr, &Err);
    CL_CHECK(Err);
    D.Queue = clCreateCommandQueue(D.Context, D.Id, 0, &Err);
    CL_CHECK(Err);
    return D;
  }();
  return D;
}

std::string sourcePath(const std::string &Name) {
  return std::string(CUCPU_BENCH_CL_DIR) + "/" + Name + ".cl";
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    fatal("Cannot read " + Path + ".");
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

void build(cl_program Program, const std::string &What) {
  cl_device_id Id = device().Id;
  cl_int Err = clBuildProgram(Program, 1, &Id, "", nullptr, nullptr);
  if (Err == CL_SUCCESS)
    return;
  size_t Size = 0;
  clGetProgramBuildInfo(Program, Id, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
  std::string Log(Size, '\0');
  clGetProgramBuildInfo(Program, Id, CL_PROGRAM_BUILD_LOG, Size, Log.data(),
                        nullptr);
  fatal("clBuildProgram of " + What + " returned " + std::to_string(Err) +
        "; build log:\n" + Log);
}

cl_kernel kernel(const std::string &File, const std::string &Kernel) {
  static std::map<std::string, cl_program> Programs;
  cl_program &P = Programs[File];
  if (!P) {
    std::string Source = readFile(sourcePath(File));
    const char *Text = Source.c_str();
    cl_int Err;
    P = clCreateProgramWithSource(device().Context, 1, &Text, nullptr, &Err);
    CL_CHECK(Err);
    build(P, File + ".cl");
  }
  cl_int Err;
  cl_kernel K = clCreateKernel(P, Kernel.c_str(), &Err);
  CL_CHECK(Err);
  return K;
}

} // namespace bench::pocl

const char *bench::form::name() { return "pocl"; }

// PoCL runs the OpenCL C forms; nvcc's PTX is cucpu's alone.
bool bench::form::takesPtx() { return false; }

// PoCL's thread count (CL_DEVICE_MAX_COMPUTE_UNITS).
int bench::form::threads() {
  cl_uint Units = 0;
  CL_CHECK(clGetDeviceInfo(pocl::device().Id, CL_DEVICE_MAX_COMPUTE_UNITS,
                           sizeof(Units), &Units, nullptr));
  return int(Units);
}
