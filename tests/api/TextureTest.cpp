//===- TextureTest.cpp - Texture references and texture objects -----------===//
//
// The seeds' E.9 on references made with cuTexRefCreate (a module's
// references need a kernel image: tests/textures and tools/texture-facts
// cover them), and texture objects. The expected answers are those of
// NVIDIA's driver on an H200 (tools/texture-facts).
//
//===----------------------------------------------------------------------===//
#include "DriverTest.h"

#include <cstring>

using namespace cuapi;

namespace {

class TexRefTest : public DriverTest {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure())
      return;
    ASSERT_CU(CUDA_SUCCESS, cuTexRefCreate(&T));
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Memory, 4096));
  }
  void TearDown() override {
    if (Memory) {
      EXPECT_CU(CUDA_SUCCESS, cuMemFree(Memory));
    }
    if (T) {
      EXPECT_CU(CUDA_SUCCESS, cuTexRefDestroy(T));
    }
    DriverTest::TearDown();
  }
  CUarray array(CUarray_format F, unsigned Channels) {
    CUDA_ARRAY_DESCRIPTOR D{};
    D.Width = 8;
    D.Height = 8;
    D.Format = F;
    D.NumChannels = Channels;
    CUarray A = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuArrayCreate(&A, &D));
    return A;
  }

  CUtexref T = nullptr;
  CUdeviceptr Memory = 0;
};

TEST_F(TexRefTest, DefaultsAreFloatClampPointUnbound) {
  CUarray_format F = CUarray_format(0);
  int Channels = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetFormat(&F, &Channels, T));
  EXPECT_EQ(CU_AD_FORMAT_FLOAT, F);
  EXPECT_EQ(1, Channels);
  for (int D = 0; D < 3; ++D) {
    CUaddress_mode M = CU_TR_ADDRESS_MODE_WRAP;
    ASSERT_CU(CUDA_SUCCESS, cuTexRefGetAddressMode(&M, T, D));
    EXPECT_EQ(CU_TR_ADDRESS_MODE_CLAMP, M);
  }
  CUaddress_mode M;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetAddressMode(&M, T, 3));
  CUfilter_mode Filter = CU_TR_FILTER_MODE_LINEAR;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetFilterMode(&Filter, T));
  EXPECT_EQ(CU_TR_FILTER_MODE_POINT, Filter);
  unsigned Flags = 99;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetFlags(&Flags, T));
  EXPECT_EQ(0u, Flags);
  float Border[4] = {1, 1, 1, 1};
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetBorderColor(Border, T));
  EXPECT_EQ(0.0f, Border[0] + Border[1] + Border[2] + Border[3]);
  CUdeviceptr Address = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetAddress(&Address, T));
  EXPECT_EQ(0u, Address) << "written even when unbound";
  CUarray A = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetArray(&A, T));
}

TEST_F(TexRefTest, SetAddressReturnsTheOffsetFromTheTextureAlignment) {
  int Alignment = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuDeviceGetAttribute(
                &Alignment, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, this->Dev));
  ASSERT_EQ(512, Alignment);
  size_t Offset = 99;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetAddress(&Offset, T, Memory, 4096));
  EXPECT_EQ(0u, Offset) << "cuMemAlloc pointers need no offset";
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetAddress(&Offset, T, Memory + 4, 64));
  EXPECT_EQ(4u, Offset);
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetAddress(&Offset, T, Memory + 512, 64));
  EXPECT_EQ(0u, Offset);
  CUdeviceptr Address = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetAddress(&Address, T));
  EXPECT_EQ(Memory + 512, Address);
  EXPECT_CU(CUDA_SUCCESS, cuTexRefSetAddress(nullptr, T, Memory, 64));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexRefSetAddress(&Offset, T, Memory, size_t(1) << 40));
}

TEST_F(TexRefTest, SetAddress2DNeedsAlignedAddressAndPitch) {
  CUDA_ARRAY_DESCRIPTOR D{};
  D.Width = 16;
  D.Height = 4;
  D.Format = CU_AD_FORMAT_FLOAT;
  D.NumChannels = 1;
  EXPECT_CU(CUDA_SUCCESS, cuTexRefSetAddress2D(T, &D, Memory, 64));
  EXPECT_CU(CUDA_SUCCESS, cuTexRefSetAddress2D(T, &D, Memory, 96));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetAddress2D(T, &D, Memory, 60))
      << "pitch not a multiple of 32";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetAddress2D(T, &D, Memory, 32))
      << "pitch smaller than a row";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexRefSetAddress2D(T, &D, Memory + 64, 64))
      << "address not 512-byte aligned";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexRefSetAddress2D(T, nullptr, Memory, 64));
  D.NumChannels = 3;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetAddress2D(T, &D, Memory, 64));
}

