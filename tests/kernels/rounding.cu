// Rounding-mode arithmetic and conversions, integer intrinsics and bit
// reinterpretations (kernels r_<name>): every result is checked bit for bit
// against a host reference (KernelRunner.cpp, reference checks). One element
// per thread.
#define ID (blockIdx.x * blockDim.x + threadIdx.x)

#define ROUND2(Name, T, Op)                                                    \
  extern "C" __global__ void r_##Name(const T *X, const T *Y, T *Rn, T *Rz,    \
                                      T *Ru, T *Rd) {                          \
    unsigned I = ID;                                                           \
    Rn[I] = Op##_rn(X[I], Y[I]);                                               \
    Rz[I] = Op##_rz(X[I], Y[I]);                                               \
    Ru[I] = Op##_ru(X[I], Y[I]);                                               \
    Rd[I] = Op##_rd(X[I], Y[I]);                                               \
  }
#define ROUND1(Name, From, To, Op)                                             \
  extern "C" __global__ void r_##Name(const From *X, To *Rn, To *Rz, To *Ru,   \
                                      To *Rd) {                                \
    unsigned I = ID;                                                           \
    Rn[I] = Op##_rn(X[I]);                                                     \
    Rz[I] = Op##_rz(X[I]);                                                     \
    Ru[I] = Op##_ru(X[I]);                                                     \
    Rd[I] = Op##_rd(X[I]);                                                     \
  }

ROUND2(fadd, float, __fadd)
ROUND2(fsub, float, __fsub)
ROUND2(fmul, float, __fmul)
ROUND2(fdiv, float, __fdiv)
ROUND2(dadd, double, __dadd)
ROUND2(dsub, double, __dsub)
ROUND2(dmul, double, __dmul)
ROUND2(ddiv, double, __ddiv)
ROUND1(frcp, float, float, __frcp)
ROUND1(fsqrt, float, float, __fsqrt)
ROUND1(drcp, double, double, __drcp)
ROUND1(dsqrt, double, double, __dsqrt)
ROUND1(float2int, float, int, __float2int)
ROUND1(float2uint, float, unsigned, __float2uint)
ROUND1(float2ll, float, long long, __float2ll)
ROUND1(double2int, double, int, __double2int)
ROUND1(double2uint, double, unsigned, __double2uint)
ROUND1(double2ll, double, long long, __double2ll)
ROUND1(double2ull, double, unsigned long long, __double2ull)
ROUND1(float2ull, float, unsigned long long, __float2ull)
ROUND1(double2float, double, float, __double2float)
ROUND1(int2float, int, float, __int2float)
ROUND1(uint2float, unsigned, float, __uint2float)
ROUND1(ll2double, long long, double, __ll2double)

extern "C" __global__ void r_fmaf_modes(const float *X, const float *Y,
                                        const float *Z, float *Rn, float *Rz,
                                        float *Ru, float *Rd) {
  unsigned I = ID;
  Rn[I] = __fmaf_rn(X[I], Y[I], Z[I]);
  Rz[I] = __fmaf_rz(X[I], Y[I], Z[I]);
  Ru[I] = __fmaf_ru(X[I], Y[I], Z[I]);
  Rd[I] = __fmaf_rd(X[I], Y[I], Z[I]);
}

extern "C" __global__ void r_fma_modes(const double *X, const double *Y,
                                       const double *Z, double *Rn, double *Rz,
                                       double *Ru, double *Rd) {
  unsigned I = ID;
  Rn[I] = __fma_rn(X[I], Y[I], Z[I]);
  Rz[I] = __fma_rz(X[I], Y[I], Z[I]);
  Ru[I] = __fma_ru(X[I], Y[I], Z[I]);
  Rd[I] = __fma_rd(X[I], Y[I], Z[I]);
}

// Bit reinterpretation, both ways.
extern "C" __global__ void r_reinterpret(const int *I32, const float *F32,
                                         const long long *I64, float *AsFloat,
                                         int *AsInt, double *AsDouble,
                                         long long *AsLongLong) {
  unsigned I = ID;
  AsFloat[I] = __int_as_float(I32[I]);
  AsInt[I] = __float_as_int(F32[I]);
  AsDouble[I] = __longlong_as_double(I64[I]);
  AsLongLong[I] = __double_as_longlong(AsDouble[I]);
}

// Integer intrinsics.
#define INT1(Name, In, Out, Expr)                                              \
  extern "C" __global__ void r_##Name(const In *X, Out *R) {                   \
    unsigned I = ID;                                                           \
    In x = X[I];                                                               \
    R[I] = Expr;                                                               \
  }
#define INT2(Name, In, Out, Expr)                                              \
  extern "C" __global__ void r_##Name(const In *X, const In *Y, Out *R) {      \
    unsigned I = ID;                                                           \
    In x = X[I], y = Y[I];                                                     \
    R[I] = Expr;                                                               \
  }
#define INT3(Name, In, Out, Expr)                                              \
  extern "C" __global__ void r_##Name(const In *X, const In *Y, const In *Z,   \
                                      Out *R) {                                \
    unsigned I = ID;                                                           \
    In x = X[I], y = Y[I], z = Z[I];                                           \
    R[I] = Expr;                                                               \
  }

INT1(popc, unsigned, int, __popc(x))
INT1(popcll, unsigned long long, int, __popcll(x))
INT1(clz, int, int, __clz(x))
INT1(clzll, long long, int, __clzll(x))
INT1(ffs, int, int, __ffs(x))
INT1(ffsll, long long, int, __ffsll(x))
INT1(brev, unsigned, unsigned, __brev(x))
INT1(brevll, unsigned long long, unsigned long long, __brevll(x))
INT3(byte_perm, unsigned, unsigned, __byte_perm(x, y, z))
INT2(mul24, int, int, __mul24(x, y))
INT2(umul24, unsigned, unsigned, __umul24(x, y))
INT2(mulhi, int, int, __mulhi(x, y))
INT2(umulhi, unsigned, unsigned, __umulhi(x, y))
INT2(mul64hi, long long, long long, __mul64hi(x, y))
INT2(umul64hi, unsigned long long, unsigned long long, __umul64hi(x, y))
INT3(sad, int, unsigned, __sad(x, y, (unsigned)z))
INT3(usad, unsigned, unsigned, __usad(x, y, z))
INT2(hadd, int, int, __hadd(x, y))
INT2(rhadd, int, int, __rhadd(x, y))
INT2(uhadd, unsigned, unsigned, __uhadd(x, y))
INT2(urhadd, unsigned, unsigned, __urhadd(x, y))
INT3(funnelshift_l, unsigned, unsigned, __funnelshift_l(x, y, z))
INT3(funnelshift_lc, unsigned, unsigned, __funnelshift_lc(x, y, z))
INT3(funnelshift_r, unsigned, unsigned, __funnelshift_r(x, y, z))
INT3(funnelshift_rc, unsigned, unsigned, __funnelshift_rc(x, y, z))
