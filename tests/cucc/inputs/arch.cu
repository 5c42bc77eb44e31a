// Compiled for every architecture nvcc accepts (CuccTest.cpp,
// EveryNvccArchitectureCompilesWithNvccsArchMacro): stores the __CUDA_ARCH__
// the source sees, and uses what clang's headers provide from sm_90 on, which
// need the SDK's address-space functions.
__global__ void arch(int *Out, unsigned *Spaces, void **Back) {
  __shared__ int Shared[4];
  Shared[threadIdx.x % 4] = 1;
  Out[0] = __CUDA_ARCH__;
#if __CUDA_ARCH__ >= 900
  Spaces[0] = __isCtaShared(Shared);
#else
  Spaces[0] = __isShared(Shared);
#endif
  Spaces[1] = __isGlobal(Out) + __isConstant(Out) + __isLocal(Out) +
              __isGridConstant(&Out);
  Back[0] = __cvta_shared_to_generic(__cvta_generic_to_shared(Shared));
  Back[1] = __cvta_global_to_generic(__cvta_generic_to_global(Out));
}