TEST_F(TexRefTest, SettersAndGetters) {
  for (int C : {0, 1, 2, 4})
    EXPECT_CU(CUDA_SUCCESS, cuTexRefSetFormat(T, CU_AD_FORMAT_HALF, C));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexRefSetFormat(T, CU_AD_FORMAT_HALF, 3));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFormat(T, CU_AD_FORMAT_UNSIGNED_INT8, 4));
  CUarray_format F;
  int Channels = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetFormat(&F, &Channels, T));
  EXPECT_EQ(CU_AD_FORMAT_UNSIGNED_INT8, F);
  EXPECT_EQ(4, Channels);

  ASSERT_CU(CUDA_SUCCESS,
            cuTexRefSetAddressMode(T, 1, CU_TR_ADDRESS_MODE_MIRROR));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexRefSetAddressMode(T, 3, CU_TR_ADDRESS_MODE_WRAP));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexRefSetAddressMode(T, -1, CU_TR_ADDRESS_MODE_WRAP));
  CUaddress_mode M;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetAddressMode(&M, T, 1));
  EXPECT_EQ(CU_TR_ADDRESS_MODE_MIRROR, M);

  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFilterMode(T, CU_TR_FILTER_MODE_LINEAR));
  CUfilter_mode Filter;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetFilterMode(&Filter, T));
  EXPECT_EQ(CU_TR_FILTER_MODE_LINEAR, Filter);

  unsigned Flags = CU_TRSF_READ_AS_INTEGER | CU_TRSF_NORMALIZED_COORDINATES;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFlags(T, Flags));
  unsigned Back = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetFlags(&Back, T));
  EXPECT_EQ(Flags, Back);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetFlags(T, 0x40));

  float Border[4] = {0.25f, 0.5f, 0.75f, 1.0f}, BorderBack[4] = {};
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetBorderColor(T, Border));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetBorderColor(BorderBack, T));
  EXPECT_EQ(0, std::memcmp(Border, BorderBack, sizeof(Border)));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetBorderColor(T, nullptr));

  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetMaxAnisotropy(T, 4));
  int Aniso = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetMaxAnisotropy(&Aniso, T));
  EXPECT_EQ(4, Aniso);

  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetMipmapLevelClamp(T, 3.0f, 0.5f));
  float Min = 0, Max = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetMipmapLevelClamp(&Min, &Max, T));
  EXPECT_EQ(3.0f, Min);
  EXPECT_EQ(0.5f, Max);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexRefSetMipmapFilterMode(T, CUfilter_mode(5)));
}

TEST_F(TexRefTest, SetArrayOverridesTheFormatOnlyWhenAsked) {
  CUarray A = array(CU_AD_FORMAT_UNSIGNED_INT16, 2);
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetArray(T, A, 0));
  CUarray_format F;
  int Channels = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetFormat(&F, &Channels, T));
  EXPECT_EQ(CU_AD_FORMAT_FLOAT, F);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetArray(T, A, 2));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetArray(T, A, CU_TRSA_OVERRIDE_FORMAT));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetFormat(&F, &Channels, T));
  EXPECT_EQ(CU_AD_FORMAT_UNSIGNED_INT16, F);
  EXPECT_EQ(2, Channels);
  CUarray Bound = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetArray(&Bound, T));
  EXPECT_EQ(A, Bound);
  CUdeviceptr Address = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetAddress(&Address, T));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuTexRefSetArray(T, nullptr, CU_TRSA_OVERRIDE_FORMAT));

  // Binding linear memory unbinds the array; destroying a bound array
  // unbinds it.
  size_t Offset = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetAddress(&Offset, T, Memory, 64));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetArray(&Bound, T));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetArray(T, A, CU_TRSA_OVERRIDE_FORMAT));
  ASSERT_CU(CUDA_SUCCESS, cuArrayDestroy(A));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetArray(&Bound, T));
}

TEST_F(TexRefTest, NullHandles) {
  CUtexref Null = nullptr;
  CUfilter_mode Filter;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuTexRefGetFilterMode(&Filter, Null));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuTexRefDestroy(Null));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefCreate(nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetMipmapFilterMode(nullptr, T));
}

class TexObjectTest : public DriverTest {};

