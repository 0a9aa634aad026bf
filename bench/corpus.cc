// Benchmark corpus generator.
#include "corpus.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace tvmls::bench {

namespace {

std::vector<std::string> LoadExamples() {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(TVMLS_SOURCE_DIR "/examples")) {
    if (entry.path().extension() == ".py") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<std::string> texts;
  for (const auto& path : paths) texts.push_back(ReadFileText(path.string()));
  if (texts.empty()) throw std::runtime_error("no examples found under " TVMLS_SOURCE_DIR "/examples");
  return texts;
}

}  // namespace

std::string MakeCorpus(size_t lines) {
  static const std::vector<std::string> examples = LoadExamples();
  // Top-level `class X` / `def f` names get a per-copy suffix (and so do their `cls = X` uses).
  static const std::regex top_level_name(R"(^(class|def) ([A-Za-z_][A-Za-z_0-9]*))",
                                         std::regex::multiline);
  std::string out;
  size_t count = 0;
  for (size_t copy = 0; count < lines; ++copy) {
    const std::string& text = examples[copy % examples.size()];
    std::string suffix = "_c" + std::to_string(copy);
    std::string renamed = std::regex_replace(text, top_level_name, "$1 $2" + suffix);
    out += renamed;
    if (!out.empty() && out.back() != '\n') out += '\n';
    out += '\n';
    count = static_cast<size_t>(std::count(out.begin(), out.end(), '\n'));
  }
  return out;
}

std::vector<size_t> EditSites(const std::string& text, size_t count) {
  std::vector<size_t> sites;
  if (text.empty() || count == 0) return sites;
  size_t stride = text.size() / count;
  for (size_t k = 0; k < count; ++k) {
    // From an evenly spaced start, find the next identifier on an indented line.
    for (size_t i = k * stride; i + 1 < text.size(); ++i) {
      size_t line_start = text.rfind('\n', i);
      line_start = line_start == std::string::npos ? 0 : line_start + 1;
      bool indented = text[line_start] == ' ';
      size_t first = text.find_first_not_of(' ', line_start);
      bool comment = first != std::string::npos && text[first] == '#';
      char c = text[i];
      if (indented && !comment && (std::isalpha(static_cast<unsigned char>(c)) || c == '_') &&
          !std::isalnum(static_cast<unsigned char>(text[i - 1]))) {
        // Not inside a string literal: require no quote earlier on the line (cheap heuristic).
        if (text.find_first_of("\"'", line_start) > i) {
          sites.push_back(i);
          break;
        }
      }
    }
  }
  return sites;
}

double Percentile(std::vector<double> samples, double q) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  return samples[static_cast<size_t>(q * static_cast<double>(samples.size() - 1) + 0.5)];
}

std::string ReadFileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace tvmls::bench
