//===- Table.cpp - The table of PTX instruction handlers ------------------===//

#include "Ops.h"

namespace cucpu::ptx {

const OpTable &opTable() {
  static const OpTable Table = [] {
    OpTable T;
    addArithmeticOps(T);
    addBitOps(T);
    addConversionOps(T);
    addMemoryOps(T);
    addAtomicOps(T);
    addControlOps(T);
    addSyncOps(T);
    addMathOps(T);
    addTextureOps(T);
    addVideoOps(T);
    return T;
  }();
  return Table;
}

} // namespace cucpu::ptx
