// Every toolkit header a kernel may include by name (the sdk/ versions), the
// host API header cuda.h, and a little of what they provide
// (CuccTest.cpp, ToolkitHeadersAreFoundByName).
#include <cuda.h>
#include <builtin_types.h>
#include <channel_descriptor.h>
#include <common_functions.h>
#include <cuda_device_runtime_api.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <device_atomic_functions.h>
#include <device_atomic_functions.hpp>
#include <device_double_functions.h>
#include <device_functions.h>
#include <device_launch_parameters.h>
#include <device_types.h>
#include <driver_functions.h>
#include <driver_types.h>
#include <host_config.h>
#include <host_defines.h>
#include <library_types.h>
#include <math_constants.h>
#include <math_functions.h>
#include <sm_20_atomic_functions.h>
#include <sm_20_atomic_functions.hpp>
#include <sm_20_intrinsics.h>
#include <sm_20_intrinsics.hpp>
#include <sm_30_intrinsics.h>
#include <sm_30_intrinsics.hpp>
#include <sm_32_atomic_functions.h>
#include <sm_32_atomic_functions.hpp>
#include <sm_32_intrinsics.h>
#include <sm_32_intrinsics.hpp>
#include <sm_35_atomic_functions.h>
#include <sm_35_intrinsics.h>
#include <sm_60_atomic_functions.h>
#include <sm_60_atomic_functions.hpp>
#include <sm_61_intrinsics.h>
#include <sm_61_intrinsics.hpp>
#include <surface_functions.h>
#include <surface_indirect_functions.h>
#include <surface_types.h>
#include <texture_fetch_functions.h>
#include <texture_indirect_functions.h>
#include <texture_types.h>
#include <vector_functions.h>
#include <vector_functions.hpp>
#include <vector_types.h>
#include <crt/common_functions.h>
#include <crt/device_double_functions.h>
#include <crt/device_double_functions.hpp>
#include <crt/device_functions.h>
#include <crt/device_functions.hpp>
#include <crt/func_macro.h>
#include <crt/host_config.h>
#include <crt/host_defines.h>
#include <crt/math_functions.h>
#include <crt/math_functions.hpp>
#include <crt/sm_100_rt.h>
#include <crt/sm_100_rt.hpp>
#include <crt/sm_70_rt.h>
#include <crt/sm_70_rt.hpp>
#include <crt/sm_80_rt.h>
#include <crt/sm_80_rt.hpp>
#include <crt/sm_90_rt.h>
#include <crt/sm_90_rt.hpp>
#include <crt/storage_class.h>

__global__ void useToolkitHeaders(CUdeviceptr *Ptrs, float *Out, int *Dots) {
  Ptrs[0] = (CUdeviceptr)Out;
  float4 V = make_float4(CUDART_PI_F, CUDART_SQRT_HALF_F, 0.0f, 1.0f);
  Out[threadIdx.x] = V.x + V.y;
  Dots[threadIdx.x] = __dp4a(int(threadIdx.x), 0x01010101, 0);
}
