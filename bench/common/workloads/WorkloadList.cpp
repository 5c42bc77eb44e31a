//===- WorkloadList.cpp - Every kernel benchmark, in run order ------------===//
#include "Workloads.h"

namespace bench {

const std::vector<WorkloadInfo> &workloadList() {
  // Compute-bound kernels (true) also run in the thread-scaling comparison.
  static const std::vector<WorkloadInfo> List = {
      {"saxpy", false, makeSaxpy},
      {"matmul", true, makeMatmul},
      {"reduce", false, makeReduce},
      {"reduce_warpsync", false, makeReduceWarpSync},
      {"transpose", false, makeTranspose},
      {"histogram", false, makeHistogram},
      {"blackscholes", true, makeBlackScholes},
      {"nbody", true, makeNBody},
      {"stencil", false, makeStencil},
  };
  return List;
}

} // namespace bench
