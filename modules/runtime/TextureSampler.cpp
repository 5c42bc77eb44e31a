//===- TextureSampler.cpp - Texture fetches as NVIDIA's hardware does them ===//
//
// Programming Guide Appendix F: a coordinate is scaled when normalized,
// mapped into the texture by the address mode of its dimension, then either
// the nearest texel is read (point) or the 2, 4 or 8 nearest are blended
// (linear) with weights kept in 9-bit fixed point, 8 bits of fraction, as
// the hardware keeps them. Integer texels are read as integers with
// CU_TRSF_READ_AS_INTEGER, else as floats in [0, 1] (unsigned) or [-1, 1]
// (signed); 32-bit integers are always read as integers; half texels become
// floats before filtering.
//
//===----------------------------------------------------------------------===//
#include "RuntimeLibrary.h"

#include "TextureAbi.h"

#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace {

unsigned channelBytes(uint32_t Format) {
  switch (Format) {
  case CU_AD_FORMAT_UNSIGNED_INT8:
  case CU_AD_FORMAT_SIGNED_INT8:
    return 1;
  case CU_AD_FORMAT_UNSIGNED_INT16:
  case CU_AD_FORMAT_SIGNED_INT16:
  case CU_AD_FORMAT_HALF:
    return 2;
  case CU_AD_FORMAT_UNSIGNED_INT32:
  case CU_AD_FORMAT_SIGNED_INT32:
  case CU_AD_FORMAT_FLOAT:
    return 4;
  default:
    return 0;
  }
}

bool isIntegerFormat(uint32_t Format) {
  return Format != CU_AD_FORMAT_HALF && Format != CU_AD_FORMAT_FLOAT;
}

/// Whether fetches of \p T return integers rather than floats.
bool returnsIntegers(const CucpuTexture &T) {
  if (!isIntegerFormat(T.Format))
    return false;
  return (T.Flags & CU_TRSF_READ_AS_INTEGER) || channelBytes(T.Format) == 4;
}

float halfToFloat(uint16_t H) {
  uint32_t Sign = uint32_t(H >> 15) << 31;
  uint32_t Exponent = (H >> 10) & 0x1f, Mantissa = H & 0x3ff;
  uint32_t Bits;
  if (Exponent == 0x1f) {
    Bits = Sign | 0x7f800000u | (Mantissa << 13);
  } else if (Exponent != 0) {
    Bits = Sign | ((Exponent + 112) << 23) | (Mantissa << 13);
  } else if (Mantissa == 0) {
    Bits = Sign;
  } else { // Subnormal: value = Mantissa * 2^-24.
    float V = std::ldexp(float(Mantissa), -24);
    return Sign ? -V : V;
  }
  float F;
  std::memcpy(&F, &Bits, sizeof(F));
  return F;
}

template <typename T> T load(const char *P) {
  T V;
  std::memcpy(&V, P, sizeof(V));
  return V;
}

/// Channel \p P as the 32-bit integer word an integer fetch returns.
uint32_t integerChannel(const char *P, uint32_t Format) {
  switch (Format) {
  case CU_AD_FORMAT_UNSIGNED_INT8:
    return load<uint8_t>(P);
  case CU_AD_FORMAT_SIGNED_INT8:
    return uint32_t(int32_t(load<int8_t>(P)));
  case CU_AD_FORMAT_UNSIGNED_INT16:
    return load<uint16_t>(P);
  case CU_AD_FORMAT_SIGNED_INT16:
    return uint32_t(int32_t(load<int16_t>(P)));
  case CU_AD_FORMAT_UNSIGNED_INT32:
  case CU_AD_FORMAT_SIGNED_INT32:
    return load<uint32_t>(P);
  default:
    return 0;
  }
}

/// Channel \p P as a float: normalized for 8- and 16-bit integers.
float floatChannel(const char *P, uint32_t Format) {
  switch (Format) {
  case CU_AD_FORMAT_UNSIGNED_INT8:
    return float(load<uint8_t>(P)) / 255.0f;
  case CU_AD_FORMAT_SIGNED_INT8:
    return std::max(float(load<int8_t>(P)) / 127.0f, -1.0f);
  case CU_AD_FORMAT_UNSIGNED_INT16:
    return float(load<uint16_t>(P)) / 65535.0f;
  case CU_AD_FORMAT_SIGNED_INT16:
    return std::max(float(load<int16_t>(P)) / 32767.0f, -1.0f);
  case CU_AD_FORMAT_HALF:
    return halfToFloat(load<uint16_t>(P));
  case CU_AD_FORMAT_FLOAT:
    return load<float>(P);
  default:
    return 0.0f;
  }
}

/// A texel's channels (up to 4), as floats or as integer words.
struct Texel {
  float F[4] = {0, 0, 0, 0};
  uint32_t I[4] = {0, 0, 0, 0};
};

/// Maps texel index \p I of a dimension of \p N texels by \p Mode; false
/// when it lies outside in border mode.
bool addressIndex(int64_t &I, uint64_t N, uint32_t Mode) {
  int64_t Size = int64_t(N);
  if (I >= 0 && I < Size)
    return true;
  switch (Mode) {
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
  default: // Clamp.
    I = std::clamp<int64_t>(I, 0, Size - 1);
    return true;
  }
}

