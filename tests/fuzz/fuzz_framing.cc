// Fuzz target: raw bytes into the LSP framing (protocol/framing.h), fed whole, split at points the
// input chooses, and byte by byte: the same frames and errors every way (the idea of the property
// test in tests/protocol/framing_test.cc, with the fuzzer writing the streams).
//
// Input: one control byte, then the split points, then the wire bytes. Control bits 0-2: the
// number of split points k (each 2 bytes, little-endian, an offset into the wire modulo its size);
// bit 3: small limits (a 40-byte header, 48-byte body, so the limits are reached often) instead
// of the defaults.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "framing.h"
#include "fuzz_util.h"

namespace tvmls::fuzz {
namespace {

using protocol::Frame;
using protocol::FrameReader;
using protocol::FramingLimits;

// Every frame of `wire` fed in pieces ending at `cuts` (sorted offsets), as "M:<body>",
// "E:<error>" or "F:<error>"; reading stops at a fatal error (the session ends there).
std::vector<std::string> Frames(std::string_view wire, const std::vector<size_t>& cuts,
                                const FramingLimits& limits) {
  FrameReader reader(limits);
  std::vector<std::string> out;
  bool fatal = false;
  size_t at = 0;
  auto feed_until = [&](size_t end) {
    if (fatal || end <= at) return;
    reader.Feed(wire.substr(at, end - at));
    at = end;
    for (Frame f = reader.Next(); !fatal && f.kind != Frame::Kind::kNeedMore; f = reader.Next()) {
      if (f.kind == Frame::Kind::kMessage) {
        FUZZ_CHECK(f.body.size() <= limits.max_content_length);
        out.push_back("M:" + f.body);
      } else {
        FUZZ_CHECK(!f.error.empty());
        out.push_back((f.fatal ? "F:" : "E:") + f.error);
        fatal = f.fatal;
      }
    }
    // What is kept is bounded by the limits, not by what a peer sends.
    FUZZ_CHECK(fatal || reader.Buffered() <= limits.max_header_bytes + limits.max_content_length + 4);
  };
  for (size_t cut : cuts) feed_until(cut);
  feed_until(wire.size());
  return out;
}

}  // namespace
}  // namespace tvmls::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tvmls::fuzz;
  if (size < 1 || size > 65536) return -1;
  const unsigned control = data[0];
  size_t k = control & 7;
  if (size < 1 + 2 * k) return -1;
  std::string_view wire(reinterpret_cast<const char*>(data) + 1 + 2 * k, size - 1 - 2 * k);
  FramingLimits limits;
  if (control & 8) limits = FramingLimits{40, 48};
  std::vector<size_t> cuts;
  for (size_t i = 0; i < k; ++i) {
    size_t v = data[1 + 2 * i] | static_cast<size_t>(data[2 + 2 * i]) << 8;
    cuts.push_back(wire.empty() ? 0 : v % wire.size());
  }
  std::sort(cuts.begin(), cuts.end());

  std::vector<std::string> whole = Frames(wire, {}, limits);
  FUZZ_CHECK(Frames(wire, cuts, limits) == whole);
  std::vector<size_t> every;
  for (size_t i = 1; i < wire.size(); ++i) every.push_back(i);
  FUZZ_CHECK(Frames(wire, every, limits) == whole);
  // A frame encoded for sending reads back as itself, after whatever came before.
  std::string body(wire.substr(0, std::min<size_t>(wire.size(), 32)));
  std::vector<std::string> alone = Frames(tvmls::protocol::EncodeFrame(body), {}, limits);
  if (body.size() <= limits.max_content_length) {
    FUZZ_CHECK(alone.size() == 1 && alone[0] == "M:" + body);
  }
  return 0;
}
