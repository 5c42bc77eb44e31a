/*
 * crt/host_config.h - host compiler configuration of a CUDA compilation.
 *
 * cucpu's own text. NVIDIA's header rejects host compilers nvcc does not
 * support; cucpu's headers work with any C99 or C++11 compiler, so this
 * header only brings the qualifiers of crt/host_defines.h, which every file
 * including it expects.
 */
#ifndef __CUCPU_CRT_HOST_CONFIG_H__
#define __CUCPU_CRT_HOST_CONFIG_H__

#include "crt/host_defines.h"

#endif /* __CUCPU_CRT_HOST_CONFIG_H__ */
