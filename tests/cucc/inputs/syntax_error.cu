__global__ void broken(int *P) {
  P[0] = 1
}
