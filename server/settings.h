// The language server's settings: the `tvmls` section of the client's configuration, given as
// initializationOptions, workspace/didChangeConfiguration or workspace/configuration.
//
//   {
//     "severity": {"storage-may-overflow": "off", "unknown-op": "error"},  // per code
//     "assumedUpperBound": 4096,                    // AnalysisOptions.assumed_upper_bound
//     "era": "auto" | "classic" | "current",        // AnalysisOptions.era
//     "expectedFailures": true,                     // AnalysisOptions.expected_failures
//     "debounceMs": 0,                              // initializationOptions only
//     "codeDescriptionBase": "https://...",         // initializationOptions only; "" = none
//     "semanticTokensForPython": false              // initializationOptions only
//   }
#ifndef TVMLS_SERVER_SETTINGS_H_
#define TVMLS_SERVER_SETTINGS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis.h"
#include "check/diagnostic.h"

namespace tvmls::server {

struct Settings {
  /// Per diagnostic code: the severity to report it with, or nullopt for "off" (not reported).
  std::map<std::string, std::optional<analysis::Severity>> severity;
  analysis::AnalysisOptions options;
  /// The client set `era` / `assumedUpperBound` (they then override the project configuration).
  bool era_given = false;
  bool bound_given = false;
  bool expected_failures_given = false;
  /// Fixed debounce before analysing an edited document; nullopt: adaptive.
  std::optional<int> debounce_ms;
  /// Documentation of the codes (codeDescription.href = base + "#" + code); nullopt: the README
  /// beside the binary (DefaultDocsBase), "": no codeDescription.
  std::optional<std::string> docs_base;
  /// Semantic tokens for `python` documents too (editors use one provider's tokens, and Python
  /// files have Pylance's); `tvmscript` documents always get them.
  bool semantic_tokens_for_python = false;

  /// The severity `d` is reported with, or nullopt when its code is turned off.
  std::optional<analysis::Severity> SeverityOf(const analysis::Diagnostic& d) const;
};

/// The `tvmls` section inside `value` when it has one (`{"tvmls": {...}}`), else `value` itself.
const nlohmann::json& SettingsSection(const nlohmann::json& value);

/// Applies the fields present in `section` (an object; anything else changes nothing) to
/// `settings`. A field of the wrong type or with an unknown value is skipped and described in
/// `problems`. The initializationOptions-only fields (`debounceMs`, `codeDescriptionBase`,
/// `semanticTokensForPython`) are read only when `initialization`.
void ApplySettings(const nlohmann::json& section, bool initialization, Settings* settings,
                   std::vector<std::string>* problems);

bool SameOptions(const analysis::AnalysisOptions& a, const analysis::AnalysisOptions& b);

/// The settings for a file governed by `config` (project_config.h): the configuration's
/// severities, era and bound, each overridden by what the client's settings give.
Settings WithConfig(const Settings& client, const struct ProjectConfig& config);

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_SETTINGS_H_
