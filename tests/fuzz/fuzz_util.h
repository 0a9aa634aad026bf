// Helpers shared by the fuzz targets: a check that aborts (so libFuzzer and the replay main both
// report it, in release builds too), and positions picked from the input.
#ifndef TVMLS_TESTS_FUZZ_FUZZ_UTIL_H_
#define TVMLS_TESTS_FUZZ_FUZZ_UTIL_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

// A broken invariant is a finding: say which and abort (libFuzzer saves the input).
#define FUZZ_CHECK(cond)                                                                  \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                       \
    }                                                                                     \
  } while (0)

namespace tvmls::fuzz {

/// FNV-1a of the input: a deterministic choice per input (the same input replays the same way).
inline uint64_t Hash(std::string_view bytes) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return h;
}

/// A byte offset where an editor may place the cursor: not inside a UTF-8 sequence, not between
/// the \r and \n of a line break (LSP positions never map there).
inline bool CursorOffset(std::string_view text, size_t offset) {
  if (offset > text.size()) return false;
  if (offset < text.size() && (static_cast<unsigned char>(text[offset]) & 0xC0) == 0x80) return false;
  if (offset > 0 && offset < text.size() && text[offset - 1] == '\r' && text[offset] == '\n') return false;
  return true;
}

/// Up to `limit` cursor offsets taken from the text where queries are interesting: the start and
/// end of the text, and the places just after `.`, `(`, `,`, `=`, `[`, `:`, a quote or a space,
/// and at the start and end of identifiers. When there are more, an evenly spread subset whose
/// phase depends on the input.
inline std::vector<uint32_t> QueryOffsets(std::string_view text, size_t limit) {
  auto ident = [](char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  std::vector<uint32_t> all;
  for (size_t i = 0; i <= text.size(); ++i) {
    bool pick = i == 0 || i == text.size();
    if (!pick) {
      char prev = text[i - 1], here = text[i];
      pick = std::string_view(".(,=[:\"' ").find(prev) != std::string_view::npos ||
             ident(prev) != ident(here);
    }
    if (pick && CursorOffset(text, i)) all.push_back(static_cast<uint32_t>(i));
  }
  if (all.size() <= limit) return all;
  std::vector<uint32_t> chosen;
  size_t stride = all.size() / limit;
  size_t phase = static_cast<size_t>(Hash(text) % stride);
  for (size_t i = phase; i < all.size() && chosen.size() < limit; i += stride) chosen.push_back(all[i]);
  chosen.push_back(static_cast<uint32_t>(text.size()));
  return chosen;
}

}  // namespace tvmls::fuzz

#endif  // TVMLS_TESTS_FUZZ_FUZZ_UTIL_H_
