//===- Atomics.cpp - PTX instructions: Atomics
//---------------------------------===//

#include "Ops.h"

namespace cucpu::ptx {

void addAtomicOps(OpTable &T) { (void)T; }

} // namespace cucpu::ptx
