// Text of the model's signatures, for every query and hover that shows one.
#include "model/model.h"

namespace tvmls::analysis {

std::string PrimParamText(const PrimSignature& sig, size_t index) {
  const PrimSignature::Param& p = sig.params[index];
  std::string text = p.name;
  if (p.buffer >= 0 && p.buffer < static_cast<int>(sig.buffers.size())) {
    const BufferDecl& b = sig.buffers[p.buffer];
    text += ": T.Buffer(" + (b.shape ? types::PrintShape(*b.shape) : "?") + ", \"" + b.dtype + "\")";
  } else if (p.kind == PrimSignature::Param::Kind::kScalar) {
    text += ": T." + p.dtype;
  } else if (p.kind == PrimSignature::Param::Kind::kHandle) {
    text += ": T.handle";
  }
  return text;
}

std::string PrimSignatureText(const PrimSignature& sig) {
  std::string text = "(";
  for (size_t i = 0; i < sig.params.size(); ++i) {
    if (i) text += ", ";
    text += PrimParamText(sig, i);
  }
  return text + ")";
}

}  // namespace tvmls::analysis
