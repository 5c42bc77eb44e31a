// CUDA's vector types: sizes and alignments of the Programming Guide's table,
// make_* constructors, and a struct of them passed by value.
// CHECK: define {{.*}}@_Z7vectorsP6float4P7double2S_
// CHECK-SAME: byval(%struct.float4) align 16
#define CHECK_LAYOUT(T, S, A)                                                  \
  static_assert(sizeof(T) == S && alignof(T) == A, #T)
CHECK_LAYOUT(char1, 1, 1);
CHECK_LAYOUT(char2, 2, 2);
CHECK_LAYOUT(char3, 3, 1);
CHECK_LAYOUT(uchar4, 4, 4);
CHECK_LAYOUT(short2, 4, 4);
CHECK_LAYOUT(short3, 6, 2);
CHECK_LAYOUT(ushort4, 8, 8);
CHECK_LAYOUT(int1, 4, 4);
CHECK_LAYOUT(int2, 8, 8);
CHECK_LAYOUT(int3, 12, 4);
CHECK_LAYOUT(uint4, 16, 16);
CHECK_LAYOUT(long1, 8, 8);
CHECK_LAYOUT(long2, 16, 16);
CHECK_LAYOUT(ulong3, 24, 8);
CHECK_LAYOUT(long4, 32, 16);
CHECK_LAYOUT(longlong2, 16, 16);
CHECK_LAYOUT(ulonglong3, 24, 8);
CHECK_LAYOUT(longlong4, 32, 16);
CHECK_LAYOUT(float1, 4, 4);
CHECK_LAYOUT(float2, 8, 8);
CHECK_LAYOUT(float3, 12, 4);
CHECK_LAYOUT(float4, 16, 16);
CHECK_LAYOUT(double1, 8, 8);
CHECK_LAYOUT(double2, 16, 16);
CHECK_LAYOUT(double3, 24, 8);
CHECK_LAYOUT(double4, 32, 16);
CHECK_LAYOUT(dim3, 12, 4);

__global__ void vectors(float4 *Out, double2 *D, float4 In) {
  float4 V = make_float4(In.x, In.y, In.z, In.w);
  int3 I = make_int3(1, 2, 3);
  uchar2 C = make_uchar2(4, 5);
  longlong2 L = make_longlong2(6, 7);
  ulonglong4 U = make_ulonglong4(8, 9, 10, 11);
  double2 Dd = make_double2(1.5, 2.5);
  V.x += I.x + I.y + I.z + C.x + C.y + L.x + L.y + U.x + U.w;
  Out[threadIdx.x] = V;
  D[threadIdx.x] = Dd;
}
