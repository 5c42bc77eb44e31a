// The launch-latency kernel: does nothing, so a launch costs only the runtime.
__kernel void empty(void) {}
