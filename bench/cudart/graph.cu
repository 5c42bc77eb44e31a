//===- graph.cu - A graph launch against the same stream launches --------===//
//
// A chain of Nodes empty kernels, issued Batch times and waited for once:
// as Nodes `<<<>>>` launches into a stream, and as one cudaGraphLaunch of the
// graph stream capture made of the same launches, alternating within each
// iteration so that both see the same machine (graph.paired). Counters:
// stream_us and graph_us per chain, ratio = graph / stream.
//
//===----------------------------------------------------------------------===//
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void graphNode() {}

namespace {

constexpr int Nodes = 10;
constexpr int Batch = 1000;

void check(cudaError_t E, const char *What) {
  if (E != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", What, cudaGetErrorString(E));
    std::exit(1);
  }
}

void issueChain(cudaStream_t S) {
  for (int I = 0; I < Nodes; ++I)
    graphNode<<<1, 1, 0, S>>>();
}

/// Batch chains issued by \p Issue into \p S, waited for: seconds per chain.
template <class Issue> double chainSeconds(cudaStream_t S, Issue I) {
  auto Start = std::chrono::steady_clock::now();
  for (int B = 0; B < Batch; ++B)
    I();
  check(cudaStreamSynchronize(S), "cudaStreamSynchronize");
  std::chrono::duration<double> Took = std::chrono::steady_clock::now() - Start;
  return Took.count() / Batch;
}

void graphPaired(benchmark::State &State) {
  cudaStream_t S;
  check(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking), "stream");
  cudaGraph_t G;
  check(cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal), "capture");
  issueChain(S);
  check(cudaStreamEndCapture(S, &G), "end capture");
  cudaGraphExec_t Exec;
  check(cudaGraphInstantiate(&Exec, G, 0), "instantiate");
  auto Stream = [S] { issueChain(S); };
  auto Graph = [S, Exec] { cudaGraphLaunch(Exec, S); };
  chainSeconds(S, Stream); // warm-up
  chainSeconds(S, Graph);
  double StreamTotal = 0, GraphTotal = 0;
  bool StreamFirst = true;
  for (auto _ : State) {
    double Sec, Gec;
    if (StreamFirst) {
      Sec = chainSeconds(S, Stream);
      Gec = chainSeconds(S, Graph);
    } else {
      Gec = chainSeconds(S, Graph);
      Sec = chainSeconds(S, Stream);
    }
    StreamFirst = !StreamFirst;
    StreamTotal += Sec;
    GraphTotal += Gec;
    State.SetIterationTime(Sec + Gec);
  }
  check(cudaGetLastError(), "graph.paired");
  State.counters["stream_us"] = 1e6 * StreamTotal / State.iterations();
  State.counters["graph_us"] = 1e6 * GraphTotal / State.iterations();
  State.counters["ratio"] = GraphTotal / StreamTotal;
  cudaGraphExecDestroy(Exec);
  cudaGraphDestroy(G);
  cudaStreamDestroy(S);
}

} // namespace

BENCHMARK(graphPaired)
    ->Name("graph.paired")
    ->UseManualTime()
    ->Iterations(20)
    ->Unit(benchmark::kMicrosecond);
