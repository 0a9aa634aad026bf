#include "settings.h"

#include <limits>

#include "lsp_convert.h"
#include "project_config.h"

namespace tvmls::server {

using nlohmann::json;

std::optional<analysis::Severity> Settings::SeverityOf(const analysis::Diagnostic& d) const {
  if (severity.empty()) return d.severity;
  auto it = severity.find(d.code);
  if (it == severity.end()) return d.severity;
  return it->second;
}

const json& SettingsSection(const json& value) {
  if (value.is_object()) {
    auto it = value.find("tvmls");
    if (it != value.end() && it->is_object()) return *it;
  }
  return value;
}

void ApplySettings(const json& section, bool initialization, Settings* settings,
                   std::vector<std::string>* problems) {
  if (!section.is_object()) {
    if (!section.is_null()) problems->push_back("settings: expected an object");
    return;
  }
  if (auto it = section.find("severity"); it != section.end() && !it->is_null()) {
    if (!it->is_object()) {
      problems->push_back("severity: expected an object mapping codes to severities");
    } else {
      for (const auto& [code, value] : it->items()) {
        std::optional<analysis::Severity> parsed;
        if (value.is_string()) parsed = ParseSeverity(value.get<std::string>());
        if (value.is_string() && value.get<std::string>() == "off") {
          settings->severity[code] = std::nullopt;
        } else if (parsed) {
          settings->severity[code] = parsed;
        } else {
          problems->push_back("severity." + code +
                              ": expected \"error\", \"warning\", \"information\", \"hint\" or "
                              "\"off\", got " +
                              value.dump());
        }
      }
    }
  }
  if (auto it = section.find("assumedUpperBound"); it != section.end() && !it->is_null()) {
    if (it->is_number_integer() && it->get<int64_t>() >= 0) {
      settings->options.assumed_upper_bound = it->get<int64_t>();
      settings->bound_given = true;
    } else {
      problems->push_back("assumedUpperBound: expected a non-negative integer, got " + it->dump());
    }
  }
  if (auto it = section.find("era"); it != section.end() && !it->is_null()) {
    std::string era = it->is_string() ? it->get<std::string>() : "";
    settings->era_given = era == "auto" || era == "classic" || era == "current";
    if (era == "auto") {
      settings->options.era = analysis::Era::kAuto;
    } else if (era == "classic") {
      settings->options.era = analysis::Era::kClassic;
    } else if (era == "current") {
      settings->options.era = analysis::Era::kCurrent;
    } else {
      problems->push_back("era: expected \"auto\", \"classic\" or \"current\", got " + it->dump());
    }
  }
  if (auto it = section.find("expectedFailures"); it != section.end() && !it->is_null()) {
    if (it->is_boolean()) {
      settings->options.expected_failures = it->get<bool>();
      settings->expected_failures_given = true;
    } else {
      problems->push_back("expectedFailures: expected true or false, got " + it->dump());
    }
  }
  if (auto it = section.find("debounceMs"); it != section.end() && !it->is_null()) {
    if (!initialization) {
      problems->push_back("debounceMs: only read from initializationOptions");
    } else if (it->is_number_integer() && it->get<int64_t>() >= 0 &&
               it->get<int64_t>() <= 60000) {
      settings->debounce_ms = static_cast<int>(it->get<int64_t>());
    } else {
      problems->push_back("debounceMs: expected an integer from 0 to 60000, got " + it->dump());
    }
  }
  if (auto it = section.find("codeDescriptionBase"); it != section.end() && !it->is_null()) {
    if (!initialization) {
      problems->push_back("codeDescriptionBase: only read from initializationOptions");
    } else if (it->is_string()) {
      settings->docs_base = it->get<std::string>();
    } else {
      problems->push_back("codeDescriptionBase: expected a string, got " + it->dump());
    }
  }
  if (auto it = section.find("semanticTokensForPython"); it != section.end() && !it->is_null()) {
    if (!initialization) {
      problems->push_back("semanticTokensForPython: only read from initializationOptions");
    } else if (it->is_boolean()) {
      settings->semantic_tokens_for_python = it->get<bool>();
    } else {
      problems->push_back("semanticTokensForPython: expected true or false, got " + it->dump());
    }
  }
}

bool SameOptions(const analysis::AnalysisOptions& a, const analysis::AnalysisOptions& b) {
  return a.era == b.era && a.assumed_upper_bound == b.assumed_upper_bound &&
         a.expected_failures == b.expected_failures;
}

Settings WithConfig(const Settings& client, const ProjectConfig& config) {
  if (config.path.empty()) return client;
  Settings merged = client;
  merged.severity = config.severity;
  for (const auto& [code, level] : client.severity) merged.severity[code] = level;
  if (!client.era_given && config.era) merged.options.era = *config.era;
  if (!client.expected_failures_given && config.expected_failures) {
    merged.options.expected_failures = *config.expected_failures;
  }
  if (!client.bound_given && config.assumed_upper_bound) {
    merged.options.assumed_upper_bound = *config.assumed_upper_bound;
  }
  return merged;
}

}  // namespace tvmls::server
