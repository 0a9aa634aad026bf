// LSP base-protocol framing: `Content-Length: N\r\n\r\n<N bytes of JSON>`.
//
// A push parser: feed it bytes as they arrive, take complete message bodies out. Header names are
// case-insensitive; Content-Type is accepted and ignored; limits keep a hostile peer from making
// the server allocate (a 2 GB Content-Length is refused before any allocation).
//
// Errors: a complete header without a usable Content-Length is reported, and since the length of
// the body that (usually) follows it is unknown, reading resumes at the next place where a header
// may start: the next "Content-Length:" (any case), found anywhere after the bad header (a body is
// directly followed by the next header, with no line break); or after its first byte when it had
// no Content-Length line at all (garbage glued to the front of a header).
// Such a place inside a skipped body is a false start: if its header is bad too it is reported as
// well (and reading resumes after its first byte), if its header does not end within
// max_header_bytes it is passed over silently. A Content-Length over the limit is reported and its
// body skipped unread (the bytes are discarded as they arrive), so reading goes on in sync. A
// header longer than max_header_bytes (other than at such a false start) is fatal: its
// Content-Length is not trusted, so there is no frame boundary to resume at (and whether its end
// had arrived yet depends only on how reads split the bytes).
#ifndef TVMLS_PROTOCOL_FRAMING_H_
#define TVMLS_PROTOCOL_FRAMING_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tvmls::protocol {

struct FramingLimits {
  /// LSP headers are two short lines; 8 KiB is generous.
  size_t max_header_bytes = 8 * 1024;
  /// The server analyses documents of up to 16 MiB (server/cli.h kMaxFileBytes); a didOpen or a
  /// full didChange carries one JSON-escaped, which for source text stays under twice its size.
  /// 64 MiB leaves room for that and the envelope; anything larger is refused unread.
  size_t max_content_length = 64u * 1024 * 1024;
};

/// Result of taking one message out of the buffer.
struct Frame {
  enum class Kind { kNeedMore, kMessage, kError } kind = Kind::kNeedMore;
  std::string body;   // kMessage: the JSON text.
  std::string error;  // kError: what was wrong with the header; the frame was skipped.
  bool fatal = false;  // kError: the stream cannot be resynchronised; stop reading it.
};

/// Not thread-safe; one reader owns it.
class FrameReader {
 public:
  explicit FrameReader(FramingLimits limits = {}) : limits_(limits) {}

  /// Appends raw bytes from the transport.
  void Feed(std::string_view bytes);

  /// Takes the next complete message, an error for a malformed header (after which reading goes on
  /// with the bytes that follow the bad header, or the skipped body; unless fatal), or kNeedMore.
  Frame Next();

  /// Bytes buffered but not yet consumed.
  size_t Buffered() const { return buffer_.size() - consumed_; }

 private:
  FramingLimits limits_;
  std::string buffer_;
  size_t consumed_ = 0;
  std::optional<size_t> pending_length_;  // Header parsed, waiting for the body.
  size_t skip_ = 0;                       // Bytes of an over-limit body still to discard.
  bool resync_ = false;     // After a bad header: looking for the next "Content-Length:".
  bool candidate_ = false;  // The header being read starts where resynchronisation found one.
};

/// Frames a JSON body for sending.
std::string EncodeFrame(std::string_view body);
/// The same in place: the header is inserted before `*body`, which is not copied when the
/// string has room for it (a megabyte of diagnostics written once, not once more per layer).
void FrameInPlace(std::string* body);

}  // namespace tvmls::protocol

#endif  // TVMLS_PROTOCOL_FRAMING_H_
