// What forces.cu gives other translation units (relocatable device code).
#pragma once

/// The softening added to every squared distance.
extern __constant__ float Softening;

/// The acceleration body A gets from a unit mass at B.
__device__ float3 pairForce(float3 A, float3 B);
