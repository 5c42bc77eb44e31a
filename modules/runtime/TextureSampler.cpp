//===- TextureSampler.cpp - Texture fetches as NVIDIA's hardware does them ===//
//
// Programming Guide Appendix F, made bit-exact against an H200
// (tests/textures, docs/textures.md):
//  * A normalized coordinate is kept with 24 fractional bits and scaled by
//    the texture's size. Wrap and mirror apply to normalized coordinates
//    only; unnormalized ones clamp instead.
//  * Point sampling reads texel floor(x). Linear filtering reads the texels
//    around x - 0.5; each fraction is rounded to 8 bits, and the 2, 4 or 8
//    weights are 1/256 units formed by splitting 256 along z, then x, then y,
//    each split rounding the upper part half up (half down for y below a
//    lower x). A 1D texture is filtered as a 2D texture of one row at y = 0,
//    so in border mode half of each result is the border color.
//  * A texel outside the texture in border mode is the border color
//    converted to the texel format (and read back like a texel); integers
//    read as integers see 0, 32-bit integers its float bits.
//  * Filtering sums exactly; the result is rounded to the format's filter
//    precision: float with ties away from zero, half for half texels, and
//    16-bit normalized values for 8- and 16-bit integers.
// Channels a texture does not have read 0.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/runtime/KernelAccess.h"
#include "cucpu/modules/runtime/RuntimeLibrary.h"

#include "cucpu/modules/abi/TextureAbi.h"

#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

bool is32BitInteger(uint32_t Format) {
  return Format == CU_AD_FORMAT_UNSIGNED_INT32 ||
         Format == CU_AD_FORMAT_SIGNED_INT32;
}

bool isFloatFormat(uint32_t Format) {
  return Format == CU_AD_FORMAT_HALF || Format == CU_AD_FORMAT_FLOAT;
}

/// The raw words of the \p Channels channels of \p Step (1, 2 or 4) bytes
/// each of the texel at \p P.
CUCPU_KERNEL_ACCESS void loadTexel(const char *P, unsigned Step,
                                   unsigned Channels, uint32_t *Words) {
  const auto *B = reinterpret_cast<const unsigned char *>(P);
  for (unsigned C = 0; C < Channels && C < 4; ++C, B += Step) {
    uint32_t V = B[0];
    if (Step >= 2)
      V |= uint32_t(B[1]) << 8;
    if (Step == 4)
      V |= uint32_t(B[2]) << 16 | uint32_t(B[3]) << 24;
    Words[C] = V;
  }
}

/// The description at \p Handle, or null unless it is one the driver made
/// (its magic word). Its first and last words are read here, so the whole
/// description is readable memory once this returns it.
CUCPU_KERNEL_ACCESS const CucpuTexture *checkedDescription(uint64_t Handle) {
  if (Handle % alignof(CucpuTexture) != 0)
    return nullptr;
  const auto *T = reinterpret_cast<const CucpuTexture *>(Handle);
  (void)*reinterpret_cast<const volatile uint64_t *>(T);
  if (*static_cast<const volatile uint32_t *>(&T->Magic) != CucpuTextureMagic)
    return nullptr;
  return T;
}

uint32_t floatBits(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}

float halfToFloat(uint16_t H) {
  uint32_t Sign = uint32_t(H >> 15) << 31;
  uint32_t Exponent = (H >> 10) & 0x1f, Mantissa = H & 0x3ff;
  float Magnitude;
  if (Exponent == 0x1f)
    Magnitude = Mantissa ? NAN : INFINITY;
  else if (Exponent == 0)
    Magnitude = std::ldexp(float(Mantissa), -24);
  else
    Magnitude = std::ldexp(float(Mantissa | 0x400), int(Exponent) - 25);
  return Sign ? -Magnitude : Magnitude;
}

/// \p V rounded to \p Bits significant bits (half: 11, float: 24), ties away
/// from zero, with \p MinExponent the smallest normal exponent.
long double roundTiesAway(long double V, int Bits, int MinExponent) {
  if (V == 0 || !std::isfinite(V))
    return V;
  int Exponent = std::ilogb(V);
  Exponent = std::max(Exponent, MinExponent);
  long double Unit = std::ldexp(1.0L, Exponent - (Bits - 1));
  long double Scaled = std::fabs(V) / Unit;
  long double Rounded = std::floor(Scaled + 0.5L);
  return std::copysign(Rounded * Unit, V);
}

/// floor(V * 2^Bits + 0.5) / 2^Bits of a normalized integer result: \p V in
/// texel units of a format whose maximum is \p Max, as a 16-bit normalized
/// value.
float quantize16(long double V, long double Max, bool Signed) {
  long double Scale = Signed ? 32767.0L : 65535.0L;
  long double X = V / Max;
  if (Signed)
    X = std::max(X, -1.0L);
  long double N = std::floor(X * Scale + 0.5L);
  return float(N) / float(Scale);
}

