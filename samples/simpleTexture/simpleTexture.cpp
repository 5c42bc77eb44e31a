//===- simpleTexture.cpp - Rotate an image through a 2D texture -----------===//
//
// The driver-API texture path of the seeds (§4.5.3.9, Appendix E.9): a CUDA
// array holds a generated 512 x 512 grey image, a module's texture reference
// reads it with normalized coordinates, wrap addressing and linear
// filtering, and the kernel (launched the legacy way: cuParamSet*,
// cuParamSetTexRef, cuLaunchGrid) writes the image rotated by 0.5 radians.
// The result is checked against a host reference of the same bilinear
// filter and written to simpleTexture_out.pgm (the input to
// simpleTexture_in.pgm) in the working directory. Prints PASSED.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace {
bool check(CUresult R, const char *What) {
  if (R == CUDA_SUCCESS)
    return true;
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  std::fprintf(stderr, "%s failed: %s (%d)\n", What, Name ? Name : "?", R);
  return false;
}

/// The directory of this executable, where the build puts the .cubin.
std::string exeDir() {
  char Path[4096];
  ssize_t N = readlink("/proc/self/exe", Path, sizeof(Path) - 1);
  if (N <= 0)
    return ".";
  std::string S(Path, static_cast<size_t>(N));
  return S.substr(0, S.rfind('/'));
}

/// A test image: soft rings over a diagonal gradient, values in [0, 1].
std::vector<float> makeImage(int W, int H) {
  std::vector<float> Image(size_t(W) * H);
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X) {
      float DX = X - W * 0.5f, DY = Y - H * 0.5f;
      float Rings =
          0.5f + 0.5f * std::cos(std::sqrt(DX * DX + DY * DY) * 0.15f);
      float Ramp = float(X + Y) / float(W + H);
      Image[size_t(Y) * W + X] = 0.7f * Rings + 0.3f * Ramp;
    }
  return Image;
}

/// Bilinear filtering with normalized, wrapped coordinates, as Appendix F
/// defines it (exact weights).
float sampleWrap(const std::vector<float> &Image, int W, int H, float U,
                 float V) {
  auto Wrap = [](int I, int N) { return ((I % N) + N) % N; };
  double X = (U - std::floor(U)) * W - 0.5, Y = (V - std::floor(V)) * H - 0.5;
  int X0 = int(std::floor(X)), Y0 = int(std::floor(Y));
  double A = X - X0, B = Y - Y0;
  auto At = [&](int XI, int YI) {
    return double(Image[size_t(Wrap(YI, H)) * W + Wrap(XI, W)]);
  };
  return float((1 - A) * (1 - B) * At(X0, Y0) + A * (1 - B) * At(X0 + 1, Y0) +
               (1 - A) * B * At(X0, Y0 + 1) + A * B * At(X0 + 1, Y0 + 1));
}

bool writePgm(const char *Path, const std::vector<float> &Image, int W, int H) {
  FILE *F = std::fopen(Path, "wb");
  if (!F)
    return false;
  std::fprintf(F, "P5\n%d %d\n255\n", W, H);
  for (float V : Image) {
    int Byte = int(std::lround(std::fmin(std::fmax(V, 0.0f), 1.0f) * 255.0f));
    std::fputc(Byte, F);
  }
  return std::fclose(F) == 0;
}
} // namespace

