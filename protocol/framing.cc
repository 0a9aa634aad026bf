// LSP base-protocol framing.
#include "framing.h"

#include <algorithm>
#include <cctype>

namespace tvmls::protocol {

namespace {

bool IEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Where a header may start after a bad one: "Content-Length" (any case), at most kMaxBlanks
// blanks, ':'. Bounded, so that a partial match at the end of the buffer keeps few bytes.
constexpr std::string_view kLengthName = "content-length";
constexpr size_t kMaxBlanks = 8;

enum class Match { kNo, kPartial, kYes };

Match MatchHeaderStart(std::string_view s) {
  size_t i = 0;
  for (; i < kLengthName.size(); ++i) {
    if (i == s.size()) return Match::kPartial;
    if (std::tolower(static_cast<unsigned char>(s[i])) != kLengthName[i]) return Match::kNo;
  }
  for (size_t blanks = 0; blanks <= kMaxBlanks; ++blanks, ++i) {
    if (i == s.size()) return Match::kPartial;
    if (s[i] == ':') return Match::kYes;
    if (s[i] != ' ' && s[i] != '\t') return Match::kNo;
  }
  return Match::kNo;
}

}  // namespace

namespace {
constexpr size_t kShrinkAbove = 1 << 20;
}  // namespace

void FrameReader::Feed(std::string_view bytes) {
  if (skip_ > 0) {
    size_t n = std::min(skip_, bytes.size());
    skip_ -= n;
    bytes.remove_prefix(n);
  }
  buffer_.append(bytes);
}

Frame FrameReader::Next() {
  Frame frame;
  // Compact occasionally so the buffer does not grow without bound.
  if (consumed_ > 0 && consumed_ * 2 >= buffer_.size()) {
    buffer_.erase(0, consumed_);
    consumed_ = 0;
    // After a large message (a didOpen of a 5 MB file) give the memory back.
    if (buffer_.capacity() > kShrinkAbove && buffer_.size() * 4 < buffer_.capacity()) {
      buffer_.shrink_to_fit();
    }
  }
  std::string_view data(buffer_);
  data.remove_prefix(consumed_);
  if (!pending_length_) {
    size_t header_end = std::string_view::npos;
    while (true) {
      if (resync_) {
        // After a bad header the body's length is unknown: skip to the next place where a
        // header may start. Only a partial match at the very end is kept.
        size_t start = 0;
        Match match = Match::kNo;
        for (; start < data.size(); ++start) {
          match = MatchHeaderStart(data.substr(start));
          if (match != Match::kNo) break;
        }
        consumed_ += start;
        data.remove_prefix(start);
        if (match != Match::kYes) return frame;
        resync_ = false;
        candidate_ = true;
      }
      // The end of the header, looked for only where it is within the limit: a header of at most
      // max_header_bytes ends within the first max_header_bytes + 4 bytes. It is overlong only
      // once all of those have arrived without the terminator (a read may end inside it).
      const size_t window = limits_.max_header_bytes + 4;
      header_end = data.substr(0, window).find("\r\n\r\n");
      bool overlong = header_end == std::string_view::npos && data.size() >= window;
      if (!overlong) break;
      if (candidate_) {
        // A "Content-Length:" found while resynchronising whose header does not end in time:
        // text inside a skipped body, not a header. Look further.
        consumed_ += 1;
        data.remove_prefix(1);
        resync_ = true;
        candidate_ = false;
        continue;
      }
      // Fatal whether or not its end has arrived (that depends only on how the bytes happened
      // to be split into reads): its Content-Length is not trusted, nowhere to resume.
      frame.kind = Frame::Kind::kError;
      frame.error = "header longer than " + std::to_string(limits_.max_header_bytes) + " bytes";
      frame.fatal = true;
      consumed_ = buffer_.size();
      return frame;
    }
    if (header_end == std::string_view::npos) return frame;  // Need more.
    std::string_view header = data.substr(0, header_end);
    const size_t header_start = consumed_;
    const bool candidate = candidate_;
    consumed_ += header_end + 4;
    candidate_ = false;
    std::optional<size_t> length;
    bool length_line = false;
    std::string problem;
    while (!header.empty()) {
      size_t eol = header.find("\r\n");
      std::string_view line = header.substr(0, eol);
      header.remove_prefix(eol == std::string_view::npos ? header.size() : eol + 2);
      size_t colon = line.find(':');
      if (colon == std::string_view::npos) {
        problem = "header line without ':'";
        continue;
      }
      std::string_view name = Trim(line.substr(0, colon));
      std::string_view value = Trim(line.substr(colon + 1));
      if (IEquals(name, "Content-Length")) {
        length_line = true;
        if (value.empty() || value.size() > 19) {
          problem = "bad Content-Length";
          continue;
        }
        size_t n = 0;
        bool digits = true;
        for (char c : value) {
          if (c < '0' || c > '9') digits = false;
          else n = n * 10 + static_cast<size_t>(c - '0');
        }
        if (!digits) {
          problem = "bad Content-Length";
          continue;
        }
        length = n;
      }
      // Content-Type and unknown headers are ignored.
    }
    if (!length) {
      frame.kind = Frame::Kind::kError;
      frame.error = problem.empty() ? "missing Content-Length header" : problem;
      // Its body (if any) has an unknown length: resume at the next header, which directly
      // follows that body. Without any Content-Length line this may not have been a header at
      // all but garbage glued to the front of one, and a header found while resynchronising may
      // be text in a skipped body: in both cases look inside it too.
      if (!length_line || candidate) consumed_ = header_start + 1;
      resync_ = true;
      return frame;
    }
    if (*length > limits_.max_content_length) {
      frame.kind = Frame::Kind::kError;
      frame.error = "Content-Length " + std::to_string(*length) + " exceeds the limit of " +
                    std::to_string(limits_.max_content_length) + " bytes";
      // Skip the body without storing it: what is buffered now, the rest as Feed receives it.
      size_t take = std::min(*length, buffer_.size() - consumed_);
      consumed_ += take;
      skip_ = *length - take;
      return frame;
    }
    pending_length_ = *length;
    data = std::string_view(buffer_).substr(consumed_);
  }
  if (data.size() < *pending_length_) return frame;
  frame.kind = Frame::Kind::kMessage;
  frame.body.assign(data.substr(0, *pending_length_));
  consumed_ += *pending_length_;
  pending_length_.reset();
  return frame;
}

std::string EncodeFrame(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

void FrameInPlace(std::string* body) {
  body->insert(0, "Content-Length: " + std::to_string(body->size()) + "\r\n\r\n");
}

}  // namespace tvmls::protocol