/// A filtered sum of signed 8-bit texels (in texel units, a multiple of
/// 1/256) as the hardware turns it into a 16-bit normalized value: it
/// scales by 32767/127 = 1 + 1/128 + 1/32768 (nearly) in fixed point with 3
/// guard bits, rounding half up.
float signedByteTo16(long double Sum) {
  int64_t X = int64_t(std::llround(Sum * 256)) * 8;
  int64_t Scaled = X + (X >> 7) + (X >> 15);
  int64_t N = std::clamp<int64_t>((Scaled + 4) >> 3, -32767, 32767);
  return float(N) / 32767.0f;
}

/// What an 8-bit sRGB channel value reads as (CU_TRSF_SRGB), as the
/// H200's table gives it: bfloat16 values (the upper half of a float's
/// bits), measured for all 256 values (tests/textures, srgb cases). They
/// are close to the sRGB curve but not its rounding: the linear segment's
/// slope is 1/3276.8, not 1/(12.92 * 255).
constexpr uint16_t SrgbToLinear[256] = {
    0x0000, 0x39a0, 0x3a20, 0x3a70, 0x3aa0, 0x3ac8, 0x3af0, 0x3b0c, 0x3b20,
    0x3b34, 0x3b48, 0x3b5c, 0x3b70, 0x3b84, 0x3b90, 0x3b9c, 0x3baa, 0x3bb8,
    0x3bc6, 0x3bd6, 0x3be6, 0x3bf6, 0x3c03, 0x3c0c, 0x3c16, 0x3c1f, 0x3c29,
    0x3c34, 0x3c3e, 0x3c49, 0x3c55, 0x3c60, 0x3c6c, 0x3c7a, 0x3c83, 0x3c8a,
    0x3c91, 0x3c98, 0x3c9f, 0x3ca6, 0x3cae, 0x3cb6, 0x3cbe, 0x3cc6, 0x3cce,
    0x3cd7, 0x3ce0, 0x3ce9, 0x3cf2, 0x3cfc, 0x3d03, 0x3d08, 0x3d0d, 0x3d12,
    0x3d17, 0x3d1c, 0x3d22, 0x3d28, 0x3d2d, 0x3d33, 0x3d39, 0x3d3f, 0x3d45,
    0x3d4c, 0x3d52, 0x3d58, 0x3d60, 0x3d66, 0x3d6c, 0x3d74, 0x3d7a, 0x3d81,
    0x3d85, 0x3d88, 0x3d8c, 0x3d90, 0x3d94, 0x3d98, 0x3d9c, 0x3da0, 0x3da4,
    0x3da9, 0x3dad, 0x3db1, 0x3db6, 0x3dba, 0x3dbf, 0x3dc3, 0x3dc8, 0x3dcd,
    0x3dd1, 0x3dd6, 0x3ddb, 0x3de0, 0x3de5, 0x3dea, 0x3df0, 0x3df4, 0x3dfa,
    0x3e00, 0x3e02, 0x3e05, 0x3e08, 0x3e0b, 0x3e0e, 0x3e11, 0x3e14, 0x3e17,
    0x3e1a, 0x3e1d, 0x3e20, 0x3e23, 0x3e26, 0x3e29, 0x3e2c, 0x3e30, 0x3e33,
    0x3e36, 0x3e3a, 0x3e3d, 0x3e40, 0x3e44, 0x3e47, 0x3e4b, 0x3e4e, 0x3e52,
    0x3e56, 0x3e59, 0x3e5d, 0x3e61, 0x3e65, 0x3e68, 0x3e6c, 0x3e70, 0x3e74,
    0x3e78, 0x3e7c, 0x3e80, 0x3e82, 0x3e84, 0x3e86, 0x3e88, 0x3e8a, 0x3e8d,
    0x3e8f, 0x3e91, 0x3e93, 0x3e95, 0x3e98, 0x3e9a, 0x3e9c, 0x3e9e, 0x3ea1,
    0x3ea3, 0x3ea5, 0x3ea8, 0x3eaa, 0x3ead, 0x3eaf, 0x3eb2, 0x3eb4, 0x3eb6,
    0x3eb9, 0x3ebc, 0x3ebe, 0x3ec1, 0x3ec3, 0x3ec6, 0x3ec8, 0x3ecb, 0x3ece,
    0x3ed1, 0x3ed3, 0x3ed6, 0x3ed9, 0x3edb, 0x3ede, 0x3ee1, 0x3ee4, 0x3ee7,
    0x3eea, 0x3eed, 0x3ef0, 0x3ef2, 0x3ef6, 0x3ef8, 0x3efc, 0x3efe, 0x3f01,
    0x3f02, 0x3f04, 0x3f05, 0x3f07, 0x3f09, 0x3f0a, 0x3f0c, 0x3f0d, 0x3f0f,
    0x3f11, 0x3f12, 0x3f14, 0x3f16, 0x3f17, 0x3f19, 0x3f1b, 0x3f1c, 0x3f1e,
    0x3f20, 0x3f21, 0x3f23, 0x3f25, 0x3f27, 0x3f29, 0x3f2a, 0x3f2c, 0x3f2e,
    0x3f30, 0x3f32, 0x3f33, 0x3f35, 0x3f37, 0x3f39, 0x3f3b, 0x3f3d, 0x3f3f,
    0x3f41, 0x3f43, 0x3f45, 0x3f47, 0x3f49, 0x3f4b, 0x3f4d, 0x3f4f, 0x3f51,
    0x3f53, 0x3f55, 0x3f57, 0x3f59, 0x3f5b, 0x3f5d, 0x3f5f, 0x3f61, 0x3f63,
    0x3f65, 0x3f68, 0x3f6a, 0x3f6c, 0x3f6e, 0x3f70, 0x3f72, 0x3f74, 0x3f76,
    0x3f7a, 0x3f7c, 0x3f7e, 0x3f80,
};

