// European call and put prices (Black-Scholes), one option per thread, with
// the cumulative normal distribution by the Abramowitz-Stegun polynomial.
__device__ float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
              a4 = -1.821255978f, a5 = 1.330274429f;
  const float rsqrt2pi = 0.39894228040143267794f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
  float c = rsqrt2pi * expf(-0.5f * d * d) * poly;
  return d > 0.0f ? 1.0f - c : c;
}

extern "C" __global__ void blackScholes(float *call, float *put,
                                        const float *price, const float *strike,
                                        const float *years, float rate,
                                        float volatility, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = price[i], x = strike[i], t = years[i];
  float sqrtT = sqrtf(t);
  float d1 = (logf(s / x) + (rate + 0.5f * volatility * volatility) * t) /
             (volatility * sqrtT);
  float d2 = d1 - volatility * sqrtT;
  float discount = x * expf(-rate * t);
  float cnd1 = cnd(d1), cnd2 = cnd(d2);
  call[i] = s * cnd1 - discount * cnd2;
  put[i] = discount * (1.0f - cnd2) - s * (1.0f - cnd1);
}
