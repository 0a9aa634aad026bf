// The operator table as data (op_table.cc); the registry (registry.cc) indexes it.
#ifndef TVMLS_ANALYSIS_OPS_OP_TABLE_H_
#define TVMLS_ANALYSIS_OPS_OP_TABLE_H_

#include <vector>

#include "ops/registry.h"

namespace tvmls::ops {

/// Every row, in table order: the registered ops as relax_ops.json lists them, then the
/// script-level helpers ("script.<path>"). Builds a fresh vector on every call; the registry calls
/// it once.
std::vector<OpInfo> BuildOpTable();

}  // namespace tvmls::ops

#endif  // TVMLS_ANALYSIS_OPS_OP_TABLE_H_