float srgbToLinear(uint32_t Byte) {
  uint32_t Bits = uint32_t(SrgbToLinear[Byte & 0xff]) << 16;
  float F;
  std::memcpy(&F, &Bits, 4);
  return F;
}

/// The texel of an integer-read or raw texture as four 32-bit words, or of
/// a filtered one as four values in its own units (integers for 8- and
/// 16-bit formats, floats otherwise).
struct Texel {
  long double V[4] = {0, 0, 0, 0};
  uint32_t W[4] = {0, 0, 0, 0};
};

/// A fetch's result before its final rounding: a point-sampled texel, or a
/// filtered sum in texel units.
struct Sample {
  bool Filtered = false;
  Texel Point;
  long double Sum[4] = {0, 0, 0, 0};
};

class Sampler {
public:
  explicit Sampler(const CucpuTexture &T)
      : T(T), Step(cucpuFormatChannelBytes(T.Format)), Bytes(Step * T.Channels),
        Integers(
            !isFloatFormat(T.Format) &&
            ((T.Flags & CU_TRSF_READ_AS_INTEGER) || is32BitInteger(T.Format))),
        Srgb((T.Flags & CU_TRSF_SRGB) && !Integers &&
             T.Format == CU_AD_FORMAT_UNSIGNED_INT8) {}

  /// Point or linear fetch at Dims coordinates.
  void fetch(unsigned Dims, const float *Coord, uint32_t *Out) const {
    finish(sample(Dims, Coord), Out);
  }
  /// The fetch at Dims coordinates before rounding. A 1D texture is
  /// filtered as a row of a 2D one, unless \p OneRow (a layer of a layered
  /// 1D texture, filtered along x alone).
  /// \p Total is the filter weight (in 1/256) the sample gets: less than
  /// 256 for a level of a trilinear fetch.
  Sample sample(unsigned Dims, const float *Coord, bool OneRow = false,
                int Total = 256) const;
  /// Writes a sample's four words, rounded as the read mode says.
  void finish(const Sample &S, uint32_t *Out) const {
    if (S.Filtered)
      finishFiltered(S.Sum, Out);
    else
      finishPoint(S.Point, Out);
  }
  /// Whether fetches return integers (no filtering).
  bool integers() const { return Integers; }
  /// tex2Dgather: channel \p Component of the four texels a linear fetch
  /// at \p Coord would read.
  void gather(const float *Coord, unsigned Component, uint32_t *Out) const;
  /// tex1Dfetch: texel \p X of linear memory.
  void fetchIndex(int64_t X, uint32_t *Out) const {
    if (X < 0 || uint64_t(X) >= T.Width)
      return;
    finishPoint(texelAt(X, 0, 0), Out);
  }

private:
  /// Texel (X, Y, Z), inside the texture.
  Texel texelAt(int64_t X, int64_t Y, int64_t Z) const {
    Texel R;
    const char *P = T.Data + uint64_t(Z) * T.SlicePitch +
                    uint64_t(Y) * T.RowPitch + uint64_t(X) * Bytes;
    loadTexel(P, Step, T.Channels, R.W);
    for (unsigned C = 0; C < T.Channels && C < 4; ++C)
      R.V[C] = srgbChannel(C) ? srgbToLinear(R.W[C]) : channel(R.W[C]);
    return R;
  }

  /// One channel in texel units; \p Word is its raw bits, which become
  /// the 32-bit word an integer read returns.
  long double channel(uint32_t &Word) const {
    switch (T.Format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_UNSIGNED_INT16:
      return Word;
    case CU_AD_FORMAT_SIGNED_INT8: {
      auto V = int8_t(Word);
      Word = uint32_t(int32_t(V));
      return V;
    }
    case CU_AD_FORMAT_SIGNED_INT16: {
      auto V = int16_t(Word);
      Word = uint32_t(int32_t(V));
      return V;
    }
    case CU_AD_FORMAT_HALF: {
      float F = halfToFloat(uint16_t(Word));
      Word = floatBits(F);
      return F;
    }
    default: { // 32-bit formats.
      float F;
      std::memcpy(&F, &Word, 4);
      return F;
    }
    }
  }

