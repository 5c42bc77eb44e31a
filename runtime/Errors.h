//===- Errors.h - How runtime calls fail ----------------------*- C++ -*-===//
//
// Every runtime entry point returns a cudaError_t. A failure is recorded as
// the calling thread's last error (cudaGetLastError), logged when CUCPU_LOG
// asks for it, with a message that says why.
// A failed driver call keeps the driver's message.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_RUNTIME_ERRORS_H
#define CUCPU_RUNTIME_ERRORS_H

#include <cuda.h>
#include <cuda_runtime_api.h>

namespace cucpu::rt {

/// The runtime error of driver result \p R (the two numberings agree but for
/// a few driver-only codes, which become cudaErrorUnknown).
cudaError_t fromDriver(CUresult R);

/// Records \p Code with a printf-style message as the last error of the
/// calling thread, logs it and returns it.
[[gnu::format(printf, 3, 4)]] cudaError_t
fail(const char *Function, cudaError_t Code, const char *Format, ...);

/// Records the failure \p R of a driver call made by \p Function, with the
/// driver's message, and returns its runtime error.
cudaError_t failDriver(const char *Function, CUresult R);

/// Like failDriver, with \p Code in place of the mapped result (a driver
/// CUDA_ERROR_NOT_FOUND is cudaErrorInvalidSymbol for a symbol, ...).
cudaError_t failDriverAs(const char *Function, CUresult R, cudaError_t Code);

/// Logs a successful call when CUCPU_LOG=1.
void traceSuccess(const char *Function);

} // namespace cucpu::rt

/// Returns a failure recorded for entry point \p Name when \p Cond holds.
#define CUDART_FAIL_IF_FOR(Name, Cond, Code, ...)                              \
  do {                                                                         \
    if (Cond)                                                                  \
      return ::cucpu::rt::fail(Name, Code, __VA_ARGS__);                       \
  } while (0)

/// Runs a driver call; its failure is entry point \p Name's result.
#define CUDART_DRIVER_FOR(Name, Call)                                          \
  do {                                                                         \
    if (CUresult CudartResult_ = (Call); CudartResult_ != CUDA_SUCCESS)        \
      return ::cucpu::rt::failDriver(Name, CudartResult_);                     \
  } while (0)

/// CUDART_FAIL_IF_FOR and CUDART_DRIVER_FOR in the entry point itself.
#define CUDART_FAIL_IF(Cond, Code, ...)                                        \
  CUDART_FAIL_IF_FOR(__func__, Cond, Code, __VA_ARGS__)
#define CUDART_DRIVER(Call) CUDART_DRIVER_FOR(__func__, Call)

/// Propagates a runtime helper's failure (already recorded).
#define CUDART_TRY(Expr)                                                       \
  do {                                                                         \
    if (cudaError_t CudartError_ = (Expr); CudartError_ != cudaSuccess)        \
      return CudartError_;                                                     \
  } while (0)

#endif // CUCPU_RUNTIME_ERRORS_H
