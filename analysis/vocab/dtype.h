// TVM dtypes: one parser, one printer and the facts derived from them (bits, lanes, element
// size, integer / float class, hover text). What reads a dtype string or a `T.<dtype>` name
// asks here: operator inference (ops/), the lowering and annotations (model/), storage checks
// (check/), completion and semantic tokens (query/). (The shape-expression parser of arith/
// only knows that `T.int8(e)` ... `T.uint64(e)` casts are `e` again.)
//
// The rule is TVM's. ParseDType is tvm-ffi's StringViewToDLDataType_ (src/ffi/dtype.cc, the same
// grammar in the commit TVM v0.23.0 pins and at tvm-ffi HEAD): a family (`int`, `uint`, `float`,
// `bfloat`, `bool`, `handle`) with optional bits (1 to 255; none or 0 is the family's default:
// 32, bfloat 16, bool 8, handle 64) and optional lanes (`x4`: 1 to 65535; `xvscalex4`: a
// scalable vector), a named 8/6/4-bit float (`float8_e4m3fn`, ...) with optional fixed lanes,
// or `void` / "" (void). Beyond the parser, bfloat must have 16 bits, as TVM's DataType
// constructor checks (v0.23 include/tvm/runtime/data_type.h). Not modelled: `custom[...]` types
// (they need TVM's runtime registry) and the short aliases only tvm-ffi HEAD reads (`i32`,
// `f16`, `bf16`, `fp8_e4m3fn`, `float4_e2m1fn_x2`).
//
// DTypeToString is DLDataTypeToString: the spelling TVM prints ("float32", "float16x4", "bool",
// "float8_e4m3fn", "int32xvscalex4"; "" for void). tvmls compares dtypes as text, so a dtype is
// *known* when it is in that spelling: IsKnownDType("int32") but not IsKnownDType("int"), which
// TVM reads as int32 too.
#ifndef TVMLS_ANALYSIS_VOCAB_DTYPE_H_
#define TVMLS_ANALYSIS_VOCAB_DTYPE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tvmls::vocab {

/// The type code (DLPack's, as TVM's DataType::TypeCode), plus kVoid for TVM's void dtype (which
/// DLPack spells as a handle of 0 bits and 0 lanes).
enum class DTypeCode {
  kInt,
  kUInt,
  kFloat,
  kHandle,
  kBFloat,
  kBool,
  kFloat8_e3m4,
  kFloat8_e4m3,
  kFloat8_e4m3b11fnuz,
  kFloat8_e4m3fn,
  kFloat8_e4m3fnuz,
  kFloat8_e5m2,
  kFloat8_e5m2fnuz,
  kFloat8_e8m0fnu,
  kFloat6_e2m3fn,
  kFloat6_e3m2fn,
  kFloat4_e2m1fn,
  kVoid,
};

/// A parsed dtype. Invariants: bits in 1..255 and lanes in 1..65535, except void (0 and 0).
struct DType {
  DTypeCode code = DTypeCode::kVoid;
  int bits = 0;
  /// Lanes of a fixed vector (1 for a scalar), or the vscale factor when `scalable`.
  int lanes = 0;
  /// `xvscalex<N>`: vscale * N lanes, unknown before run time.
  bool scalable = false;
};

/// Parses a dtype string as TVM does (see the file comment); nullopt where TVM raises. Accepts
/// every spelling TVM accepts, not only the printed one: "int" (int32), "float32x04"
/// (float32x4), "void" and "" (void).
std::optional<DType> ParseDType(std::string_view text);

/// How TVM prints `dtype` (DLDataTypeToString): "" for void, the family and bits otherwise (no
/// bits for bool of 8 bits, for handle and for the named floats), then `x<lanes>` for a vector or
/// `xvscalex<N>` for a scalable one (none for handle).
std::string DTypeToString(const DType& dtype);

/// `text` is a dtype other than void, in the spelling TVM prints (ParseDType accepts it and
/// DTypeToString gives it back). The dtype names of `T.<dtype>` (T.int32, T.float16x4) are
/// recognised with this; so are dtypes compared as text.
bool IsKnownDType(std::string_view text);

/// Bytes one element of `text` occupies ("float32" -> 4, "bool" -> 1, "float16x4" -> 8, "handle"
/// -> 8): bits * lanes / 8, nullopt unless that is a whole number (int4, float4_e2m1fn, int4x3),
/// for void, for scalable vectors and for text ParseDType rejects. Any spelling ParseDType accepts
/// ("int" -> 4).
std::optional<int64_t> DTypeBytes(std::string_view text);

/// What a dtype is, for hovers: "32-bit floating point; 4 bytes per element", "8-bit signed
/// integer, a vector of 4 lanes; 4 bytes per element"; "" for void and for text ParseDType
/// rejects.
std::string DescribeDType(std::string_view text);

/// ParseDType accepts `text` and it is a float: float, bfloat or a named 8/6/4-bit float.
bool IsFloatDType(std::string_view text);
/// ParseDType accepts `text` and it is an integer: int or uint (bool is neither).
bool IsIntDType(std::string_view text);

/// The scalar dtype names offered for completion (common ones first; no lane variants), each
/// IsKnownDType.
const std::vector<const char*>& CompletionDTypes();

}  // namespace tvmls::vocab

#endif  // TVMLS_ANALYSIS_VOCAB_DTYPE_H_