  /// The border color as a texel of this format.
  Texel border() const {
    Texel R;
    for (unsigned C = 0; C < T.Channels && C < 4; ++C) {
      long double B = T.BorderColor[C];
      if (is32BitInteger(T.Format)) {
        R.W[C] = floatBits(T.BorderColor[C]);
        continue;
      }
      if (Integers)
        continue; // Integer reads of 8- and 16-bit texels see 0.
      switch (T.Format) {
      case CU_AD_FORMAT_UNSIGNED_INT8:
        R.V[C] = std::clamp(std::floor(B * 255 + 0.5L), 0.0L, 255.0L);
        if (srgbChannel(C))
          R.V[C] = srgbToLinear(uint32_t(R.V[C]));
        break;
      case CU_AD_FORMAT_UNSIGNED_INT16:
        R.V[C] = std::clamp(std::floor(B * 65535 + 0.5L), 0.0L, 65535.0L);
        break;
      case CU_AD_FORMAT_SIGNED_INT8:
        R.V[C] = std::clamp(std::floor(B * 127 + 0.5L), -127.0L, 127.0L);
        break;
      case CU_AD_FORMAT_SIGNED_INT16:
        R.V[C] = std::clamp(std::floor(B * 32767 + 0.5L), -32767.0L, 32767.0L);
        break;
      case CU_AD_FORMAT_HALF:
        R.V[C] = roundTiesAway(B, 11, -14);
        break;
      default:
        R.V[C] = B;
      }
    }
    return R;
  }

  /// The address mode of dimension \p Dim as the hardware applies it:
  /// wrap and mirror need normalized coordinates, else they clamp.
  uint32_t addressMode(unsigned Dim) const {
    uint32_t Mode = T.AddressMode[Dim];
    bool Normalized = T.Flags & CU_TRSF_NORMALIZED_COORDINATES;
    if (!Normalized &&
        (Mode == CU_TR_ADDRESS_MODE_WRAP || Mode == CU_TR_ADDRESS_MODE_MIRROR))
      return CU_TR_ADDRESS_MODE_CLAMP;
    return Mode;
  }

public:
  /// Whether dimension \p Dim clamps.
  bool clamps(unsigned Dim) const {
    uint32_t Mode = addressMode(Dim);
    return Mode != CU_TR_ADDRESS_MODE_WRAP &&
           Mode != CU_TR_ADDRESS_MODE_MIRROR &&
           Mode != CU_TR_ADDRESS_MODE_BORDER;
  }

private:
  /// Maps texel index \p I of a dimension of \p N texels; false outside
  /// in border mode.
  bool address(int64_t &I, uint64_t N, unsigned Dim) const {
    int64_t Size = int64_t(N);
    if (I >= 0 && I < Size)
      return true;
    switch (addressMode(Dim)) {
    case CU_TR_ADDRESS_MODE_WRAP:
      I %= Size;
      if (I < 0)
        I += Size;
      return true;
    case CU_TR_ADDRESS_MODE_MIRROR: {
      int64_t Period = 2 * Size, M = I % Period;
      if (M < 0)
        M += Period;
      I = M < Size ? M : Period - 1 - M;
      return true;
    }
    case CU_TR_ADDRESS_MODE_BORDER:
      return false;
    default:
      I = std::clamp<int64_t>(I, 0, Size - 1);
      return true;
    }
  }

  /// The texel at integer coordinates before addressing (border if out).
  Texel texel(int64_t X, int64_t Y, int64_t Z) const {
    if (!address(X, T.Width, 0) || !address(Y, T.Height, 1) ||
        !address(Z, T.Depth, 2))
      return border();
    return texelAt(X, Y, Z);
  }

  /// Writes a point-sampled texel converted as the read mode says.
  void finishPoint(const Texel &V, uint32_t *Out) const {
    for (unsigned C = 0; C < 4; ++C) {
      if (C >= T.Channels) {
        Out[C] = 0;
        continue;
      }
      if (Integers) {
        Out[C] = V.W[C];
        continue;
      }
      float F;
      switch (srgbChannel(C) ? uint32_t(CU_AD_FORMAT_FLOAT) : T.Format) {
      case CU_AD_FORMAT_UNSIGNED_INT8:
        F = float(V.V[C]) / 255.0f;
        break;
      case CU_AD_FORMAT_UNSIGNED_INT16:
        F = float(V.V[C]) / 65535.0f;
        break;
      case CU_AD_FORMAT_SIGNED_INT8:
        F = std::max(float(V.V[C]) / 127.0f, -1.0f);
        break;
      case CU_AD_FORMAT_SIGNED_INT16:
        F = std::max(float(V.V[C]) / 32767.0f, -1.0f);
        break;
      default:
        F = float(V.V[C]);
      }
      Out[C] = floatBits(F);
    }
  }

