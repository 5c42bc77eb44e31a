//===- Bits.cpp - PTX instructions: Bits ---------------------------------===//

#include "Ops.h"

namespace cucpu::ptx {

void addBitOps(OpTable &T) { (void)T; }

} // namespace cucpu::ptx
