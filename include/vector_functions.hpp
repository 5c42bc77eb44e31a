/*
 * vector_functions.hpp - the definitions of the make_* constructors.
 *
 * cucpu's own text. NVIDIA's toolkit declares the constructors in
 * vector_functions.h and defines them here; cucpu defines them in
 * vector_functions.h, which this header includes.
 */
#ifndef __VECTOR_FUNCTIONS_HPP__
#define __VECTOR_FUNCTIONS_HPP__

#include "vector_functions.h"

#endif /* __VECTOR_FUNCTIONS_HPP__ */