  /// Writes a filtered sum (texel units) rounded to the filter's precision.
  void finishFiltered(const long double *Sum, uint32_t *Out) const {
    for (unsigned C = 0; C < 4; ++C) {
      float F = 0;
      if (C < T.Channels) {
        switch (srgbChannel(C) ? uint32_t(CU_AD_FORMAT_HALF) : T.Format) {
        case CU_AD_FORMAT_UNSIGNED_INT8:
          F = quantize16(Sum[C], 255, false);
          break;
        case CU_AD_FORMAT_UNSIGNED_INT16:
          F = quantize16(Sum[C], 65535, false);
          break;
        case CU_AD_FORMAT_SIGNED_INT8:
          F = signedByteTo16(Sum[C]);
          break;
        case CU_AD_FORMAT_SIGNED_INT16:
          F = quantize16(Sum[C], 32767, true);
          break;
        case CU_AD_FORMAT_HALF:
          F = float(roundTiesAway(Sum[C], 11, -14));
          break;
        default:
          F = float(roundTiesAway(Sum[C], 24, -126));
        }
      }
      Out[C] = floatBits(F);
    }
  }

  const CucpuTexture &T;
  unsigned Step;  ///< Bytes of one channel.
  unsigned Bytes; ///< Bytes of one texel.
  bool Integers;  ///< Fetches return integer words.
  bool Srgb;      ///< The first three channels are sRGB-encoded.

  /// Whether channel \p C reads through the sRGB table.
  bool srgbChannel(unsigned C) const { return Srgb && C < 3; }
};

/// floor(V) as an index for any float (NaN reads texel 0).
int64_t floorIndex(double V) {
  if (!(V == V))
    return 0;
  return int64_t(std::floor(std::clamp(V, -1.0e15, 1.0e15)));
}

/// A coordinate in texels: normalized ones keep 24 fractional bits.
double texelCoordinate(float V, uint64_t Size, bool Normalized) {
  if (!Normalized)
    return V;
  double Fixed = std::floor(double(V) * 16777216.0) / 16777216.0;
  return Fixed * double(Size);
}

/// The footprint of linear filtering along an axis at texel coordinate
/// \p X: the first texel, \p Base, and the weight of the second, the
/// fraction of X - 0.5 rounded to 8 bits (0 to 256; NaN reads 0).
void footprint(double X, int64_t &Base, int &Fraction) {
  float Below = float(X - 0.5);
  Base = floorIndex(Below);
  double Frac = double(Below) - std::floor(double(Below));
  if (!(Frac == Frac))
    Frac = 0;
  Fraction = int(std::floor(Frac * 256.0 + 0.5));
}

/// The weights (in 1/256) of the 8 corners of a 3D footprint whose
/// fractions are A, B, C (corner bit 0: x + 1, bit 1: y + 1, bit 2: z + 1),
/// splitting \p Total: 256, or a level's share of a trilinear fetch, which
/// splits 256 between two levels first. Within a share the z split rounds
/// half down (for 256 it has no ties).
void filterWeights(int Total, int A, int B, int C, int *W) {
  auto HalfUp = [](int N) { return (2 * N + 256) / 512; };
  auto HalfDown = [](int N) { return (2 * N + 255) / 512; };
  int ZUp = HalfDown(Total * C);
  for (int Z = 0; Z < 2; ++Z) {
    int Plane = Z ? ZUp : Total - ZUp;
    int XUp = HalfUp(Plane * A);
    for (int X = 0; X < 2; ++X) {
      int Column = X ? XUp : Plane - XUp;
      int YUp = X ? HalfUp(Column * B) : HalfDown(Column * B);
      W[Z * 4 + X] = Column - YUp;
      W[Z * 4 + 2 + X] = YUp;
    }
  }
}

Sample Sampler::sample(unsigned Dims, const float *Coord, bool OneRow,
                       int Total) const {
  bool Normalized = T.Flags & CU_TRSF_NORMALIZED_COORDINATES;
  const uint64_t Sizes[3] = {T.Width, T.Height, T.Depth};
  double X[3] = {0, 0, 0};
  for (unsigned D = 0; D < Dims; ++D)
    X[D] = texelCoordinate(Coord[D], Sizes[D], Normalized);
  Sample Result;
  if (T.FilterMode != CU_TR_FILTER_MODE_LINEAR || Integers) {
    Result.Point = texel(floorIndex(X[0]), floorIndex(X[1]), floorIndex(X[2]));
    if (Total != 256 && !Integers) {
      Result.Filtered = true;
      for (int C = 0; C < 4; ++C)
        Result.Sum[C] = Result.Point.V[C] * Total / 256;
    }
    return Result;
  }
  // A 1D texture is filtered as one row at y = 0: its footprint spans rows
  // -1 and 0 with equal weights.
  unsigned FilterDims = OneRow ? 1 : std::max(Dims, 2u);
  int64_t Base[3] = {0, 0, 0};
  int Fraction[3] = {0, 0, 0};
  for (unsigned D = 0; D < FilterDims; ++D) {
    // Clamping keeps the footprint's centre inside the texture.
    if (clamps(D))
      X[D] = std::clamp(X[D], 0.5, double(Sizes[D]) - 0.5);
    footprint(X[D], Base[D], Fraction[D]);
  }
  int W[8];
  filterWeights(Total, Fraction[0], Fraction[1], Fraction[2], W);
  Result.Filtered = true;
  long double *Sum = Result.Sum;
  unsigned Corners = FilterDims == 3 ? 8 : 4;
  for (unsigned Corner = 0; Corner < Corners; ++Corner) {
    if (W[Corner] == 0)
      continue;
    Texel V = texel(Base[0] + (Corner & 1), Base[1] + ((Corner >> 1) & 1),
                    Base[2] + ((Corner >> 2) & 1));
    for (int C = 0; C < 4; ++C)
      Sum[C] += V.V[C] * W[Corner];
  }
  for (int C = 0; C < 4; ++C)
    Sum[C] /= 256;
  return Result;
}

