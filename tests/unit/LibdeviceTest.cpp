//===- LibdeviceTest.cpp - The runtime library covers libdevice -----------===//
#include "cucpu/modules/runtime/RuntimeLibrary.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>

using namespace cucpu::modules;

namespace {

/// Every __nv_* function clang's CUDA headers can call has a definition.
TEST(LibdeviceTest, EveryDeclaredFunctionIsDefined) {
  const char *Path =
      "/usr/lib/llvm-19/lib/clang/19/include/__clang_cuda_libdevice_declares.h";
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    GTEST_SKIP() << "clang's CUDA headers are not installed at " << Path;
  llvm::StringRef Text = (*Buffer)->getBuffer();
  const auto &Lib = runtimeLibrary();
  unsigned Seen = 0;
  for (size_t Pos = Text.find("__nv_"); Pos != llvm::StringRef::npos;
       Pos = Text.find("__nv_", Pos + 1)) {
    llvm::StringRef Name = Text.substr(Pos).take_while(
        [](char C) { return std::isalnum(C) || C == '_'; });
    ++Seen;
    EXPECT_TRUE(Lib.count(Name))
        << Name.str() << " is declared by clang's headers";
  }
  EXPECT_GT(Seen, 400u) << "the header lists all of libdevice";
}

template <typename Fn> Fn *get(const char *Name) {
  return reinterpret_cast<Fn *>(runtimeLibrary().lookup(Name));
}

TEST(LibdeviceTest, DirectedRounding) {
  auto *AddRu = get<float(float, float)>("__nv_fadd_ru");
  auto *AddRd = get<float(float, float)>("__nv_fadd_rd");
  auto *AddRz = get<float(float, float)>("__nv_fadd_rz");
  EXPECT_EQ(AddRu(1.0f, 1e-10f), std::nextafter(1.0f, 2.0f)) << "up";
  EXPECT_EQ(AddRd(1.0f, 1e-10f), 1.0f) << "down";
  EXPECT_EQ(AddRz(-1.0f, -1e-10f), -1.0f) << "towards zero";
  auto *F2I = get<int(float)>("__nv_float2int_rn");
  EXPECT_EQ(F2I(2.5f), 2) << "ties to even";
  EXPECT_EQ(F2I(3e9f), INT32_MAX) << "saturates";
  EXPECT_EQ(F2I(NAN), 0) << "NaN converts to 0";
  auto *D2F = get<float(double)>("__nv_double2float_rd");
  EXPECT_EQ(D2F(0.1), 0.099999994f) << "0.1 rounded down";
}

TEST(LibdeviceTest, IntegerIntrinsics) {
  EXPECT_EQ(get<int(int)>("__nv_brev")(1), INT32_MIN) << "bit 0 -> bit 31";
  EXPECT_EQ(
      get<int(int, int, int)>("__nv_byte_perm")(0x33221100, 0x77665544, 0x7531),
      0x77553311)
      << "bytes 1, 3, 5, 7";
  EXPECT_EQ(get<int(int, int)>("__nv_mul24")(0x00ffffff, 2), -2)
      << "low 24 bits are signed";
  EXPECT_EQ(get<int(int)>("__nv_ffs")(8), 4) << "LSB counts as 1";
  EXPECT_EQ(get<int(int, int)>("__nv_vadd2")(0x0001ffff, 0x00010001),
            0x00020000)
      << "lanes wrap independently";
  EXPECT_EQ(get<unsigned short(float)>("__nv_float2half_rn")(1.0f), 0x3c00)
      << "1.0 in binary16";
  EXPECT_EQ(get<float(unsigned short)>("__nv_half2float")(0xc000), -2.0f)
      << "-2.0 from binary16";
}

TEST(LibdeviceTest, FunctionsCLacks) {
  auto *ErfInv = get<double(double)>("__nv_erfinv");
  EXPECT_NEAR(std::erf(ErfInv(0.3)), 0.3, 1e-16) << "inverse of erf";
  auto *ErfcInv = get<double(double)>("__nv_erfcinv");
  EXPECT_NEAR(std::erfc(ErfcInv(1e-10)) / 1e-10, 1.0, 1e-14) << "tail";
  auto *SinPi = get<double(double)>("__nv_sinpi");
  EXPECT_EQ(SinPi(1e10), 0.0) << "exact at integers";
  EXPECT_EQ(SinPi(0.5), 1.0) << "exact at one half";
  auto *NormCdf = get<double(double)>("__nv_normcdf");
  EXPECT_NEAR(NormCdf(0.0), 0.5, 1e-17) << "Phi(0)";
}

} // namespace
