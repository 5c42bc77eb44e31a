//===- MipmappedArrayTest.cpp - Mipmapped arrays --------------------------===//
//
// cuMipmappedArrayCreate, GetLevel and Destroy, and texture objects over
// mipmapped arrays (CUDA 11 guide B.8.1.3-10; what the fetches return is
// tests/textures' business). The expected answers are those of NVIDIA's
// driver on an H200.
//
//===----------------------------------------------------------------------===//
#include "DriverTest.h"

#include <cstring>
#include <utility>

using namespace cuapi;

namespace {

class MipmappedArrayTest : public DriverTest {
protected:
  static CUDA_ARRAY3D_DESCRIPTOR desc(size_t W, size_t H, size_t D,
                                      unsigned Flags = 0) {
    CUDA_ARRAY3D_DESCRIPTOR Desc{};
    Desc.Width = W;
    Desc.Height = H;
    Desc.Depth = D;
    Desc.Format = CU_AD_FORMAT_FLOAT;
    Desc.NumChannels = 1;
    Desc.Flags = Flags;
    return Desc;
  }
};

TEST_F(MipmappedArrayTest, LevelsHalveEveryExtent) {
  CUDA_ARRAY3D_DESCRIPTOR D = desc(16, 8, 0);
  D.Format = CU_AD_FORMAT_UNSIGNED_INT8;
  D.NumChannels = 4;
  CUmipmappedArray M = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&M, &D, 5));
  const size_t Widths[] = {16, 8, 4, 2, 1}, Heights[] = {8, 4, 2, 1, 1};
  for (unsigned L = 0; L < 5; ++L) {
    CUarray A = nullptr, Again = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&A, M, L));
    ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&Again, M, L));
    EXPECT_EQ(A, Again) << "level " << L;
    CUDA_ARRAY3D_DESCRIPTOR Got{};
    ASSERT_CU(CUDA_SUCCESS, cuArray3DGetDescriptor(&Got, A));
    EXPECT_EQ(Widths[L], Got.Width) << "level " << L;
    EXPECT_EQ(Heights[L], Got.Height) << "level " << L;
    EXPECT_EQ(0u, Got.Depth);
    EXPECT_EQ(CU_AD_FORMAT_UNSIGNED_INT8, Got.Format);
    EXPECT_EQ(4u, Got.NumChannels);
  }
  CUarray A = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(&A, M, 5));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(M));
}

TEST_F(MipmappedArrayTest, LayersAndFacesAreNotHalved) {
  struct Shape {
    CUDA_ARRAY3D_DESCRIPTOR Desc;
    unsigned Levels;
  };
  const Shape Shapes[] = {
      {desc(64, 0, 0), 7},
      {desc(8, 8, 4), 4},
      {desc(16, 8, 3, CUDA_ARRAY3D_LAYERED), 5},
      {desc(32, 0, 5, CUDA_ARRAY3D_LAYERED), 6},
      {desc(8, 8, 6, CUDA_ARRAY3D_CUBEMAP), 4},
      {desc(4, 4, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED), 3}};
  for (const Shape &S : Shapes) {
    CUmipmappedArray M = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&M, &S.Desc, S.Levels))
        << S.Desc.Width << " x " << S.Desc.Height << " x " << S.Desc.Depth;
    CUarray Last = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&Last, M, S.Levels - 1));
    CUDA_ARRAY3D_DESCRIPTOR Got{};
    ASSERT_CU(CUDA_SUCCESS, cuArray3DGetDescriptor(&Got, Last));
    EXPECT_EQ(1u, Got.Width);
    EXPECT_EQ(S.Desc.Height ? 1u : 0u, Got.Height);
    bool Count = S.Desc.Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
    EXPECT_EQ(Count          ? S.Desc.Depth
              : S.Desc.Depth ? 1u
                             : 0u,
              Got.Depth)
        << S.Desc.Width << " x " << S.Desc.Height << " x " << S.Desc.Depth;
    EXPECT_EQ(S.Desc.Flags, Got.Flags);
    EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(M));
  }
}

TEST_F(MipmappedArrayTest, LevelCountIsClampedToTheChain) {
  CUDA_ARRAY3D_DESCRIPTOR D = desc(16, 8, 0);
  // 16 x 8 has 5 levels: a count of 0 makes 1, one past the chain the chain.
  for (auto [Asked, Made] :
       {std::pair{0u, 1u}, {1u, 1u}, {5u, 5u}, {6u, 5u}, {100u, 5u}}) {
    CUmipmappedArray M = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&M, &D, Asked));
    CUarray A = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&A, M, Made - 1))
        << Asked << " levels asked";
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(&A, M, Made))
        << Asked << " levels asked";
    EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(M));
  }
  CUmipmappedArray M = nullptr;
  D.Format = CUarray_format(0x55);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(&M, &D, 1));
  D = desc(6, 6, 5, CUDA_ARRAY3D_CUBEMAP);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(&M, &D, 1))
      << "a cubemap has 6 faces";
}

