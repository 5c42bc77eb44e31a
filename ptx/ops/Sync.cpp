//===- Sync.cpp - PTX instructions: Sync ---------------------------------===//

#include "Ops.h"

namespace cucpu::ptx {

void addSyncOps(OpTable &T) { (void)T; }

} // namespace cucpu::ptx