#define CHECK(Call)                                                            \
  do {                                                                         \
    if (!check((Call), #Call))                                                 \
      return 1;                                                                \
  } while (0)

int main() {
  const int W = 512, H = 512;
  const float Theta = 0.5f;
  CUdevice Dev;
  CUcontext Ctx;
  CUmodule Mod;
  CUfunction Fn;
  CUtexref Tex;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&Dev, 0));
  CHECK(cuCtxCreate(&Ctx, 0, Dev));
  std::string Cubin = exeDir() + "/simpleTexture_kernel.cubin";
  CHECK(cuModuleLoad(&Mod, Cubin.c_str()));
  CHECK(cuModuleGetFunction(&Fn, Mod, "transformKernel"));
  CHECK(cuModuleGetTexRef(&Tex, Mod, "tex"));

  // The image goes into a CUDA array through a 2D copy.
  std::vector<float> Image = makeImage(W, H);
  CUDA_ARRAY_DESCRIPTOR Desc{};
  Desc.Format = CU_AD_FORMAT_FLOAT;
  Desc.NumChannels = 1;
  Desc.Width = W;
  Desc.Height = H;
  CUarray Array;
  CHECK(cuArrayCreate(&Array, &Desc));
  CUDA_MEMCPY2D Copy{};
  Copy.srcMemoryType = CU_MEMORYTYPE_HOST;
  Copy.srcHost = Image.data();
  Copy.srcPitch = W * sizeof(float);
  Copy.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  Copy.dstArray = Array;
  Copy.WidthInBytes = W * sizeof(float);
  Copy.Height = H;
  CHECK(cuMemcpy2D(&Copy));

  // The texture reference: bound to the array, wrap, linear, normalized.
  CHECK(cuTexRefSetArray(Tex, Array, CU_TRSA_OVERRIDE_FORMAT));
  CHECK(cuTexRefSetAddressMode(Tex, 0, CU_TR_ADDRESS_MODE_WRAP));
  CHECK(cuTexRefSetAddressMode(Tex, 1, CU_TR_ADDRESS_MODE_WRAP));
  CHECK(cuTexRefSetFilterMode(Tex, CU_TR_FILTER_MODE_LINEAR));
  CHECK(cuTexRefSetFlags(Tex, CU_TRSF_NORMALIZED_COORDINATES));
  CHECK(cuTexRefSetFormat(Tex, CU_AD_FORMAT_FLOAT, 1));

  CUdeviceptr Out;
  CHECK(cuMemAlloc(&Out, size_t(W) * H * sizeof(float)));

  // The seeds' launch: block shape, parameters one by one, texture
  // reference, grid.
  int Offset = 0;
  void *OutPtr = reinterpret_cast<void *>(Out);
  Offset = (Offset + alignof(void *) - 1) & ~int(alignof(void *) - 1);
  CHECK(cuParamSetv(Fn, Offset, &OutPtr, sizeof(OutPtr)));
  Offset += sizeof(OutPtr);
  CHECK(cuParamSeti(Fn, Offset, W));
  Offset += sizeof(int);
  CHECK(cuParamSeti(Fn, Offset, H));
  Offset += sizeof(int);
  CHECK(cuParamSetf(Fn, Offset, Theta));
  Offset += sizeof(float);
  CHECK(cuParamSetSize(Fn, Offset));
  CHECK(cuParamSetTexRef(Fn, CU_PARAM_TR_DEFAULT, Tex));
  CHECK(cuFuncSetBlockShape(Fn, 16, 16, 1));
  CHECK(cuLaunchGrid(Fn, W / 16, H / 16));
  CHECK(cuCtxSynchronize());

  std::vector<float> Result(size_t(W) * H);
  CHECK(cuMemcpyDtoH(Result.data(), Out, Result.size() * sizeof(float)));

  // The hardware keeps filter weights with 8 fractional bits, so the
  // result may differ from exact bilinear filtering by up to half a weight
  // step times the largest difference between neighbouring texels.
  double MaxError = 0, SumError = 0;
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X) {
      float U = X / float(W) - 0.5f, V = Y / float(H) - 0.5f;
      float TU = U * std::cos(Theta) - V * std::sin(Theta) + 0.5f;
      float TV = V * std::cos(Theta) + U * std::sin(Theta) + 0.5f;
      double Error = std::fabs(sampleWrap(Image, W, H, TU, TV) -
                               Result[size_t(Y) * W + X]);
      MaxError = std::fmax(MaxError, Error);
      SumError += Error;
    }
  double MeanError = SumError / (double(W) * H);
  bool Wrote = writePgm("simpleTexture_in.pgm", Image, W, H) &&
               writePgm("simpleTexture_out.pgm", Result, W, H);
  std::printf("rotated %dx%d by %.2f rad: max error %.2e, mean error %.2e "
              "against exact bilinear filtering\n",
              W, H, double(Theta), MaxError, MeanError);
  std::printf("%s simpleTexture_in.pgm and simpleTexture_out.pgm\n",
              Wrote ? "wrote" : "could not write");

  CHECK(cuMemFree(Out));
  CHECK(cuArrayDestroy(Array));
  CHECK(cuCtxDestroy(Ctx));
  bool Passed = Wrote && MaxError < 4e-3 && MeanError < 5e-4;
  std::printf("%s\n", Passed ? "PASSED" : "FAILED");
  return Passed ? 0 : 1;
}
