// Device code of the rdcNBody sample that the other translation unit calls:
// built with -rdc=true, so main.cu's kernel links against these functions
// and this variable across files, as nvcc's separate compilation allows.
#include "forces.h"

__constant__ float Softening = 0.01f;

__device__ float3 pairForce(float3 A, float3 B) {
  float3 D = make_float3(B.x - A.x, B.y - A.y, B.z - A.z);
  float Dist2 = D.x * D.x + D.y * D.y + D.z * D.z + Softening;
  float Inv = rsqrtf(Dist2);
  float Inv3 = Inv * Inv * Inv;
  return make_float3(D.x * Inv3, D.y * Inv3, D.z * Inv3);
}
