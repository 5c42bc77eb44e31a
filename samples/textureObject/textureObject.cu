// The texture-object example of the CUDA C++ Programming Guide (§3.2.14.1.1,
// Texture Object API): a rotation of an image read through a texture with
// normalized, wrapped coordinates and linear filtering, made a whole
// program with an input image and a CPU reference. Built by cucc.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

// Simple transformation kernel
__global__ void transformKernel(float *output, cudaTextureObject_t texObj,
                                int width, int height, float theta) {
  // Calculate normalized texture coordinates
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= unsigned(width) || y >= unsigned(height))
    return;
  float u = x / (float)width;
  float v = y / (float)height;
  // Transform coordinates
  u -= 0.5f;
  v -= 0.5f;
  float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
  float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;
  // Read from texture and write to global memory
  output[y * width + x] = tex2D<float>(texObj, tu, tv);
}

/// What the texture unit returns for normalized (u, v): wrap, then linear
/// filtering between the four nearest texels (CUDA C++ Programming Guide,
/// Appendix "Linear Filtering").
static float reference(const std::vector<float> &img, int w, int h, float u,
                       float v) {
  u -= std::floor(u);
  v -= std::floor(v);
  float xb = u * w - 0.5f, yb = v * h - 0.5f;
  float fx = std::floor(xb), fy = std::floor(yb);
  float a = xb - fx, b = yb - fy;
  auto at = [&](int i, int j) {
    i = ((i % w) + w) % w;
    j = ((j % h) + h) % h;
    return img[j * w + i];
  };
  int i = int(fx), j = int(fy);
  return (1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) +
         (1 - a) * b * at(i, j + 1) + a * b * at(i + 1, j + 1);
}

int main() {
  const int width = 64, height = 48;
  const float angle = 0.5f;
  const size_t size = width * height * sizeof(float);
  std::vector<float> h_data(width * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      h_data[y * width + x] = std::sin(x * 0.2f) * std::cos(y * 0.15f);

  // Allocate CUDA array in device memory
  cudaChannelFormatDesc channelDesc =
      cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaArray *cuArray;
  cudaMallocArray(&cuArray, &channelDesc, width, height);
  // Copy to device memory some data located at address h_data in host memory
  cudaMemcpyToArray(cuArray, 0, 0, h_data.data(), size, cudaMemcpyHostToDevice);
  // Specify texture
  struct cudaResourceDesc resDesc;
  memset(&resDesc, 0, sizeof(resDesc));
  resDesc.resType = cudaResourceTypeArray;
  resDesc.res.array.array = cuArray;
  // Specify texture object parameters
  struct cudaTextureDesc texDesc;
  memset(&texDesc, 0, sizeof(texDesc));
  texDesc.addressMode[0] = cudaAddressModeWrap;
  texDesc.addressMode[1] = cudaAddressModeWrap;
  texDesc.filterMode = cudaFilterModeLinear;
  texDesc.readMode = cudaReadModeElementType;
  texDesc.normalizedCoords = 1;
  // Create texture object
  cudaTextureObject_t texObj = 0;
  cudaCreateTextureObject(&texObj, &resDesc, &texDesc, NULL);
  // Allocate result of transformation in device memory
  float *output;
  cudaMalloc(&output, size);
  // Invoke kernel
  dim3 dimBlock(16, 16);
  dim3 dimGrid((width + dimBlock.x - 1) / dimBlock.x,
               (height + dimBlock.y - 1) / dimBlock.y);
  transformKernel<<<dimGrid, dimBlock>>>(output, texObj, width, height, angle);
  std::vector<float> result(width * height);
  cudaMemcpy(result.data(), output, size, cudaMemcpyDeviceToHost);
  if (cudaError_t E = cudaGetLastError()) {
    printf("textureObject: %s\n", cudaGetErrorString(E));
    return 1;
  }
  // Destroy texture object
  cudaDestroyTextureObject(texObj);
  // Free device memory
  cudaFreeArray(cuArray);
  cudaFree(output);

  // The texture unit keeps 8 fraction bits of each filter weight, so a
  // texel differs from the exact interpolation by at most about 1/256 of
  // the neighbours' spread (here at most 2).
  int errors = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      float u = x / (float)width - 0.5f, v = y / (float)height - 0.5f;
      float tu = u * std::cos(angle) - v * std::sin(angle) + 0.5f;
      float tv = v * std::cos(angle) + u * std::sin(angle) + 0.5f;
      float ref = reference(h_data, width, height, tu, tv);
      if (std::fabs(result[y * width + x] - ref) > 2.0f / 256 && ++errors <= 5)
        printf("output[%d][%d] = %g, expected %g\n", y, x,
               result[y * width + x], ref);
    }
  printf("textureObject: %dx%d image rotated by %g, %d mismatches\n", width,
         height, angle, errors);
  if (errors)
    return 1;
  printf("PASSED\n");
  return 0;
}
