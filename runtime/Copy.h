//===- Copy.h - Copy descriptions shared by copies and graph nodes -*- C++ -*-//
//
// A copy the runtime describes one way (cudaMemcpy3DParms, a symbol and an
// offset) and the driver another (CUDA_MEMCPY3D, an address): the
// conversions that cudaMemcpy3D, the symbol copies and the memcpy nodes of
// graphs share, so that a copy in a graph means what the same copy in a
// stream means.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_RUNTIME_COPY_H
#define CUCPU_RUNTIME_COPY_H

#include <cuda.h>
#include <cuda_runtime_api.h>

namespace cucpu::rt {

/// Checks that \p Kind is a cudaMemcpyKind; cudaErrorInvalidMemcpyDirection
/// (recorded for \p Function) when it is not.
cudaError_t checkCopyKind(const char *Function, cudaMemcpyKind Kind);

/// Checks the \p Pitch of one side of a 2D copy of \p Height rows of \p Width
/// bytes, as NVIDIA's runtime does: with two or more rows a pitch below the
/// width is cudaErrorInvalidPitchValue; one row takes a pitch of 0 (the rows
/// are not apart) or of at least the width, any other is cudaErrorInvalidValue.
cudaError_t checkPitch(const char *Function, size_t Pitch, size_t Width,
                       size_t Height);

/// The address of a copy between the variable \p Symbol (at \p Offset) and
/// memory, into the symbol if \p ToSymbol: its kind checked, then the
/// symbol found in the current context and \p Count checked against its size.
cudaError_t symbolAddress(const char *Function, const void *Symbol,
                          size_t Count, size_t Offset, bool ToSymbol,
                          cudaMemcpyKind Kind, CUdeviceptr &Out);

/// The driver's description of the 3D copy \p P (positions and widths in
/// array elements where an array takes part, else in bytes). Checks \p P;
/// the calling thread must have a current context (arrays are asked for
/// their element size).
cudaError_t toDriverCopy3D(const char *Function, const cudaMemcpy3DParms *P,
                           CUDA_MEMCPY3D &Out);

/// The runtime's description of the driver's copy \p C, the reverse of
/// toDriverCopy3D (its kind is cudaMemcpyDefault: every pointer is unified).
cudaError_t fromDriverCopy3D(const char *Function, const CUDA_MEMCPY3D &C,
                             cudaMemcpy3DParms &Out);

/// A driver copy of \p Count bytes from \p Src to \p Dst, unified addresses.
CUDA_MEMCPY3D linearCopy3D(CUdeviceptr Dst, CUdeviceptr Src, size_t Count);

} // namespace cucpu::rt

#endif // CUCPU_RUNTIME_COPY_H
