/*
 * host_config.h - host compiler configuration of a CUDA compilation.
 *
 * cucpu's own text. As in NVIDIA's toolkit, the content is in
 * crt/host_config.h, which this header includes.
 */
#ifndef __CUCPU_HOST_CONFIG_H__
#define __CUCPU_HOST_CONFIG_H__

#include "crt/host_config.h"

#endif /* __CUCPU_HOST_CONFIG_H__ */