/// floor(V) as an integer, for any float: far-out and NaN coordinates
/// land outside every texture (NaN at 0).
int64_t floorIndex(float V) {
  if (!(V == V))
    return 0;
  return int64_t(std::floor(std::clamp(V, -1.0e12f, 1.0e12f)));
}

class Sampler {
public:
  explicit Sampler(const CucpuTexture &T)
      : T(T), Bytes(channelBytes(T.Format) * T.Channels),
        Integers(returnsIntegers(T)) {}

  /// The texel at integer coordinates (before addressing).
  Texel texel(int64_t X, int64_t Y, int64_t Z, unsigned Dims) const {
    Texel Out;
    bool Inside = addressIndex(X, T.Width, T.AddressMode[0]);
    if (Dims >= 2)
      Inside &= addressIndex(Y, T.Height, T.AddressMode[1]);
    else
      Y = 0;
    if (Dims >= 3)
      Inside &= addressIndex(Z, T.Depth, T.AddressMode[2]);
    else
      Z = 0;
    if (!Inside) {
      for (int C = 0; C < 4; ++C) {
        Out.F[C] = T.BorderColor[C];
        Out.I[C] = uint32_t(int32_t(T.BorderColor[C]));
      }
      return Out;
    }
    const char *P = T.Data + uint64_t(Z) * T.SlicePitch +
                    uint64_t(Y) * T.RowPitch + uint64_t(X) * Bytes;
    unsigned Step = channelBytes(T.Format);
    for (unsigned C = 0; C < T.Channels && C < 4; ++C) {
      if (Integers)
        Out.I[C] = integerChannel(P + C * Step, T.Format);
      else
        Out.F[C] = floatChannel(P + C * Step, T.Format);
    }
    return Out;
  }

  void write(const Texel &V, uint32_t *Out) const {
    if (Integers)
      std::memcpy(Out, V.I, 16);
    else
      std::memcpy(Out, V.F, 16);
  }

  void fetch(unsigned Dims, const float *Coord, uint32_t *Out) const {
    float Scaled[3] = {0, 0, 0};
    const uint64_t Sizes[3] = {T.Width, T.Height, T.Depth};
    bool Normalized = T.Flags & CU_TRSF_NORMALIZED_COORDINATES;
    for (unsigned D = 0; D < Dims; ++D)
      Scaled[D] = Normalized ? Coord[D] * float(Sizes[D]) : Coord[D];
    if (T.FilterMode != CU_TR_FILTER_MODE_LINEAR || Integers) {
      write(texel(floorIndex(Scaled[0]), floorIndex(Scaled[1]),
                  floorIndex(Scaled[2]), Dims),
            Out);
      return;
    }
    // Linear: the texels around x - 0.5, weighted by the fraction kept
    // with 8 fractional bits.
    int64_t Base[3] = {0, 0, 0};
    float Weight[3] = {0, 0, 0};
    for (unsigned D = 0; D < Dims; ++D) {
      float B = Scaled[D] - 0.5f;
      Base[D] = floorIndex(B);
      float Fraction = B - std::floor(B);
      if (!(Fraction == Fraction))
        Fraction = 0;
      Weight[D] = std::floor(Fraction * 256.0f + 0.5f) / 256.0f;
    }
    Texel Sum;
    unsigned Corners = 1u << Dims;
    for (unsigned Corner = 0; Corner < Corners; ++Corner) {
      float W = 1.0f;
      int64_t At[3] = {0, 0, 0};
      for (unsigned D = 0; D < Dims; ++D) {
        bool Upper = Corner & (1u << D);
        At[D] = Base[D] + (Upper ? 1 : 0);
        W *= Upper ? Weight[D] : 1.0f - Weight[D];
      }
      if (W == 0.0f)
        continue;
      Texel V = texel(At[0], At[1], At[2], Dims);
      for (int C = 0; C < 4; ++C)
        Sum.F[C] += W * V.F[C];
    }
    write(Sum, Out);
  }

private:
  const CucpuTexture &T;
  unsigned Bytes; ///< Of one texel.
  bool Integers;
};

bool readable(const CucpuTexture *T) {
  return T && T->Kind != CucpuTextureUnbound && T->Data &&
         channelBytes(T->Format) != 0 && T->Channels != 0 && T->Width != 0 &&
         T->Height != 0 && T->Depth != 0;
}

} // namespace

extern "C" {
void __cucpu_tex_fetch(uint64_t Handle, uint32_t Dims, float X, float Y,
                       float Z, uint32_t *Out) {
  const auto *T = reinterpret_cast<const CucpuTexture *>(Handle);
  std::memset(Out, 0, 16);
  if (!readable(T) || Dims < 1 || Dims > 3)
    return;
  const float Coord[3] = {X, Y, Z};
  Sampler(*T).fetch(Dims, Coord, Out);
}

void __cucpu_tex_fetch_index(uint64_t Handle, int32_t X, uint32_t *Out) {
  const auto *T = reinterpret_cast<const CucpuTexture *>(Handle);
  std::memset(Out, 0, 16);
  if (!readable(T) || X < 0 || uint64_t(X) >= T->Width)
    return;
  Sampler S(*T);
  S.write(S.texel(X, 0, 0, 1), Out);
}
}

void cucpu::modules::addTextureSampler(llvm::StringMap<void *> &Map) {
  CUCPU_RT_ADD(Map, __cucpu_tex_fetch);
  CUCPU_RT_ADD(Map, __cucpu_tex_fetch_index);
}
