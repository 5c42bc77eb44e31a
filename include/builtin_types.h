/*
 * builtin_types.h - the CUDA types a host program gets with one include.
 *
 * cucpu's own text. As NVIDIA's, it includes device_types.h, driver_types.h,
 * surface_types.h, texture_types.h and vector_types.h; driver-API programs
 * include it for dim3, the vector types and the runtime's enumerations.
 */
#ifndef CUCPU_BUILTIN_TYPES_H
#define CUCPU_BUILTIN_TYPES_H

#include "device_types.h"
#include "driver_types.h"
#include "surface_types.h"
#include "texture_types.h"
#include "vector_types.h"

#endif /* CUCPU_BUILTIN_TYPES_H */
