// Plain C++ conversions of floating-point values to integers (kernels
// cast_<from>): out-of-range values saturate and NaN has a fixed result, as
// the GPU's cvt.rzi does, where C++ leaves them undefined and a CPU wraps.
// Checked against the cvt_rz reference (References.cpp). One element per
// thread.
#define ID (blockIdx.x * blockDim.x + threadIdx.x)

#define CASTS(From, T)                                                         \
  extern "C" __global__ void cast_##From(                                      \
      const T *X, int *I32, unsigned *U32, long long *I64,                     \
      unsigned long long *U64, short *I16, unsigned short *U16,                \
      signed char *I8, unsigned char *U8) {                                    \
    unsigned I = ID;                                                           \
    T V = X[I];                                                                \
    I32[I] = (int)V;                                                           \
    U32[I] = (unsigned)V;                                                      \
    I64[I] = (long long)V;                                                     \
    U64[I] = (unsigned long long)V;                                            \
    I16[I] = (short)V;                                                         \
    U16[I] = (unsigned short)V;                                                \
    I8[I] = (signed char)V;                                                    \
    U8[I] = (unsigned char)V;                                                  \
  }

CASTS(f32, float)
CASTS(f64, double)
