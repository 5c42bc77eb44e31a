//===- Formats.h - Channel formats, runtime to driver -----------*- C++ -*-===//
#ifndef CUCPU_RUNTIME_FORMATS_H
#define CUCPU_RUNTIME_FORMATS_H

#include <cuda.h>
#include <cuda_runtime_api.h>

namespace cucpu::rt {

/// The driver's format and channel count of \p Desc: channels are counted
/// up to the first of zero width, and all must have the same width
/// (cudaErrorInvalidChannelDescriptor otherwise, recorded for \p Function).
cudaError_t driverFormat(const char *Function,
                         const cudaChannelFormatDesc &Desc,
                         CUarray_format &Format, unsigned &Channels);

/// Whether texels of format \p F are integers.
bool isIntegerFormat(CUarray_format F);

} // namespace cucpu::rt

#endif // CUCPU_RUNTIME_FORMATS_H
