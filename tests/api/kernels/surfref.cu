// Kernels of SurfaceTest.cpp (surface references) for cucpu, compiled by
// cucc; surfref.ptx holds the same for NVIDIA's driver (nvcc 13 no longer
// compiles surface references).
surface<void, cudaSurfaceType2D> sref;
surface<void, cudaSurfaceType1D> sref1;
texture<float, cudaTextureType1D> tref;

// Adds 1 to the 32-bit word at byte x of row y of sref (trap mode).
extern "C" __global__ void inc2d(unsigned x, unsigned y) {
  unsigned v;
  surf2Dread(&v, sref, int(x), int(y));
  surf2Dwrite(v + 1, sref, int(x), int(y));
}

// Stores the 32-bit word at byte x of sref1 (zero mode) to out.
extern "C" __global__ void read1d(unsigned *out, unsigned x) {
  *out = surf1Dread<unsigned>(sref1, int(x), cudaBoundaryModeZero);
}

// Reads through tref so that it is a texture reference of the module.
extern "C" __global__ void usetex(float *out) { *out = tex1D(tref, 0.0f); }
