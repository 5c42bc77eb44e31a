// atomicAdd from every thread of the grid.
extern "C" __global__ void atomicCount(int *Counter) { atomicAdd(Counter, 1); }
