// The graph examples of the CUDA C++ Programming Guide (§3.2.5.6, Graphs)
// made a whole program: the four-kernel diamond A -> {B, C} -> D built twice,
// with the graph API (§3.2.5.6.2, Creating a Graph Using Graph APIs) and by
// capturing two streams forked and joined by events (§3.2.5.6.3, Creating a
// Graph Using Stream Capture), each instantiated, launched several times and
// checked. Built by cucc.
#include <cstdio>
#include <cstdlib>

// A: x[i] = i
__global__ void kernelA(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    x[i] = float(i);
}

// B: y[i] = 2 x[i]
__global__ void kernelB(const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    y[i] = 2 * x[i];
}

// C: z[i] = x[i] + 1
__global__ void kernelC(const float *x, float *z, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    z[i] = x[i] + 1;
}

// D: out[i] = y[i] + z[i], which is 3 i + 1 once A, B and C have run
__global__ void kernelD(const float *y, const float *z, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    out[i] = y[i] + z[i];
}

static void check(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return;
  printf("simpleGraph: %s: %s\n", what, cudaGetErrorString(e));
  exit(1);
}

static const int n = 1 << 16;
static const int blocks = 64, threads = 256;

// Kernel node parameters of a launch of func with args.
static cudaKernelNodeParams launchOf(void *func, void **args) {
  cudaKernelNodeParams p = {};
  p.func = func;
  p.gridDim = dim3(blocks);
  p.blockDim = dim3(threads);
  p.sharedMemBytes = 0;
  p.kernelParams = args;
  p.extra = NULL;
  return p;
}

// §3.2.5.6.2: the nodes first, then the dependencies.
static cudaGraph_t buildWithGraphApi(float *x, float *y, float *z, float *out) {
  cudaGraph_t graph;
  cudaGraphNode_t a, b, c, d;
  int count = n;
  void *argsA[] = {&x, &count};
  void *argsB[] = {&x, &y, &count};
  void *argsC[] = {&x, &z, &count};
  void *argsD[] = {&y, &z, &out, &count};
  cudaKernelNodeParams paramsA = launchOf((void *)kernelA, argsA);
  cudaKernelNodeParams paramsB = launchOf((void *)kernelB, argsB);
  cudaKernelNodeParams paramsC = launchOf((void *)kernelC, argsC);
  cudaKernelNodeParams paramsD = launchOf((void *)kernelD, argsD);

  // Create the graph - it starts out empty
  check(cudaGraphCreate(&graph, 0), "cudaGraphCreate");
  // For the purpose of this example, we'll create the nodes separately
  // from the dependencies to demonstrate that it can be done in two
  // stages. Note that dependencies can also be specified at node creation.
  check(cudaGraphAddKernelNode(&a, graph, NULL, 0, &paramsA), "node A");
  check(cudaGraphAddKernelNode(&b, graph, NULL, 0, &paramsB), "node B");
  check(cudaGraphAddKernelNode(&c, graph, NULL, 0, &paramsC), "node C");
  check(cudaGraphAddKernelNode(&d, graph, NULL, 0, &paramsD), "node D");
  // Now set up dependencies on each node (CUDA 12.3 added the edge data
  // argument; NULL means plain dependencies).
  check(cudaGraphAddDependencies(graph, &a, &b, NULL, 1), "A->B");
  check(cudaGraphAddDependencies(graph, &a, &c, NULL, 1), "A->C");
  check(cudaGraphAddDependencies(graph, &b, &d, NULL, 1), "B->D");
  check(cudaGraphAddDependencies(graph, &c, &d, NULL, 1), "C->D");
  return graph;
}