TEST_F(MipmappedArrayTest, NullArgumentsAndDeadHandles) {
  CUDA_ARRAY3D_DESCRIPTOR D = desc(8, 8, 0);
  CUmipmappedArray M = nullptr;
  CUarray A = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(nullptr, &D, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(&M, nullptr, 1));
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&M, &D, 2));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(nullptr, M, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuMipmappedArrayGetLevel(&A, nullptr, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayDestroy(nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(M));
  // NVIDIA's driver answers CUDA_ERROR_CONTEXT_IS_DESTROYED for a destroyed
  // mipmapped array (cucpu: CUDA_ERROR_INVALID_HANDLE), so that is not
  // checked here.
}

TEST_F(MipmappedArrayTest, LevelsBelongToTheMipmappedArray) {
  CUDA_ARRAY3D_DESCRIPTOR D = desc(8, 8, 0);
  CUmipmappedArray M = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&M, &D, 3));
  CUarray Level = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&Level, M, 1));
  // A level is an array: copies reach it.
  float In[16], Out[16] = {};
  for (int I = 0; I < 16; ++I)
    In[I] = float(I) + 0.5f;
  CUDA_MEMCPY3D Copy{};
  Copy.srcMemoryType = CU_MEMORYTYPE_HOST;
  Copy.srcHost = In;
  Copy.srcPitch = 16;
  Copy.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  Copy.dstArray = Level;
  Copy.WidthInBytes = 16;
  Copy.Height = 4;
  Copy.Depth = 1;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy3D(&Copy));
  std::swap(Copy.srcMemoryType, Copy.dstMemoryType);
  Copy.srcArray = Level;
  Copy.dstHost = Out;
  Copy.dstPitch = 16;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy3D(&Copy));
  EXPECT_EQ(0, std::memcmp(In, Out, sizeof(In)));
  // cuArrayDestroy answers success for a level and keeps it: the
  // mipmapped array owns its levels.
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(Level));
  CUDA_ARRAY3D_DESCRIPTOR Got{};
  EXPECT_CU(CUDA_SUCCESS, cuArray3DGetDescriptor(&Got, Level));
  EXPECT_EQ(4u, Got.Width);
  CUarray Again = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&Again, M, 1));
  EXPECT_EQ(Level, Again);
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(M));
}

TEST_F(MipmappedArrayTest, TextureObjectsReadThem) {
  CUDA_ARRAY3D_DESCRIPTOR D = desc(16, 16, 0);
  CUmipmappedArray M = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&M, &D, 5));
  CUDA_RESOURCE_DESC Res{};
  Res.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
  Res.res.mipmap.hMipmappedArray = M;
  CUDA_TEXTURE_DESC Tex{};
  Tex.filterMode = CU_TR_FILTER_MODE_LINEAR;
  Tex.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
  Tex.maxMipmapLevelClamp = 4;
  Tex.flags = CU_TRSF_NORMALIZED_COORDINATES;
  CUtexObject O = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&O, &Res, &Tex, nullptr));
  CUDA_RESOURCE_DESC Back{};
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectGetResourceDesc(&Back, O));
  EXPECT_EQ(CU_RESOURCE_TYPE_MIPMAPPED_ARRAY, Back.resType);
  EXPECT_EQ(M, Back.res.mipmap.hMipmappedArray);
  CUDA_TEXTURE_DESC TexBack{};
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectGetTextureDesc(&TexBack, O));
  EXPECT_EQ(CU_TR_FILTER_MODE_LINEAR, TexBack.mipmapFilterMode);
  EXPECT_EQ(4.0f, TexBack.maxMipmapLevelClamp);
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(O));

  // A view of some of its levels: the array's format, level 0's extent.
  CUDA_RESOURCE_VIEW_DESC View{};
  View.format = CU_RES_VIEW_FORMAT_FLOAT_1X32;
  View.width = 16;
  View.height = 16;
  View.firstMipmapLevel = 1;
  View.lastMipmapLevel = 3;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&O, &Res, &Tex, &View));
  CUDA_RESOURCE_VIEW_DESC ViewBack{};
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectGetResourceViewDesc(&ViewBack, O));
  EXPECT_EQ(1u, ViewBack.firstMipmapLevel);
  EXPECT_EQ(3u, ViewBack.lastMipmapLevel);
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(O));
  View.lastMipmapLevel = 9;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&O, &Res, &Tex, &View))
      << "a last level past the end";
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(O));
  View.width = 8;
  View.height = 8;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&O, &Res, &Tex, &View))
      << "the extent of level 1, not level 0";
  View.width = 16;
  View.height = 16;
  View.format = CU_RES_VIEW_FORMAT_NONE;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&O, &Res, &Tex, &View))
      << "no format";

  Res.res.mipmap.hMipmappedArray = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexObjectCreate(&O, &Res, &Tex, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(M));
}

TEST_F(MipmappedArrayTest, TextureReferencesReadThem) {
  CUDA_ARRAY3D_DESCRIPTOR D = desc(16, 8, 0);
  D.Format = CU_AD_FORMAT_UNSIGNED_INT16;
  D.NumChannels = 2;
  CUmipmappedArray M = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&M, &D, 3));
  CUtexref R = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefCreate(&R));
  CUmipmappedArray Back = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetMipmappedArray(&Back, R))
      << "nothing bound";
  ASSERT_CU(CUDA_SUCCESS,
            cuTexRefSetMipmappedArray(R, M, CU_TRSA_OVERRIDE_FORMAT));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetMipmappedArray(&Back, R));
  EXPECT_EQ(M, Back);
  CUarray_format Format{};
  int Channels = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetFormat(&Format, &Channels, R));
  EXPECT_EQ(CU_AD_FORMAT_UNSIGNED_INT16, Format);
  EXPECT_EQ(2, Channels);
  EXPECT_CU(CUDA_SUCCESS, cuTexRefDestroy(R));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(M));
}

} // namespace
