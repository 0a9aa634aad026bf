// Leveled logging.
#include "logger.h"

#include <cstdio>
#include <mutex>

namespace tvmls::protocol {

std::optional<LogLevel> ParseLogLevel(std::string_view text) {
  if (text == "off") return LogLevel::kOff;
  if (text == "error") return LogLevel::kError;
  if (text == "warn" || text == "warning") return LogLevel::kWarn;
  if (text == "info") return LogLevel::kInfo;
  if (text == "debug") return LogLevel::kDebug;
  return std::nullopt;
}

std::string_view ToString(LogLevel level) {
  switch (level) {
    case LogLevel::kOff: return "off";
    case LogLevel::kError: return "error";
    case LogLevel::kWarn: return "warn";
    case LogLevel::kInfo: return "info";
    case LogLevel::kDebug: return "debug";
  }
  return "?";
}

Logger::Logger(LogLevel level, Sink sink)
    : level_(level), sink_(sink ? std::make_shared<const Sink>(std::move(sink)) : nullptr) {}

Logger Logger::Stderr(LogLevel level) {
  return Logger(level, [](LogLevel message_level, std::string_view message) {
    static std::mutex mu;
    std::string line = "tvmls ";
    line += ToString(message_level);
    line += ": ";
    line += message;
    line += '\n';
    std::lock_guard<std::mutex> lock(mu);
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
  });
}

Logger Logger::WithPrefix(std::string prefix) const {
  Logger copy = *this;
  copy.prefix_ += prefix;
  return copy;
}

void Logger::Log(LogLevel level, std::string_view message) const {
  if (!Enabled(level)) return;
  if (prefix_.empty()) {
    (*sink_)(level, message);
  } else {
    std::string text = prefix_;
    text += message;
    (*sink_)(level, text);
  }
}

}  // namespace tvmls::protocol