// §3.2.5.6.3: stream1 is the origin stream; stream2 is forked from it and
// joined back with events.
static cudaGraph_t buildWithStreamCapture(float *x, float *y, float *z,
                                          float *out) {
  cudaStream_t stream1, stream2;
  cudaEvent_t event1, event2;
  check(cudaStreamCreate(&stream1), "cudaStreamCreate");
  check(cudaStreamCreate(&stream2), "cudaStreamCreate");
  check(cudaEventCreate(&event1), "cudaEventCreate");
  check(cudaEventCreate(&event2), "cudaEventCreate");

  cudaGraph_t graph;
  check(cudaStreamBeginCapture(stream1, cudaStreamCaptureModeGlobal),
        "cudaStreamBeginCapture");
  kernelA<<<blocks, threads, 0, stream1>>>(x, n);
  // Fork into stream2
  check(cudaEventRecord(event1, stream1), "record event1");
  check(cudaStreamWaitEvent(stream2, event1, 0), "wait for event1");
  kernelB<<<blocks, threads, 0, stream1>>>(x, y, n);
  kernelC<<<blocks, threads, 0, stream2>>>(x, z, n);
  // Join stream2 back to origin stream (stream1)
  check(cudaEventRecord(event2, stream2), "record event2");
  check(cudaStreamWaitEvent(stream1, event2, 0), "wait for event2");
  kernelD<<<blocks, threads, 0, stream1>>>(y, z, out, n);
  // End capture in the origin stream
  check(cudaStreamEndCapture(stream1, &graph), "cudaStreamEndCapture");
  // stream1 and stream2 no longer in capture mode

  check(cudaEventDestroy(event1), "cudaEventDestroy");
  check(cudaEventDestroy(event2), "cudaEventDestroy");
  check(cudaStreamDestroy(stream1), "cudaStreamDestroy");
  check(cudaStreamDestroy(stream2), "cudaStreamDestroy");
  return graph;
}

// Instantiates graph and launches it `launches` times, each after clearing
// out; returns the number of wrong elements.
static int run(const char *how, cudaGraph_t graph, float *out, float *host,
               int launches) {
  size_t nodes = 0, edges = 0;
  check(cudaGraphGetNodes(graph, NULL, &nodes), "cudaGraphGetNodes");
  check(cudaGraphGetEdges(graph, NULL, NULL, NULL, &edges),
        "cudaGraphGetEdges");
  cudaGraphExec_t exec;
  check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
        "cudaStreamCreateWithFlags");
  int errors = 0;
  for (int launch = 0; launch < launches; ++launch) {
    check(cudaMemsetAsync(out, 0, n * sizeof(float), stream),
          "cudaMemsetAsync");
    check(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
    check(cudaMemcpyAsync(host, out, n * sizeof(float), cudaMemcpyDeviceToHost,
                          stream),
          "cudaMemcpyAsync");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    for (int i = 0; i < n; ++i)
      if (host[i] != 3 * float(i) + 1 && ++errors <= 5)
        printf("%s, launch %d: out[%d] = %g, expected %g\n", how, launch, i,
               host[i], 3 * float(i) + 1);
  }
  check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  check(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy");
  printf("simpleGraph: %s: %zu nodes, %zu edges, %d launches, %d mismatches\n",
         how, nodes, edges, launches, errors);
  if (nodes != 4 || edges != 4) {
    printf("simpleGraph: %s: expected the 4 nodes and 4 edges of the diamond\n",
           how);
    ++errors;
  }
  return errors;
}

int main() {
  float *x, *y, *z, *out, *host;
  check(cudaMalloc(&x, n * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&y, n * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&z, n * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&out, n * sizeof(float)), "cudaMalloc");
  check(cudaMallocHost(&host, n * sizeof(float)), "cudaMallocHost");

  cudaGraph_t apiGraph = buildWithGraphApi(x, y, z, out);
  cudaGraph_t capturedGraph = buildWithStreamCapture(x, y, z, out);
  int errors = run("graph API", apiGraph, out, host, 3);
  errors += run("stream capture", capturedGraph, out, host, 3);

  check(cudaGraphDestroy(apiGraph), "cudaGraphDestroy");
  check(cudaGraphDestroy(capturedGraph), "cudaGraphDestroy");
  check(cudaFree(x), "cudaFree");
  check(cudaFree(y), "cudaFree");
  check(cudaFree(z), "cudaFree");
  check(cudaFree(out), "cudaFree");
  check(cudaFreeHost(host), "cudaFreeHost");
  if (errors)
    return 1;
  printf("PASSED\n");
  return 0;
}