TEST_F(TexObjectTest, ArrayObjectsKeepTheirDescriptions) {
  CUDA_ARRAY_DESCRIPTOR D{};
  D.Width = 8;
  D.Height = 8;
  D.Format = CU_AD_FORMAT_FLOAT;
  D.NumChannels = 1;
  CUarray A = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuArrayCreate(&A, &D));
  CUDA_RESOURCE_DESC Res{};
  Res.resType = CU_RESOURCE_TYPE_ARRAY;
  Res.res.array.hArray = A;
  CUDA_TEXTURE_DESC Tex{};
  Tex.addressMode[0] = CU_TR_ADDRESS_MODE_CLAMP;
  Tex.filterMode = CU_TR_FILTER_MODE_LINEAR;
  CUtexObject O = 0, O2 = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&O, &Res, &Tex, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  EXPECT_NE(0u, O);
  EXPECT_NE(O, O2);
  CUDA_RESOURCE_DESC ResBack{};
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectGetResourceDesc(&ResBack, O));
  EXPECT_EQ(CU_RESOURCE_TYPE_ARRAY, ResBack.resType);
  EXPECT_EQ(A, ResBack.res.array.hArray);
  CUDA_TEXTURE_DESC TexBack{};
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectGetTextureDesc(&TexBack, O));
  EXPECT_EQ(CU_TR_ADDRESS_MODE_CLAMP, TexBack.addressMode[0]);
  EXPECT_EQ(CU_TR_FILTER_MODE_LINEAR, TexBack.filterMode);
  CUDA_RESOURCE_VIEW_DESC View{};
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectGetResourceViewDesc(&View, O));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(O));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(O2));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(0));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A));
}

TEST_F(TexObjectTest, ArrayViewOfTheSameFormatRoundTrips) {
  CUDA_ARRAY_DESCRIPTOR AD{};
  AD.Width = 16;
  AD.Height = 8;
  AD.Format = CU_AD_FORMAT_FLOAT;
  AD.NumChannels = 2;
  CUarray A = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuArrayCreate(&A, &AD));
  CUDA_RESOURCE_DESC Res{};
  Res.resType = CU_RESOURCE_TYPE_ARRAY;
  Res.res.array.hArray = A;
  CUDA_TEXTURE_DESC Tex{};
  CUDA_RESOURCE_VIEW_DESC View{};
  View.format = CU_RES_VIEW_FORMAT_FLOAT_2X32;
  View.width = 16;
  View.height = 8;
  CUtexObject O = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&O, &Res, &Tex, &View))
      << "a view of the whole array in its own format";
  CUDA_RESOURCE_VIEW_DESC Back{};
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectGetResourceViewDesc(&Back, O));
  EXPECT_EQ(CU_RES_VIEW_FORMAT_FLOAT_2X32, Back.format);
  EXPECT_EQ(16u, Back.width);
  EXPECT_EQ(8u, Back.height);
  EXPECT_EQ(0u, Back.depth);
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(O));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A));
}

TEST_F(TexObjectTest, InvalidDescriptionsAreRejected) {
  CUdeviceptr Dev = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Dev, 4096));
  CUDA_RESOURCE_DESC Res{};
  Res.resType = CU_RESOURCE_TYPE_LINEAR;
  Res.res.linear.devPtr = Dev;
  Res.res.linear.format = CU_AD_FORMAT_FLOAT;
  Res.res.linear.numChannels = 1;
  Res.res.linear.sizeInBytes = 1024;
  CUDA_TEXTURE_DESC Tex{};
  CUtexObject O = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexObjectCreate(nullptr, &Res, &Tex, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexObjectCreate(&O, nullptr, &Tex, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexObjectCreate(&O, &Res, nullptr, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&O, &Res, &Tex, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(O));
  Res.res.linear.devPtr = Dev + 4;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexObjectCreate(&O, &Res, &Tex, nullptr))
      << "linear memory must be 512-byte aligned";
  Res.res.linear.devPtr = Dev;
  Res.res.linear.numChannels = 3;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexObjectCreate(&O, &Res, &Tex, nullptr));

  std::memset(&Res, 0, sizeof(Res));
  Res.resType = CU_RESOURCE_TYPE_PITCH2D;
  Res.res.pitch2D.devPtr = Dev;
  Res.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
  Res.res.pitch2D.numChannels = 1;
  Res.res.pitch2D.width = 8;
  Res.res.pitch2D.height = 8;
  Res.res.pitch2D.pitchInBytes = 32;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&O, &Res, &Tex, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(O));
  for (size_t Pitch : {36u, 16u}) {
    Res.res.pitch2D.pitchInBytes = Pitch;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuTexObjectCreate(&O, &Res, &Tex, nullptr))
        << "pitch " << Pitch;
  }
  Res.res.pitch2D.pitchInBytes = 32;
  Tex.filterMode = CUfilter_mode(2);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexObjectCreate(&O, &Res, &Tex, nullptr));
  Tex.filterMode = CU_TR_FILTER_MODE_POINT;
  Tex.addressMode[0] = CUaddress_mode(4);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexObjectCreate(&O, &Res, &Tex, nullptr));
  Tex.addressMode[0] = CU_TR_ADDRESS_MODE_WRAP;
  Tex.flags = 0x80;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexObjectCreate(&O, &Res, &Tex, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Dev));
}

} // namespace
