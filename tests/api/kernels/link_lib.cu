// Relocatable device code of LinkTest.cpp (compiled with -rdc=true): what
// link_main.cu's kernel uses. It defines no kernel and leaves nothing
// undefined, so it also loads on its own.

/// Read by link_main.cu as an extern __device__ variable.
__device__ int offset = 100;

/// Called by link_main.cu as an extern __device__ function.
__device__ int scale(int X) { return 3 * X; }
