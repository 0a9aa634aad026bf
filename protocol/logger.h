// Leveled logging for the protocol layer and the server on top of it.
//
// The language server's stdout carries only protocol frames, so logs go elsewhere: Logger::Stderr
// writes one line per message to stderr. A Logger is a cheap, copyable handle to a shared sink; it
// is thread-safe (every copy may be used from any thread at once) provided its sink is, which the
// sinks made here are.
#ifndef TVMLS_PROTOCOL_LOGGER_H_
#define TVMLS_PROTOCOL_LOGGER_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tvmls::protocol {

/// Severity, most severe first. A logger at level L emits messages at L and above (kWarn emits
/// errors and warnings). kOff emits nothing.
enum class LogLevel { kOff = 0, kError, kWarn, kInfo, kDebug };

/// "off", "error", "warn", "info", "debug" (also "warning"); nullopt for anything else. For a
/// `--log-level` flag.
std::optional<LogLevel> ParseLogLevel(std::string_view text);
std::string_view ToString(LogLevel level);

class Logger {
 public:
  /// Receives every emitted message (already filtered by level). Called from any thread, possibly
  /// concurrently: it must be thread-safe. Must not call back into the protocol layer.
  using Sink = std::function<void(LogLevel level, std::string_view message)>;

  /// A logger that discards everything.
  Logger() = default;
  Logger(LogLevel level, Sink sink);

  /// Writes "tvmls <level>: <prefix><message>\n" to stderr, one write per line, serialized by a
  /// process-wide mutex.
  static Logger Stderr(LogLevel level);

  /// A logger sharing this one's sink and level that puts `prefix` before every message (e.g.
  /// "session 3: "). Prefixes accumulate.
  Logger WithPrefix(std::string prefix) const;

  LogLevel level() const { return level_; }
  bool Enabled(LogLevel level) const {
    return sink_ != nullptr && level != LogLevel::kOff && level <= level_;
  }

  void Log(LogLevel level, std::string_view message) const;
  void Error(std::string_view message) const { Log(LogLevel::kError, message); }
  void Warn(std::string_view message) const { Log(LogLevel::kWarn, message); }
  void Info(std::string_view message) const { Log(LogLevel::kInfo, message); }
  void Debug(std::string_view message) const { Log(LogLevel::kDebug, message); }

 private:
  LogLevel level_ = LogLevel::kOff;
  std::shared_ptr<const Sink> sink_;
  std::string prefix_;
};

}  // namespace tvmls::protocol

#endif  // TVMLS_PROTOCOL_LOGGER_H_
