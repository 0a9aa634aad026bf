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
  }
  std::string_view data(buffer_);
  data.remove_prefix(consumed_);
  if (!pending_length_) {
    size_t header_end = data.find("\r\n\r\n");
    if (header_end == std::string_view::npos) {
      if (data.size() > limits_.max_header_bytes) {
        frame.kind = Frame::Kind::kError;
        frame.error = "header longer than " + std::to_string(limits_.max_header_bytes) + " bytes";
        frame.fatal = true;  // No end of header in sight: nowhere to resume.
        consumed_ = buffer_.size();
      }
      return frame;
    }
    if (header_end > limits_.max_header_bytes) {
      // Fatal like the unterminated case: whether the end was seen depends only on how the
      // bytes happened to be split into reads.
      frame.kind = Frame::Kind::kError;
      frame.error = "header longer than " + std::to_string(limits_.max_header_bytes) + " bytes";
      frame.fatal = true;
      consumed_ = buffer_.size();
      return frame;
    }
    std::string_view header = data.substr(0, header_end);
    consumed_ += header_end + 4;
    std::optional<size_t> length;
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

}  // namespace tvmls::protocol
