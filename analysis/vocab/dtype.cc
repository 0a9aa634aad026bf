// The dtype parser and printer, after tvm-ffi's src/ffi/dtype.cc (StringViewToDLDataType_ and
// DLDataTypeToString_).
#include "vocab/dtype.h"

#include <cstdint>

namespace tvmls::vocab {

namespace {

// The 8/6/4-bit floats TVM names, longest first where one name is a prefix of another
// (`e4m3fnuz` before `e4m3fn` before `e4m3`).
struct NamedFloat {
  const char* name;
  DTypeCode code;
  int bits;
};
constexpr NamedFloat kNamedFloats[] = {
    {"float8_e4m3b11fnuz", DTypeCode::kFloat8_e4m3b11fnuz, 8},
    {"float8_e4m3fnuz", DTypeCode::kFloat8_e4m3fnuz, 8},
    {"float8_e4m3fn", DTypeCode::kFloat8_e4m3fn, 8},
    {"float8_e4m3", DTypeCode::kFloat8_e4m3, 8},
    {"float8_e5m2fnuz", DTypeCode::kFloat8_e5m2fnuz, 8},
    {"float8_e5m2", DTypeCode::kFloat8_e5m2, 8},
    {"float8_e3m4", DTypeCode::kFloat8_e3m4, 8},
    {"float8_e8m0fnu", DTypeCode::kFloat8_e8m0fnu, 8},
    {"float6_e2m3fn", DTypeCode::kFloat6_e2m3fn, 6},
    {"float6_e3m2fn", DTypeCode::kFloat6_e3m2fn, 6},
    {"float4_e2m1fn", DTypeCode::kFloat4_e2m1fn, 4},
};

// The families with a bit width, in the order TVM tries their prefixes.
struct Family {
  const char* prefix;
  DTypeCode code;
  int default_bits;
};
constexpr Family kFamilies[] = {
    {"int", DTypeCode::kInt, 32},       {"uint", DTypeCode::kUInt, 32},
    {"bool", DTypeCode::kBool, 8},      {"float", DTypeCode::kFloat, 32},
    {"handle", DTypeCode::kHandle, 64}, {"bfloat", DTypeCode::kBFloat, 16},
};

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Decimal digits at the front of `*s` (consumed); nullopt past `limit`. No digits give 0.
std::optional<uint32_t> Digits(std::string_view* s, uint32_t limit) {
  uint64_t value = 0;
  size_t i = 0;
  for (; i < s->size() && (*s)[i] >= '0' && (*s)[i] <= '9'; ++i) {
    value = value * 10 + static_cast<uint64_t>((*s)[i] - '0');
    if (value > limit) return std::nullopt;
  }
  s->remove_prefix(i);
  return static_cast<uint32_t>(value);
}

// TVM's parse_lanes and the end check: `x<N>` (N in 1..65535), with `scalable` also
// `xvscalex<N>`; nothing means one lane. False when the rest is anything else.
bool ParseLanes(std::string_view rest, bool scalable, DType* out) {
  out->lanes = 1;
  out->scalable = false;
  bool vscale = false;
  if (scalable && StartsWith(rest, "xvscale")) {
    vscale = true;
    rest.remove_prefix(7);
  }
  if (rest.empty() || rest[0] != 'x') return rest.empty();  // TVM: `int32xvscale` is int32
  rest.remove_prefix(1);
  size_t before = rest.size();
  std::optional<uint32_t> lanes = Digits(&rest, 65535);
  if (!lanes || rest.size() == before || *lanes == 0 || !rest.empty()) return false;
  out->lanes = static_cast<int>(*lanes);
  out->scalable = vscale;
  return true;
}

const char* CodeName(DTypeCode code) {
  switch (code) {
    case DTypeCode::kInt: return "int";
    case DTypeCode::kUInt: return "uint";
    case DTypeCode::kFloat: return "float";
    case DTypeCode::kHandle: return "handle";
    case DTypeCode::kBFloat: return "bfloat";
    case DTypeCode::kBool: return "bool";
    case DTypeCode::kVoid: return "";
    default: break;
  }
  for (const NamedFloat& f : kNamedFloats) {
    if (f.code == code) return f.name;
  }
  return "";
}

bool IsNamedFloat(DTypeCode code) {
  for (const NamedFloat& f : kNamedFloats) {
    if (f.code == code) return true;
  }
  return false;
}

}  // namespace

std::optional<DType> ParseDType(std::string_view text) {
  DType out;
  if (text.empty() || text == "void") return out;
  for (const char* prefix : {"float8_", "float6_", "float4_"}) {
    if (!StartsWith(text, prefix)) continue;
    for (const NamedFloat& f : kNamedFloats) {
      std::string_view name(f.name);
      if (!StartsWith(text, name)) continue;
      std::string_view rest = text.substr(name.size());
      if (!rest.empty() && rest[0] != 'x') continue;
      out.code = f.code;
      out.bits = f.bits;
      if (!ParseLanes(rest, /*scalable=*/false, &out)) return std::nullopt;
      return out;
    }
    return std::nullopt;  // TVM: unknown float8/float6/float4 type
  }
  for (const Family& family : kFamilies) {
    if (!StartsWith(text, family.prefix)) continue;
    std::string_view rest = text.substr(std::string_view(family.prefix).size());
    std::optional<uint32_t> bits = Digits(&rest, 255);
    if (!bits) return std::nullopt;
    out.code = family.code;
    out.bits = *bits != 0 ? static_cast<int>(*bits) : family.default_bits;
    // TVM's DataType constructor: a bfloat has 16 bits.
    if (family.code == DTypeCode::kBFloat && out.bits != 16) return std::nullopt;
    if (!ParseLanes(rest, /*scalable=*/true, &out)) return std::nullopt;
    return out;
  }
  return std::nullopt;
}

std::string DTypeToString(const DType& dtype) {
  if (dtype.code == DTypeCode::kVoid) return "";
  if (dtype.code == DTypeCode::kBool && dtype.bits == 8 && dtype.lanes == 1 && !dtype.scalable) {
    return "bool";
  }
  std::string out = CodeName(dtype.code);
  if (dtype.code == DTypeCode::kHandle) return out;
  if (!IsNamedFloat(dtype.code) && !(dtype.code == DTypeCode::kBool && dtype.bits == 8)) {
    out += std::to_string(dtype.bits);
  }
  // TVM keeps lanes in 16 bits, a scalable vector's negated, and prints them as a signed
  // 16-bit number.
  uint16_t stored = static_cast<uint16_t>(dtype.scalable ? -dtype.lanes : dtype.lanes);
  int16_t lanes = static_cast<int16_t>(stored);
  if (lanes > 1) {
    out += "x" + std::to_string(lanes);
  } else if (lanes < -1) {
    out += "xvscalex" + std::to_string(-lanes);
  }
  return out;
}

bool IsKnownDType(std::string_view text) {
  std::optional<DType> dtype = ParseDType(text);
  return dtype && dtype->code != DTypeCode::kVoid && DTypeToString(*dtype) == text;
}

std::optional<int64_t> DTypeBytes(std::string_view text) {
  std::optional<DType> dtype = ParseDType(text);
  if (!dtype || dtype->code == DTypeCode::kVoid || dtype->scalable) return std::nullopt;
  int64_t bits = static_cast<int64_t>(dtype->bits) * dtype->lanes;
  if (bits % 8 != 0) return std::nullopt;
  return bits / 8;
}

bool IsFloatDType(std::string_view text) {
  std::optional<DType> dtype = ParseDType(text);
  return dtype && (dtype->code == DTypeCode::kFloat || dtype->code == DTypeCode::kBFloat ||
                   IsNamedFloat(dtype->code));
}

bool IsIntDType(std::string_view text) {
  std::optional<DType> dtype = ParseDType(text);
  return dtype && (dtype->code == DTypeCode::kInt || dtype->code == DTypeCode::kUInt);
}

std::string DescribeDType(std::string_view text) {
  std::optional<DType> dtype = ParseDType(text);
  if (!dtype || dtype->code == DTypeCode::kVoid) return "";
  const char* kind = dtype->code == DTypeCode::kUInt    ? "unsigned integer"
                     : dtype->code == DTypeCode::kBool  ? "boolean"
                     : dtype->code == DTypeCode::kInt   ? "signed integer"
                     : IsFloatDType(text)               ? "floating point"
                                                        : "value";
  std::string out = std::to_string(dtype->bits) + "-bit " + kind;
  if (dtype->scalable) {
    out += ", a scalable vector of vscale x " + std::to_string(dtype->lanes) + " lanes";
  } else if (dtype->lanes > 1) {
    out += ", a vector of " + std::to_string(dtype->lanes) + " lanes";
  }
  if (std::optional<int64_t> bytes = DTypeBytes(text)) {
    out += "; " + std::to_string(*bytes) + (*bytes == 1 ? " byte" : " bytes") + " per element";
  }
  return out;
}

const std::vector<const char*>& CompletionDTypes() {
  static const std::vector<const char*> names = {
      "float32", "float16", "float64", "bfloat16", "int32", "int64", "int8", "int16", "uint8",
      "uint16", "uint32", "uint64", "bool", "float8_e4m3fn", "float8_e5m2", "float4_e2m1fn"};
  return names;
}

}  // namespace tvmls::vocab