void Sampler::gather(const float *Coord, unsigned Component,
                     uint32_t *Out) const {
  bool Normalized = T.Flags & CU_TRSF_NORMALIZED_COORDINATES;
  const uint64_t Sizes[2] = {T.Width, T.Height};
  int64_t Base[2];
  for (unsigned D = 0; D < 2; ++D) {
    // A fraction that rounds up to 1 moves the footprint on.
    int Fraction;
    footprint(texelCoordinate(Coord[D], Sizes[D], Normalized), Base[D],
              Fraction);
    if (Fraction == 256)
      ++Base[D];
  }
  // The footprint's texels in the order NVIDIA returns them: (x, y + 1),
  // (x + 1, y + 1), (x + 1, y), (x, y).
  const int Offsets[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
  for (unsigned I = 0; I < 4; ++I) {
    Texel V = texel(Base[0] + Offsets[I][0], Base[1] + Offsets[I][1], 0);
    // Texels read as floats are rounded as filtered values are.
    uint32_t Words[4];
    if (Integers)
      finishPoint(V, Words);
    else
      finishFiltered(V.V, Words);
    Out[I] = Component < T.Channels ? Words[Component] : 0;
  }
}

bool readable(const CucpuTexture &T) {
  return T.Kind != CucpuTextureUnbound && T.Data &&
         cucpuFormatChannelBytes(T.Format) != 0 && T.Channels != 0 &&
         T.Width != 0 && T.Height != 0 && T.Depth != 0;
}

/// The description a fetch through \p Handle reads, or null for one that
/// reads zeros. Handle 0 reads zeros, as on NVIDIA; any other value that is
/// not a texture the driver made fails the launch (NVIDIA returns zeros for
/// some such values and faults for others).
const CucpuTexture *describe(uint64_t Handle) {
  if (Handle == 0)
    return nullptr;
  const CucpuTexture *T = checkedDescription(Handle);
  if (!T) {
    char Message[128];
    std::snprintf(Message, sizeof(Message),
                  "The kernel fetched through texture handle %#llx, which is "
                  "no texture object or reference.",
                  static_cast<unsigned long long>(Handle));
    cucpu::modules::failKernel(CUDA_ERROR_ILLEGAL_ADDRESS, Message);
  }
  return readable(*T) ? T : nullptr;
}

/// A view of texture \p T reading slice \p Slice (a layer or cubemap face)
/// of \p Level, or all of it for \p Slice -1.
CucpuTexture view(const CucpuTexture &T, const CucpuTexture &Level,
                  int64_t Slice) {
  CucpuTexture V = T;
  V.Data = Level.Data;
  V.Width = Level.Width;
  V.Height = Level.Height;
  V.Depth = Level.Depth;
  V.RowPitch = Level.RowPitch;
  V.SlicePitch = Level.SlicePitch;
  if (Slice >= 0) {
    V.Data += uint64_t(Slice) * Level.SlicePitch;
    V.Depth = 1;
  }
  return V;
}

/// \p V in units of 1/256 (the precision of levels of detail), rounded
/// down; NaN is 0.
double levelUnits(float V) {
  if (!(V == V))
    return 0;
  return std::floor(double(std::clamp(V, -1.0e6f, 1.0e6f)) * 256.0) / 256.0;
}

/// The level of detail a fetch reads: \p Level plus the texture's bias,
/// each in 1/256 units, within the texture's clamps and its levels.
double levelOfDetail(const CucpuTexture &T, float Level) {
  double L = levelUnits(Level) + levelUnits(T.MipmapLevelBias);
  L = std::clamp(L, double(T.MinMipmapLevelClamp),
                 double(T.MaxMipmapLevelClamp));
  return std::clamp(L, 0.0, double(T.LevelCount ? T.LevelCount - 1 : 0));
}

/// log2 of the longer gradient, in texels of level 0: the level of detail of
/// a tex*Grad fetch. This is the H200's answer for gradients along the axes
/// of 2D and 3D textures; 1D textures, other directions and anisotropic
/// filtering read levels near NVIDIA's but not always the same
/// (docs/textures.md).
float gradientLevel(const CucpuTexture &T, unsigned Dims,
                    const float (*Gradient)[3]) {
  const double Sizes[3] = {double(T.Width), double(T.Height), double(T.Depth)};
  double Longest = 0;
  if (Dims == 1) {
    // 1D: both gradients count, the shorter with 0.3765 of its length, so
    // equal gradients read 118/256 of a level above either (the H200's
    // answer for equal gradients; other ratios are not measured).
    double A = std::fabs(double(Gradient[0][0]) * Sizes[0]);
    double B = std::fabs(double(Gradient[1][0]) * Sizes[0]);
    double Length = std::max(A, B) + 0.37648 * std::min(A, B);
    Longest = Length * Length;
  }
  for (int G = 0; Dims > 1 && G < 2; ++G) {
    double Squares = 0;
    for (unsigned D = 0; D < Dims; ++D) {
      double V = double(Gradient[G][D]) * Sizes[D];
      Squares += V * V;
    }
    Longest = std::max(Longest, Squares);
  }
  if (!(Longest > 0))
    return -1.0e6f;
  // The hardware's logarithm carries about 22 fractional bits: a length
  // whose exact logarithm lies within 2^-23 below a multiple of 1/256
  // reaches that multiple.
  double Log = std::ldexp(
      std::floor(std::ldexp(0.5 * std::log2(Longest), 22) + 0.5), -22);
  return float(Log);
}

/// A cubemap face and the coordinates on it, normalized to [0, 1].
struct FacePoint {
  unsigned Face;
  float S, T;
};

/// Whether \p A is a cubemap's major axis against \p B and \p C: A is a
/// number at least as large as each of them (a NaN rival does not count).
bool majorOver(float A, float B, float C) {
  return A == A && !(A < B) && !(A < C);
}

/// The face direction (X, Y, Z) points at and the point on it (the seeds'
/// cubemap table), as NVIDIA's hardware chooses them: the major axis is the
/// largest magnitude, z before y before x on ties; a direction with an
/// infinite component is first divided by it (so infinities become NaN and
/// finite components 0); a NaN face coordinate reads the face's centre.
FacePoint cubemapFace(float X, float Y, float Z) {
  float V[3] = {X, Y, Z};
  float Largest = 0;
  for (float C : V)
    if (std::fabs(C) > Largest)
      Largest = std::fabs(C);
  if (std::isinf(Largest))
    for (float &C : V)
      C = std::isinf(C) ? NAN : std::copysign(0.0f, C);
  float AX = std::fabs(V[0]), AY = std::fabs(V[1]), AZ = std::fabs(V[2]);
  float Major, Sc, Tc;
  unsigned Face;
  if (majorOver(AZ, AX, AY)) {
    Face = std::signbit(V[2]) ? 5 : 4;
    Major = AZ;
    Sc = std::signbit(V[2]) ? -V[0] : V[0];
    Tc = -V[1];
  } else if (majorOver(AY, AX, AX)) {
    Face = std::signbit(V[1]) ? 3 : 2;
    Major = AY;
    Sc = V[0];
    Tc = std::signbit(V[1]) ? -V[2] : V[2];
  } else {
    Face = std::signbit(V[0]) ? 1 : 0;
    Major = AX;
    Sc = std::signbit(V[0]) ? V[2] : -V[2];
    Tc = -V[1];
  }
  auto Coordinate = [&](float C) {
    float Ratio = C / Major;
    if (!(Ratio == Ratio))
      Ratio = 0;
    return (Ratio + 1.0f) * 0.5f;
  };
  return {Face, Coordinate(Sc), Coordinate(Tc)};
}

/// The layer a fetch reads: \p Layer as an unsigned number, clamped to the
/// last of \p Layers (a negative layer reads the last).
int64_t layerIndex(int32_t Layer, uint64_t Layers) {
  return int64_t(std::min<uint64_t>(uint32_t(Layer), Layers - 1));
}

/// The sample of one level of \p T for fetch \p F of type \p Type.
Sample sampleLevel(const CucpuTexture &T, const CucpuTexture &Level,
                   uint32_t Type, const CucpuFetch &F, int Total = 256) {
  switch (Type) {
  case CucpuShape1DLayered:
  case CucpuShape2DLayered: {
    int64_t Layer = layerIndex(F.Layer, Level.Depth);
    CucpuTexture V = view(T, Level, Layer);
    bool OneD = Type == CucpuShape1DLayered;
    return Sampler(V).sample(OneD ? 1 : 2, F.Coord, OneD, Total);
  }
  case CucpuShapeCubemap:
  case CucpuShapeCubemapLayered: {
    FacePoint P = cubemapFace(F.Coord[0], F.Coord[1], F.Coord[2]);
    int64_t Cube = Type == CucpuShapeCubemapLayered
                       ? layerIndex(F.Layer, Level.Depth / 6)
                       : 0;
    CucpuTexture V = view(T, Level, Cube * 6 + P.Face);
    V.Flags |= CU_TRSF_NORMALIZED_COORDINATES;
    const float Coord[2] = {P.S, P.T};
    return Sampler(V).sample(2, Coord, false, Total);
  }
  default: {
    unsigned Dims = Type == CucpuShape3D ? 3 : Type == CucpuShape2D ? 2 : 1;
    return Sampler(view(T, Level, -1)).sample(Dims, F.Coord, false, Total);
  }
  }
}

/// The number of coordinates of a texture type's level of detail.
unsigned gradientDims(uint32_t Type) {
  switch (Type) {
  case CucpuShape1D:
  case CucpuShape1DLayered:
    return 1;
  case CucpuShape3D:
  case CucpuShapeCubemap:
  case CucpuShapeCubemapLayered:
    return 3;
  default:
    return 2;
  }
}

/// Integer texels of two levels blended with \p Upper/256 of the upper one,
/// rounded half up.
Sample blendIntegers(uint32_t Format, const Sample &Near, const Sample &Far,
                     int Upper) {
  bool Signed = Format == CU_AD_FORMAT_SIGNED_INT8 ||
                Format == CU_AD_FORMAT_SIGNED_INT16 ||
                Format == CU_AD_FORMAT_SIGNED_INT32;
  Sample R = Near;
  for (int C = 0; C < 4; ++C) {
    int64_t A = Signed ? int64_t(int32_t(Near.Point.W[C])) : Near.Point.W[C];
    int64_t B = Signed ? int64_t(int32_t(Far.Point.W[C])) : Far.Point.W[C];
    int64_t Sum = A * (256 - Upper) + B * Upper + 128;
    R.Point.W[C] = uint32_t(Sum >= 0 ? Sum / 256 : -((-Sum + 255) / 256));
  }
  return R;
}

void sampleForm(const CucpuTexture &T, const CucpuFetch &F, uint32_t *Out) {
  uint32_t Type = F.Form & 0xff, Op = (F.Form >> 8) & 0xff;
  if (Op == CucpuFetchGather) {
    Sampler(T).gather(F.Coord, (F.Form >> 16) & 3, Out);
    return;
  }
  if (T.LevelCount == 0 || Op == CucpuFetchSample) {
    // No mipmaps, or a fetch without a level of detail: the first level.
    Sampler(T).finish(sampleLevel(T, T, Type, F), Out);
    return;
  }
  float Level = 0;
  if (Op == CucpuFetchLevel)
    Level = F.Level;
  else if (Op == CucpuFetchGradient)
    Level = gradientLevel(T.Levels[0], gradientDims(Type), F.Gradient);
  double Lod = levelOfDetail(T, Level);
  Sampler Reader(T);
  if (T.MipmapFilterMode != CU_TR_FILTER_MODE_LINEAR) {
    auto L = unsigned(std::floor(Lod + 0.5));
    Reader.finish(sampleLevel(T, T.Levels[L], Type, F), Out);
    return;
  }
  auto Lower = unsigned(std::floor(Lod));
  // The share of the upper level, in 1/256.
  int Upper = int((Lod - Lower) * 256);
  bool Optimized = T.MaxAnisotropy > 1 &&
                   !(T.Flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION);
  if (Optimized)
    Upper = std::clamp(2 * Upper - 128, 0, 256);
  if (Upper == 0 || Lower + 1 >= T.LevelCount) {
    Reader.finish(sampleLevel(T, T.Levels[Lower], Type, F), Out);
    return;
  }
  if (Upper == 256) {
    Reader.finish(sampleLevel(T, T.Levels[Lower + 1], Type, F), Out);
    return;
  }
  // Two levels as two planes of one filter: their shares split first,
  // each level's texels then split its share.
  Sample Near = sampleLevel(T, T.Levels[Lower], Type, F, 256 - Upper);
  Sample Far = sampleLevel(T, T.Levels[Lower + 1], Type, F, Upper);
  if (Reader.integers()) {
    Reader.finish(blendIntegers(T.Format, Near, Far, Upper), Out);
    return;
  }
  for (int C = 0; C < 4; ++C)
    Near.Sum[C] += Far.Sum[C];
  Reader.finish(Near, Out);
}

} // namespace

