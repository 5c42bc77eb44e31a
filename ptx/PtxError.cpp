//===- PtxError.cpp - Errors of the PTX front end -------------------------===//

#include "PtxError.h"

#include "llvm/Support/raw_ostream.h"

namespace cucpu::ptx {

char PtxError::ID = 0;

void PtxError::log(llvm::raw_ostream &OS) const {
  if (Line)
    OS << "line " << Line << ": ";
  OS << Message;
}

} // namespace cucpu::ptx
