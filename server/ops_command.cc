#include "ops_command.h"

#include <algorithm>
#include <ostream>

#include <nlohmann/json.hpp>

#include "analysis.h"
#include "cli.h"
#include "input_files.h"
#include "lsp_convert.h"
#include "model/model.h"
#include "ops/registry.h"
#include "project_config.h"
#include "query/inferred.h"
#include "syntax/document.h"

namespace tvmls::server {
namespace {

using Json = nlohmann::ordered_json;

// Parses `[--format text|json] REST...`; returns false (and says why) on a bad flag.
bool ParseFormat(const std::vector<std::string>& args, bool* json, std::vector<std::string>* rest,
                 std::string* problem) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--format" || a.rfind("--format=", 0) == 0) {
      std::string value = a == "--format" ? (i + 1 < args.size() ? args[++i] : "") : a.substr(9);
      if (value != "text" && value != "json") {
        *problem = "--format takes text or json";
        return false;
      }
      *json = value == "json";
    } else if (a.size() > 1 && a[0] == '-') {
      *problem = "unknown option '" + a + "'";
      return false;
    } else {
      rest->push_back(a);
    }
  }
  return true;
}

std::vector<std::string> Spellings(const ops::OpInfo& op) {
  std::vector<std::string> out;
  if (op.script != nullptr) out.push_back(std::string("R.") + op.script);
  if (op.current_script != nullptr) out.push_back(std::string("R.") + op.current_script);
  return out;
}

}  // namespace

int RunOps(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  bool json = false;
  std::vector<std::string> rest;
  std::string problem;
  if (!ParseFormat(args, &json, &rest, &problem) || !rest.empty()) {
    err << "tvmls: ops: " << (problem.empty() ? "takes no files" : problem) << "\n";
    return kExitUsage;
  }
  if (json) {
    Json all = Json::array();
    for (const ops::OpInfo& op : ops::AllOps()) {
      Json params = Json::array();
      for (const ops::Param& p : op.params) {
        params.push_back({{"name", p.name}, {"default", p.default_text ? Json(p.default_text) : Json(nullptr)}});
      }
      all.push_back({{"name", op.name},
                     {"script", Spellings(op)},
                     {"pure", op.pure},
                     {"inference", ops::HasInference(op)},
                     {"params", std::move(params)}});
    }
    out << all.dump(2) << "\n";
    return kExitOk;
  }
  size_t inferred = 0, total = 0;
  for (const ops::OpInfo& op : ops::AllOps()) {
    std::vector<std::string> spellings = Spellings(op);
    std::string script;
    for (const std::string& s : spellings) script += (script.empty() ? "" : " / ") + s;
    bool infers = ops::HasInference(op);
    ++total;
    inferred += infers ? 1 : 0;
    std::string name = op.name;
    name.resize(std::max<size_t>(name.size(), 40), ' ');
    out << name << " " << (op.pure ? "pure  " : "impure") << "  " << (infers ? "inferred" : "unknown ") << "  "
        << (script.empty() ? "(no TVMScript spelling)" : script) << "\n";
  }
  out << total << " operators, " << inferred << " with inference\n";
  return kExitOk;
}

int RunInfer(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  bool json = false;
  std::vector<std::string> inputs;
  std::string problem;
  if (!ParseFormat(args, &json, &inputs, &problem)) {
    err << "tvmls: infer: " << problem << "\n";
    return kExitUsage;
  }
  if (inputs.empty()) {
    err << "tvmls: infer: no input files\n";
    return kExitUsage;
  }
  ConfigStore configs;
  std::vector<InputProblem> problems;
  std::vector<std::string> files = ExpandInputs(inputs, &configs, &problems);
  int status = kExitOk;
  for (const InputProblem& p : problems) {
    err << p.path << ": " << p.message << "\n";
    status = kExitUsage;
  }
  Json all = Json::array();
  for (const std::string& path : files) {
    std::string text, error;
    if (!ReadSourceFile(path, &text, &error)) {
      err << path << ": " << error << "\n";
      status = kExitUsage;
      continue;
    }
    std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
    analysis::Document doc(std::move(text));
    analysis::Analyzer analyzer(AnalysisOptionsOf(*configs.For(dir)));
    analyzer.Run(doc);
    const analysis::FileModel* model = analyzer.Model();
    if (model == nullptr) continue;
    for (const analysis::Inferred& i : analysis::InferredStructInfo(*model)) {
      // json: LSP's UTF-16 columns, 0-based; text: code points, 1-based (as `tvmls check`).
      analysis::Position at = doc.PositionOf(i.range.begin, json ? analysis::Encoding::kUtf16 : analysis::Encoding::kUtf32);
      const char* kind = i.kind == analysis::Inferred::Kind::kParameter ? "parameter"
                         : i.kind == analysis::Inferred::Kind::kBinding ? "binding"
                                                                         : "return";
      if (json) {
        all.push_back({{"file", path},
                       {"line", at.line},
                       {"character", at.column},
                       {"kind", kind},
                       {"name", i.name},
                       {"struct_info", i.struct_info.empty() ? Json(nullptr) : Json(i.struct_info)}});
      } else {
        out << path << ":" << at.line + 1 << ":" << at.column + 1 << ": "
            << (i.kind == analysis::Inferred::Kind::kReturn ? "return " : "") << i.name << ": "
            << (i.struct_info.empty() ? "?" : i.struct_info) << "\n";
      }
    }
  }
  if (json) out << all.dump(2) << "\n";
  return status;
}

}  // namespace tvmls::server
