//===- Textures.cpp - PTX instructions: Textures
//---------------------------------===//

#include "Ops.h"

namespace cucpu::ptx {

void addTextureOps(OpTable &T) { (void)T; }

} // namespace cucpu::ptx
