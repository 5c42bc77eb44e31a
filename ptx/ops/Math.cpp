//===- Math.cpp - PTX instructions: Math ---------------------------------===//

#include "Ops.h"

namespace cucpu::ptx {

void addMathOps(OpTable &T) { (void)T; }

} // namespace cucpu::ptx