extern "C" {
void __cucpu_tex_fetch(uint64_t Handle, uint32_t Dims, float X, float Y,
                       float Z, uint32_t *Out) {
  std::memset(Out, 0, 16);
  const CucpuTexture *T = describe(Handle);
  if (!T || Dims < 1 || Dims > 3)
    return;
  // A mipmapped texture reads its first level (whatever its bias: the
  // H200's answer), which T describes.
  const float Coord[3] = {X, Y, Z};
  Sampler(*T).fetch(Dims, Coord, Out);
}

void __cucpu_tex_fetch_index(uint64_t Handle, int32_t X, uint32_t *Out) {
  std::memset(Out, 0, 16);
  if (const CucpuTexture *T = describe(Handle))
    Sampler(*T).fetchIndex(X, Out);
}

void __cucpu_tex_sample(uint64_t Handle, const CucpuFetch *Fetch,
                        uint32_t *Out) {
  std::memset(Out, 0, 16);
  if (const CucpuTexture *T = describe(Handle))
    sampleForm(*T, *Fetch, Out);
}
}

void cucpu::modules::addTextureSampler(llvm::StringMap<void *> &Map) {
  CUCPU_RT_ADD(Map, __cucpu_tex_fetch);
  CUCPU_RT_ADD(Map, __cucpu_tex_fetch_index);
  CUCPU_RT_ADD(Map, __cucpu_tex_sample);
}
