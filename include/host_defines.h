/*
 * host_defines.h - CUDA's qualifiers for a host compiler.
 *
 * cucpu's own text. As in NVIDIA's toolkit, the definitions live in
 * crt/host_defines.h, which this header includes.
 */
#ifndef CUCPU_HOST_DEFINES_H
#define CUCPU_HOST_DEFINES_H

#include "crt/host_defines.h"

#endif /* CUCPU_HOST_DEFINES_H */
