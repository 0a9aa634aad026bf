// The language server: handlers on the loop thread, analysis and answers on a worker pool.
#include "lsp_server.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "analysis.h"
#include "cli.h"
#include "jsonrpc.h"
#include "lsp_convert.h"
#include "lsp_features.h"
#include "project_config.h"
#include "model/model.h"
#include "query/queries.h"
#include "settings.h"

namespace tvmls::server {

using protocol::json;
using protocol::ParamView;
using protocol::Reply;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kMinDebounceMs = 50;
constexpr double kMaxDebounceMs = 500;
constexpr unsigned kMaxWorkers = 4;
// A document analysed from scratch (opened, or its analyzer replaced by new settings) at least
// this large shows a work-done progress in clients that support it: about 0.1 s of analysis.
constexpr size_t kProgressBytes = 256 * 1024;

// One entry of didOpen/didChange: the whole text, or a range replaced.
struct Change {
  bool full = true;
  analysis::Position start;
  analysis::Position end;
  std::string text;
};

struct Batch {
  int64_t version = 0;
  std::vector<Change> changes;
};

using Answer = std::function<json(const QueryContext&)>;

// A request waiting for the analysis of `version`.
struct Waiter {
  int64_t version = 0;
  Reply reply;
  Answer answer;
  json empty;  // the answer for a document without TVMScript
};

struct DocState {
  // Guarded by Impl::mu.
  std::string uri;
  int64_t version = 0;         // the latest version the client sent
  std::vector<Batch> pending;  // accepted, not yet applied by the worker
  bool dirty = true;           // needs (re)analysis: pending edits or new settings
  bool closed = false;         // closed or dropped: never publish again
  Clock::time_point due;       // when a dirty document is analysed
  std::vector<Waiter> waiters;
  double recent_ms = 0;  // moving average of its analysis times
  bool busy = false;     // a worker has it: no other worker touches doc/analyzer meanwhile
  std::string language;  // languageId of didOpen

  // The worker's alone.
  std::unique_ptr<analysis::Document> doc;
  std::unique_ptr<analysis::Analyzer> analyzer;
  analysis::AnalysisOptions analyzer_options;
};

// `value` at a path of object members, or null.
const json& At(const json& value, std::initializer_list<const char*> path) {
  static const json kNull;
  const json* v = &value;
  for (const char* key : path) {
    if (!v->is_object()) return kNull;
    auto it = v->find(key);
    if (it == v->end()) return kNull;
    v = &*it;
  }
  return *v;
}

bool Flag(const json& value, std::initializer_list<const char*> path) {
  const json& v = At(value, path);
  return v.is_boolean() && v.get<bool>();
}

analysis::Position GetPosition(const ParamView& p, const std::string& path) {
  return {p.Get<uint32_t>(path + ".line"), p.Get<uint32_t>(path + ".character")};
}

int SymbolKind(analysis::OutlineItem::Kind kind) {
  switch (kind) {
    case analysis::OutlineItem::Kind::kModule: return 2;          // Module
    case analysis::OutlineItem::Kind::kDataflowBlock: return 3;   // Namespace
    case analysis::OutlineItem::Kind::kRelaxFunction:
    case analysis::OutlineItem::Kind::kPrimFunction: return 12;   // Function
  }
  return 12;
}

json DocumentSymbol(const QueryContext& ctx, const analysis::OutlineItem& item) {
  json children = json::array();
  for (const analysis::OutlineItem& child : item.children) {
    children.push_back(DocumentSymbol(ctx, child));
  }
  json symbol = {{"name", item.name.empty() ? std::string("<anonymous>") : item.name},
                 {"kind", SymbolKind(item.kind)},
                 {"range", ctx.Range(item.range)},
                 {"selectionRange", ctx.Range(item.selection)},
                 {"children", std::move(children)}};
  if (!item.detail.empty()) symbol["detail"] = item.detail;
  return symbol;
}

void FlatSymbols(const QueryContext& ctx, const analysis::OutlineItem& item,
                 const std::string& container, json* out) {
  json symbol = {{"name", item.name.empty() ? std::string("<anonymous>") : item.name},
                 {"kind", SymbolKind(item.kind)},
                 {"location", ctx.Location(item.range)}};
  if (!container.empty()) symbol["containerName"] = container;
  out->push_back(std::move(symbol));
  for (const analysis::OutlineItem& child : item.children) FlatSymbols(ctx, child, item.name, out);
}

// True when a code action of `kind` passes the `only` filter: kinds are hierarchical, so
// "refactor" asks for "refactor.rewrite" too.
bool KindWanted(const std::optional<std::vector<std::string>>& only, const std::string& kind) {
  if (!only) return true;
  return std::any_of(only->begin(), only->end(), [&](const std::string& wanted) {
    return wanted.empty() || kind == wanted || kind.rfind(wanted + ".", 0) == 0;
  });
}

}  // namespace

struct LanguageServer::Impl {
  explicit Impl(protocol::Endpoint& ep) : endpoint(ep), log(ep.logger()) {}

  protocol::Endpoint& endpoint;
  protocol::Logger log;

  std::mutex mu;
  std::condition_variable cv;
  bool stop = false;
  std::map<std::string, std::shared_ptr<DocState>> docs;
  Settings base_settings;  // defaults + initializationOptions
  Settings settings;       // base_settings + the client's configuration
  analysis::Encoding encoding = analysis::Encoding::kUtf16;
  bool configuration_pull = false;
  bool hierarchical_symbols = false;
  // Project configuration (tvmls.toml / pyproject.toml [tool.tvmls]) of each document's folder;
  // its own lock. `config_published`: the configuration files whose invalid-config diagnostics
  // were last published, by path, with the version published (under mu).
  ConfigStore configs;
  std::map<std::string, std::shared_ptr<const ProjectConfig>> config_published;
  // Fixed at initialize, before any document (under mu; workers read them after taking mu).
  std::string docs_base;  // codeDescription base
  ClientFeatures client;
  std::vector<std::thread> workers;

  void Register();
  void Start() {
    unsigned n = std::clamp(std::thread::hardware_concurrency(), 1u, kMaxWorkers);
    for (unsigned i = 0; i < n; ++i) workers.emplace_back([this] { WorkerMain(); });
  }
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
    }
    cv.notify_all();
    for (std::thread& worker : workers) {
      if (worker.joinable()) worker.join();
    }
  }

  // ---- Loop thread ----
  void Initialize(const json& params, const Reply& reply);
  void PullConfiguration();
  void UpdateSettings(const json& section);
  void DidOpen(const json& params);
  void DidChange(const json& params);
  void DidClose(const json& params);
  void Query(const json& params, const Reply& reply, Answer answer, json empty);
  double DebounceMs(const DocState& d) const;  // under mu

  // ---- Worker ----
  struct Work {
    std::vector<Batch> batches;
    bool analyse = false;
    int64_t version = 0;
    Settings settings;
    analysis::Encoding encoding = analysis::Encoding::kUtf16;
  };
  struct Outcome {
    bool dropped = false;
    std::string error;
    bool analysed = false;
    bool from_scratch = false;  // a new Analyzer: its time says nothing about the next edit's
    double ms = 0;
    std::string diagnostics;  // the JSON array, as text (AppendDiagnosticJson)
    size_t diagnostic_count = 0;
  };
  void WorkerMain();
  Outcome Process(DocState& d, Work& work);
  /// Shows "Analysing FILE" while `run` runs, when the client supports work-done progress. The
  /// token is created with window/workDoneProgress/create; `begin` goes out only if the client
  /// accepted before `run` finished, and `end` only after a `begin`.
  void WithProgress(const std::string& uri, const std::function<void()>& run);
  std::atomic<int64_t> progress_tokens{0};
  void AnswerWaiters(DocState& d, const Work& work, std::vector<Waiter> waiters);
  /// Publishes the invalid-config diagnostics of `config`'s file when this version of it has not
  /// been published yet (an empty list once its mistakes are fixed).
  void PublishConfigProblems(const std::shared_ptr<const ProjectConfig>& config);
};

// ------------------------------------------------------------------------------------------------
// Loop thread.

void LanguageServer::Impl::Register() {
  endpoint.OnRequest("initialize",
                     [this](const json& params, Reply reply) { Initialize(params, reply); });
  endpoint.OnNotification("initialized", [this](const json&) {
    bool pull;
    {
      std::lock_guard<std::mutex> lock(mu);
      pull = configuration_pull;
    }
    if (pull) PullConfiguration();
  });
  // A project configuration file (tvmls.toml, pyproject.toml) was created, changed or deleted:
  // every open document is analysed again (ConfigStore re-reads what changed). Clients send this
  // for the files they watch (the VS Code extension watches both names); the server does not
  // register watchers itself (Eglot 1.9 stalls 10 s reconnecting a server that asks to). Without
  // it, a document picks up a changed configuration at its next edit.
  endpoint.OnNotification("workspace/didChangeWatchedFiles", [this](const json&) {
    std::lock_guard<std::mutex> lock(mu);
    Clock::time_point now = Clock::now();
    for (auto& entry : docs) {
      entry.second->dirty = true;
      entry.second->due = now;
    }
    cv.notify_all();
  });
  endpoint.OnNotification("workspace/didChangeConfiguration", [this](const json& params) {
    const json& value = At(params, {"settings"});
    const json& section = At(value, {"tvmls"});
    bool pull;
    {
      std::lock_guard<std::mutex> lock(mu);
      pull = configuration_pull;
    }
    if (section.is_object()) {
      UpdateSettings(section);
    } else if (pull) {
      PullConfiguration();
    } else if (value.is_object()) {
      UpdateSettings(value);
    }
  });
  endpoint.OnNotification("textDocument/didOpen", [this](const json& params) { DidOpen(params); });
  endpoint.OnNotification("textDocument/didChange",
                          [this](const json& params) { DidChange(params); });
  endpoint.OnNotification("textDocument/didClose",
                          [this](const json& params) { DidClose(params); });
  endpoint.OnNotification("textDocument/didSave", [](const json& params) {
    ParamView(params).Get<std::string>("textDocument.uri");  // Nothing to do: edits carry text.
  });

  endpoint.OnRequest("textDocument/hover", [this](const json& params, Reply reply) {
    analysis::Position position = GetPosition(ParamView(params), "position");
    Query(params, reply, [position](const QueryContext& ctx) -> json {
      std::optional<uint32_t> offset = ctx.Offset(position);
      const analysis::FileModel* model = ctx.analyzer.Model();
      if (!offset || model == nullptr) return nullptr;
      std::optional<analysis::Hover> hover = analysis::HoverAt(*model, *offset);
      if (!hover) return nullptr;
      // The code in a fence, the prose below it as markdown.
      std::string value = "```python\n" + hover->text + "\n```";
      if (!hover->doc.empty()) value += "\n\n" + hover->doc;
      return {{"contents", {{"kind", "markdown"}, {"value", std::move(value)}}},
              {"range", ctx.Range(hover->range)}};
    }, nullptr);
  });

  endpoint.OnRequest("textDocument/definition", [this](const json& params, Reply reply) {
    analysis::Position position = GetPosition(ParamView(params), "position");
    Query(params, reply, [position](const QueryContext& ctx) -> json {
      json result = json::array();
      std::optional<uint32_t> offset = ctx.Offset(position);
      const analysis::FileModel* model = ctx.analyzer.Model();
      if (!offset || model == nullptr) return result;
      for (analysis::TextRange r : analysis::DefinitionAt(*model, *offset)) {
        result.push_back(ctx.Location(r));
      }
      return result;
    }, json::array());
  });

  endpoint.OnRequest("textDocument/references", [this](const json& params, Reply reply) {
    ParamView p(params);
    analysis::Position position = GetPosition(p, "position");
    bool include = p.Find<bool>("context.includeDeclaration").value_or(false);
    Query(params, reply, [position, include](const QueryContext& ctx) -> json {
      json result = json::array();
      std::optional<uint32_t> offset = ctx.Offset(position);
      const analysis::FileModel* model = ctx.analyzer.Model();
      if (!offset || model == nullptr) return result;
      for (analysis::TextRange r : analysis::ReferencesAt(*model, *offset, include)) {
        result.push_back(ctx.Location(r));
      }
      return result;
    }, json::array());
  });

  endpoint.OnRequest("textDocument/documentSymbol", [this](const json& params, Reply reply) {
    bool hierarchical;
    {
      std::lock_guard<std::mutex> lock(mu);
      hierarchical = hierarchical_symbols;
    }
    Query(params, reply, [hierarchical](const QueryContext& ctx) -> json {
      json result = json::array();
      const analysis::FileModel* model = ctx.analyzer.Model();
      if (model == nullptr) return result;
      for (const analysis::OutlineItem& item : analysis::Outline(*model)) {
        if (hierarchical) {
          result.push_back(DocumentSymbol(ctx, item));
        } else {
          FlatSymbols(ctx, item, "", &result);
        }
      }
      return result;
    }, json::array());
  });

  endpoint.OnRequest("textDocument/codeAction", [this](const json& params, Reply reply) {
    ParamView p(params);
    analysis::Position start = GetPosition(p, "range.start");
    analysis::Position end = GetPosition(p, "range.end");
    std::optional<std::vector<std::string>> only =
        p.Find<std::vector<std::string>>("context.only");
    bool quickfix = KindWanted(only, "quickfix");
    bool rewrite = KindWanted(only, "refactor.rewrite");
    if (!quickfix && !rewrite) {
      reply.Result(json::array());
      return;
    }
    // The client's diagnostics (context.diagnostics) by code and start line: their fixes are
    // offered even when the requested range does not touch them (ALE asks with the word under
    // the cursor, which may sit before the diagnostic on its line).
    std::set<std::pair<std::string, int64_t>> asked;
    if (std::optional<ParamView> listed = p.FindView("context.diagnostics");
        listed && listed->value().is_array()) {
      for (const json& d : listed->value()) {
        if (!d.is_object()) continue;
        auto code = d.find("code");
        const json* line = nullptr;
        if (auto range = d.find("range"); range != d.end() && range->is_object()) {
          if (auto st = range->find("start"); st != range->end() && st->is_object()) {
            if (auto l = st->find("line"); l != st->end() && l->is_number_integer()) line = &*l;
          }
        }
        if (code != d.end() && code->is_string() && line) {
          asked.insert({code->get<std::string>(), line->get<int64_t>()});
        }
      }
    }
    Query(params, reply, [start, end, quickfix, rewrite, asked](const QueryContext& ctx) -> json {
      json result = rewrite ? AnnotateActions(ctx, start) : json::array();
      if (!quickfix) return result;
      std::optional<uint32_t> b = ctx.Offset(start);
      std::optional<uint32_t> e = ctx.ClampedOffset(end);
      if (!b || !e) return result;
      analysis::TextRange wanted{std::min(*b, *e), std::max(*b, *e)};
      for (const analysis::Diagnostic* d : ctx.analyzer.Diagnostics()) {
        std::optional<analysis::Severity> severity = ctx.settings.SeverityOf(*d);
        if (!severity) continue;
        bool touched = d->range.Touches(wanted);
        if (!touched && !asked.empty()) {
          int64_t line = ctx.doc.Lines().LineOf(d->range.begin);
          touched = asked.count({d->code, line}) > 0;
        }
        if (!touched) continue;
        std::vector<analysis::Fix> fixes = FixesOffered(ctx.doc, *d);
        if (fixes.empty()) continue;
        json diagnostic =
            DiagnosticJson(ctx.doc, *d, ctx.uri, ctx.encoding, *severity, ctx.docs_base);
        for (const analysis::Fix& fix : fixes) {
          result.push_back({{"title", fix.title},
                            {"kind", "quickfix"},
                            {"diagnostics", json::array({diagnostic})},
                            {"isPreferred", fix.preferred},
                            {"edit", ctx.WorkspaceEdit(fix.edits)}});
        }
      }
      return result;
    }, json::array());
  });

  endpoint.OnRequest("textDocument/documentHighlight", [this](const json& params, Reply reply) {
    analysis::Position position = GetPosition(ParamView(params), "position");
    Query(params, reply, [position](const QueryContext& ctx) {
      return DocumentHighlightAnswer(ctx, position);
    }, json::array());
  });

  endpoint.OnRequest("textDocument/prepareRename", [this](const json& params, Reply reply) {
    analysis::Position position = GetPosition(ParamView(params), "position");
    Query(params, reply, [position](const QueryContext& ctx) {
      return PrepareRenameAnswer(ctx, position);
    }, nullptr);
  });

  endpoint.OnRequest("textDocument/rename", [this](const json& params, Reply reply) {
    ParamView p(params);
    analysis::Position position = GetPosition(p, "position");
    std::string new_name = p.Get<std::string>("newName");
    Query(params, reply, [position, new_name](const QueryContext& ctx) {
      return RenameAnswer(ctx, position, new_name);
    }, nullptr);
  });

  endpoint.OnRequest("textDocument/foldingRange", [this](const json& params, Reply reply) {
    Query(params, reply, [](const QueryContext& ctx) { return FoldingRangeAnswer(ctx); },
          json::array());
  });

  endpoint.OnRequest("textDocument/selectionRange", [this](const json& params, Reply reply) {
    ParamView p(params);
    std::vector<analysis::Position> positions;
    for (const ParamView& position : p.Array("positions").Elements()) {
      positions.push_back({position.Get<uint32_t>("line"), position.Get<uint32_t>("character")});
    }
    Query(params, reply, [positions](const QueryContext& ctx) {
      return SelectionRangeAnswer(ctx, positions);
    }, json::array());
  });

  endpoint.OnRequest("textDocument/semanticTokens/full", [this](const json& params, Reply reply) {
    Query(params, reply, [](const QueryContext& ctx) -> json {
      if (!WantsSemanticTokens(ctx.settings, ctx.language)) return nullptr;
      return SemanticTokensAnswer(ctx);
    }, nullptr);
  });

  endpoint.OnRequest("textDocument/semanticTokens/range", [this](const json& params, Reply reply) {
    ParamView p(params);
    analysis::Position start = GetPosition(p, "range.start");
    analysis::Position end = GetPosition(p, "range.end");
    Query(params, reply, [start, end](const QueryContext& ctx) -> json {
      if (!WantsSemanticTokens(ctx.settings, ctx.language)) return nullptr;
      std::optional<uint32_t> b = ctx.Offset(start);
      std::optional<uint32_t> e = ctx.ClampedOffset(end);
      if (!b || !e || *e < *b) return json{{"data", json::array()}};
      return SemanticTokensAnswer(ctx, analysis::TextRange{*b, *e});
    }, nullptr);
  });

  endpoint.OnRequest("textDocument/completion", [this](const json& params, Reply reply) {
    analysis::Position position = GetPosition(ParamView(params), "position");
    Query(params, reply, [position](const QueryContext& ctx) {
      return CompletionAnswer(ctx, position);
    }, json{{"isIncomplete", false}, {"items", json::array()}});
  });

  endpoint.OnRequest("textDocument/signatureHelp", [this](const json& params, Reply reply) {
    analysis::Position position = GetPosition(ParamView(params), "position");
    Query(params, reply, [position](const QueryContext& ctx) {
      return SignatureHelpAnswer(ctx, position);
    }, nullptr);
  });

  endpoint.OnRequest("textDocument/inlayHint", [this](const json& params, Reply reply) {
    ParamView p(params);
    analysis::Position start = GetPosition(p, "range.start");
    analysis::Position end = GetPosition(p, "range.end");
    Query(params, reply, [start, end](const QueryContext& ctx) -> json {
      json result = json::array();
      std::optional<uint32_t> b = ctx.Offset(start);
      std::optional<uint32_t> e = ctx.ClampedOffset(end);
      const analysis::FileModel* model = ctx.analyzer.Model();
      if (!b || !e || model == nullptr) return result;
      std::vector<const analysis::FunctionRef*> functions;
      for (const analysis::ModuleModel& m : model->modules) {
        for (const analysis::FunctionRef& f : m.functions) functions.push_back(&f);
      }
      for (const analysis::FunctionRef& f : model->standalone) functions.push_back(&f);
      std::vector<std::pair<uint32_t, const analysis::InlayHint*>> hints;
      for (const analysis::FunctionRef* f : functions) {
        if (f->has_syntax_error) continue;
        for (const analysis::InlayHint& hint : f->fn->inlays) {
          uint32_t offset = f->base + hint.offset;
          if (offset >= *b && offset <= *e) hints.emplace_back(offset, &hint);
        }
      }
      std::sort(hints.begin(), hints.end(),
                [](const auto& x, const auto& y) { return x.first < y.first; });
      for (const auto& [offset, hint] : hints) {
        json position = PositionJson<json>(ctx.doc, offset, ctx.encoding);
        json item = {{"position", position},
                     {"label", hint->label},
                     {"kind", 1},  // Type
                     {"paddingLeft", false},
                     {"paddingRight", false}};
        // Unpacking targets (`a, b = t`) cannot carry annotations in Python: shown, not inserted.
        if (hint->insertable) {
          item["textEdits"] = json::array(
              {{{"range", {{"start", position}, {"end", position}}}, {"newText", hint->label}}});
        }
        result.push_back(std::move(item));
      }
      return result;
    }, json::array());
  });
}

void LanguageServer::Impl::Initialize(const json& params, const Reply& reply) {
  ParamView p(params);
  protocol::PositionEncoding negotiated = protocol::NegotiatePositionEncoding(params);
  Settings initial;
  std::vector<std::string> problems;
  ClientFeatures features;
  const json& item = At(params, {"capabilities", "textDocument", "completion", "completionItem"});
  features.snippets = Flag(item, {"snippetSupport"});
  features.progress = Flag(params, {"capabilities", "window", "workDoneProgress"});
  const json& tags = At(item, {"tagSupport", "valueSet"});
  features.completion_deprecated_tag =
      tags.is_array() && std::find(tags.begin(), tags.end(), json(1)) != tags.end();
  const json& token_types =
      At(params, {"capabilities", "textDocument", "semanticTokens", "tokenTypes"});
  if (token_types.is_array()) {
    for (const json& t : token_types) {
      if (t.is_string()) features.token_types.push_back(t.get<std::string>());
    }
  }
  if (std::optional<ParamView> options = p.FindView("initializationOptions")) {
    ApplySettings(SettingsSection(options->value()), true, &initial, &problems);
  }
  for (const std::string& problem : problems) log.Warn("initializationOptions: " + problem);
  {
    std::lock_guard<std::mutex> lock(mu);
    encoding = ToAnalysisEncoding(negotiated);
    base_settings = initial;
    settings = initial;
    docs_base = initial.docs_base ? *initial.docs_base : DefaultDocsBase();
    configuration_pull = Flag(params, {"capabilities", "workspace", "configuration"});
    hierarchical_symbols = Flag(params, {"capabilities", "textDocument", "documentSymbol",
                                         "hierarchicalDocumentSymbolSupport"});
    client = features;
  }
  // Semantic tokens go to `tvmscript` documents, and to `python` ones only when asked: editors
  // show one provider's tokens, and Python files have their Python server's.
  json token_selector = json::array({{{"language", "tvmscript"}}});
  if (initial.semantic_tokens_for_python) token_selector.push_back({{"language", "python"}});
  json capabilities = {
      {"positionEncoding", std::string(protocol::ToString(negotiated))},
      {"textDocumentSync",
       {{"openClose", true}, {"change", 2 /* Incremental */}, {"save", {{"includeText", false}}}}},
      {"hoverProvider", true},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix", "refactor.rewrite"}}}},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"documentHighlightProvider", true},
      {"renameProvider", {{"prepareProvider", true}}},
      {"documentSymbolProvider", true},
      {"foldingRangeProvider", true},
      {"selectionRangeProvider", true},
      {"inlayHintProvider", true},
      {"semanticTokensProvider",
       {{"legend", SemanticTokensLegend(features)},
        {"full", true},
        {"range", true},
        {"documentSelector", token_selector}}},
      {"completionProvider", {{"triggerCharacters", {"."}}, {"resolveProvider", false}}},
      {"signatureHelpProvider",
       {{"triggerCharacters", {"(", ","}}, {"retriggerCharacters", {"="}}}},
  };
  reply.Result({{"capabilities", std::move(capabilities)},
                {"serverInfo", {{"name", "tvmls"}, {"version", TVMLS_VERSION}}}});
}

void LanguageServer::Impl::PullConfiguration() {
  endpoint.Call("workspace/configuration", {{"items", json::array({{{"section", "tvmls"}}})}},
                [this](protocol::CallResponse response) {
                  if (!response.ok()) {
                    log.Debug("workspace/configuration failed: " + response.error->message);
                    return;
                  }
                  if (response.result.is_array() && !response.result.empty() &&
                      response.result[0].is_object()) {
                    UpdateSettings(response.result[0]);
                  }
                });
}

void LanguageServer::Impl::UpdateSettings(const json& section) {
  std::vector<std::string> problems;
  std::lock_guard<std::mutex> lock(mu);
  Settings updated = base_settings;
  ApplySettings(section, false, &updated, &problems);
  for (const std::string& problem : problems) log.Warn("configuration: " + problem);
  settings = std::move(updated);
  // Every open document is re-analysed (a no-op for the analyzer when the options are the same)
  // and its diagnostics republished with the new severities.
  Clock::time_point now = Clock::now();
  for (auto& entry : docs) {
    entry.second->dirty = true;
    entry.second->due = now;
  }
  cv.notify_all();
}

double LanguageServer::Impl::DebounceMs(const DocState& d) const {
  if (settings.debounce_ms) return *settings.debounce_ms;
  return std::clamp(d.recent_ms * 1.2, kMinDebounceMs, kMaxDebounceMs);
}

void LanguageServer::Impl::DidOpen(const json& params) {
  ParamView p(params);
  std::string uri = p.Get<std::string>("textDocument.uri");
  std::string language = p.Get<std::string>("textDocument.languageId");
  int64_t version = p.Get<int64_t>("textDocument.version");
  std::string text = p.Get<std::string>("textDocument.text");
  if (language != "tvmscript" && language != "python") {
    log.Info("not tracking " + uri + ": language `" + language + "`");
    return;
  }
  if (text.size() > kMaxFileBytes) {
    log.Warn("not tracking " + uri + ": " + std::to_string(text.size() / (1024 * 1024)) +
             " MiB; tvmls reads files up to " + std::to_string(kMaxFileBytes / (1024 * 1024)) +
             " MiB");
    return;
  }
  auto d = std::make_shared<DocState>();
  d->uri = uri;
  d->language = language;
  d->version = version;
  d->pending.push_back({version, {Change{true, {}, {}, std::move(text)}}});
  d->due = Clock::now();
  std::vector<Waiter> orphans;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = docs.find(uri);
    if (it != docs.end()) {
      log.Warn("didOpen of " + uri + ", which is already open: replacing it");
      it->second->closed = true;
      orphans = std::move(it->second->waiters);
    }
    docs[uri] = d;
  }
  cv.notify_all();
  for (Waiter& w : orphans) w.reply.ContentModified();
}

void LanguageServer::Impl::DidChange(const json& params) {
  ParamView p(params);
  std::string uri = p.Get<std::string>("textDocument.uri");
  Batch batch;
  batch.version = p.Get<int64_t>("textDocument.version");
  for (const ParamView& c : p.Array("contentChanges").Elements()) {
    Change change;
    change.text = c.Get<std::string>("text");
    if (c.Has("range")) {
      change.full = false;
      change.start = GetPosition(c, "range.start");
      change.end = GetPosition(c, "range.end");
    }
    batch.changes.push_back(std::move(change));
  }
  std::lock_guard<std::mutex> lock(mu);
  auto it = docs.find(uri);
  if (it == docs.end()) {
    log.Warn("didChange of " + uri + ", which is not open (or was dropped): ignored");
    return;
  }
  DocState& d = *it->second;
  if (batch.version <= d.version) {
    log.Warn("didChange of " + uri + " to version " + std::to_string(batch.version) +
             ", not newer than version " + std::to_string(d.version) + ": ignored");
    return;
  }
  d.version = batch.version;
  d.pending.push_back(std::move(batch));
  d.dirty = true;
  d.due = Clock::now() + std::chrono::microseconds(static_cast<int64_t>(DebounceMs(d) * 1000));
  cv.notify_all();
}

void LanguageServer::Impl::DidClose(const json& params) {
  std::string uri = ParamView(params).Get<std::string>("textDocument.uri");
  std::vector<Waiter> orphans;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = docs.find(uri);
    if (it == docs.end()) return;
    it->second->closed = true;
    orphans = std::move(it->second->waiters);
    docs.erase(it);
    // Under the lock: the worker publishes under it too, so this empty list comes last.
    endpoint.Notify("textDocument/publishDiagnostics",
                    {{"uri", uri}, {"diagnostics", json::array()}});
  }
  for (Waiter& w : orphans) w.reply.ContentModified();
}

void LanguageServer::Impl::Query(const json& params, const Reply& reply, Answer answer,
                                 json empty) {
  std::string uri = ParamView(params).Get<std::string>("textDocument.uri");
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = docs.find(uri);
    if (it != docs.end()) {
      it->second->waiters.push_back({it->second->version, reply, std::move(answer), empty});
      cv.notify_all();
      return;
    }
  }
  reply.Result(std::move(empty));  // Not open: nothing known.
}

// ------------------------------------------------------------------------------------------------
// Worker.

void LanguageServer::Impl::WorkerMain() {
  std::unique_lock<std::mutex> lock(mu);
  while (!stop) {
    // The document with waiting requests, else the dirty one due first.
    std::shared_ptr<DocState> next;
    Clock::time_point earliest = Clock::time_point::max();
    for (auto& entry : docs) {
      DocState& d = *entry.second;
      Clock::time_point when;
      if (d.busy) {
        continue;
      } else if (!d.waiters.empty()) {
        when = Clock::time_point::min();
      } else if (d.dirty) {
        when = d.due;
      } else {
        continue;
      }
      if (!next || when < earliest) {
        earliest = when;
        next = entry.second;
      }
    }
    if (!next) {
      cv.wait(lock);
      continue;
    }
    if (earliest > Clock::now()) {
      cv.wait_until(lock, earliest);
      continue;
    }

    Work work;
    work.batches = std::move(next->pending);
    next->pending.clear();
    work.analyse = next->dirty;
    next->dirty = false;
    work.version = next->version;
    work.settings = settings;
    work.encoding = encoding;
    next->busy = true;
    std::string path = FilePathOfUri(next->uri);
    lock.unlock();
    if (!path.empty()) {
      std::shared_ptr<const ProjectConfig> config =
          configs.For(std::filesystem::path(path).parent_path().string());
      work.settings = WithConfig(work.settings, *config);
      PublishConfigProblems(config);
    }
    Outcome outcome;
    try {
      outcome = Process(*next, work);
    } catch (const std::exception& e) {
      // The document's state may be half-updated: drop it rather than serve garbage.
      outcome.dropped = true;
      outcome.error = std::string("internal error: ") + e.what();
    }
    lock.lock();

    if (outcome.dropped) {
      log.Warn("dropping " + next->uri + ": " + outcome.error);
      auto it = docs.find(next->uri);
      if (it != docs.end() && it->second == next) {
        docs.erase(it);
        endpoint.Notify("textDocument/publishDiagnostics",
                        {{"uri", next->uri}, {"diagnostics", json::array()}});
      }
      next->closed = true;
      next->busy = false;
      std::vector<Waiter> orphans = std::move(next->waiters);
      lock.unlock();
      for (Waiter& w : orphans) w.reply.ContentModified();
      lock.lock();
      continue;
    }
    if (outcome.analysed && !outcome.from_scratch) {
      next->recent_ms = next->recent_ms == 0 ? outcome.ms : 0.5 * next->recent_ms + 0.5 * outcome.ms;
    }
    // Requests made before a newer edit are stale whatever happens next.
    std::vector<Waiter> answer;
    std::vector<Waiter> stale;
    for (Waiter& w : next->waiters) {
      (w.version < next->version ? stale : answer).push_back(std::move(w));
    }
    next->waiters.clear();
    bool current = !next->closed && !next->dirty && next->version == work.version;
    if (current && outcome.analysed) {
      // Written as text: at 100k lines a file may have thousands of diagnostics, and a json tree
      // of them cost 25 ms per edit to build, copy, serialise and free.
      std::string params = R"({"uri":)";
      protocol::AppendJsonString(&params, next->uri);
      params += R"(,"version":)" + std::to_string(work.version) + R"(,"diagnostics":)";
      params += outcome.diagnostics;
      params += '}';
      endpoint.NotifyText("textDocument/publishDiagnostics", params);
    } else if (!current && !next->closed) {
      // Newer edits arrived meanwhile: the requests wait for the next round (and are answered
      // ContentModified then, their version being older).
      for (Waiter& w : answer) next->waiters.push_back(std::move(w));
      answer.clear();
    }
    lock.unlock();
    for (Waiter& w : stale) w.reply.ContentModified();
    if (current) {
      AnswerWaiters(*next, work, std::move(answer));
    } else {
      for (Waiter& w : answer) w.reply.ContentModified();  // closed meanwhile
    }
    lock.lock();
    next->busy = false;
    cv.notify_all();  // Work for this document may have arrived while it was busy.
    lock.unlock();
    next.reset();  // The last reference may be this one: destroy it unlocked.
    lock.lock();
  }
}

LanguageServer::Impl::Outcome LanguageServer::Impl::Process(DocState& d, Work& work) {
  Outcome outcome;
  bool fresh_analyzer = false;
  if (!d.analyzer || !SameOptions(d.analyzer_options, work.settings.options)) {
    fresh_analyzer = true;
    d.analyzer = std::make_unique<analysis::Analyzer>(work.settings.options);
    d.analyzer_options = work.settings.options;
    work.analyse = true;
  }
  for (Batch& batch : work.batches) {
    std::vector<analysis::PositionEdit> run;
    auto flush = [&]() {
      if (run.empty()) return true;
      analysis::EditResult result = d.doc->ApplyEdits(run, work.encoding);
      run.clear();
      if (result.ok) return true;
      outcome.dropped = true;
      outcome.error = "the change to version " + std::to_string(batch.version) +
                      " does not fit the document: " + result.error;
      return false;
    };
    for (Change& change : batch.changes) {
      if (change.full) {
        if (!flush()) return outcome;
        if (d.doc) {
          d.doc->ReplaceAll(std::move(change.text));
        } else {
          d.doc = std::make_unique<analysis::Document>(std::move(change.text));
        }
      } else if (!d.doc) {
        outcome.dropped = true;
        outcome.error = "a range change before any text";
        return outcome;
      } else {
        run.push_back({change.start, change.end, std::move(change.text)});
      }
    }
    if (!flush()) return outcome;
  }
  if (!d.doc) {
    outcome.dropped = true;
    outcome.error = "no text";
    return outcome;
  }
  if (!work.analyse) return outcome;
  Clock::time_point start = Clock::now();
  if (fresh_analyzer && d.doc->Text().size() >= kProgressBytes && client.progress) {
    WithProgress(d.uri, [&] { d.analyzer->Run(*d.doc); });
  } else {
    d.analyzer->Run(*d.doc);
  }
  outcome.analysed = true;
  outcome.from_scratch = fresh_analyzer;
  outcome.ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  outcome.diagnostics = "[";
  if (d.analyzer->HasTvmScript()) {
    for (const analysis::Diagnostic* diagnostic : d.analyzer->Diagnostics()) {
      std::optional<analysis::Severity> severity = work.settings.SeverityOf(*diagnostic);
      if (!severity) continue;
      if (outcome.diagnostic_count++ > 0) outcome.diagnostics += ',';
      AppendDiagnosticJson(&outcome.diagnostics, *d.doc, *diagnostic, d.uri, work.encoding,
                           *severity, docs_base);
    }
  }
  outcome.diagnostics += ']';
#ifdef __GLIBC__
  // A from-scratch analysis of a large file leaves tens of MB of freed parser and lowering
  // temporaries mapped; hand them back to the system.
  if (fresh_analyzer && d.doc->Text().size() >= kProgressBytes) malloc_trim(0);
#endif
  if (log.Enabled(protocol::LogLevel::kDebug)) {
    log.Debug("analysed " + d.uri + " version " + std::to_string(work.version) + " in " +
              std::to_string(outcome.ms) + " ms: " +
              std::to_string(outcome.diagnostic_count) + " diagnostics");
  }
  return outcome;
}

void LanguageServer::Impl::WithProgress(const std::string& uri, const std::function<void()>& run) {
  struct State {
    std::mutex mu;
    bool done = false;
    bool begun = false;
  };
  auto state = std::make_shared<State>();
  std::string token = "tvmls-analysis-" + std::to_string(++progress_tokens);
  std::string title = "Analysing " + uri.substr(uri.rfind('/') + 1);
  protocol::Endpoint* ep = &endpoint;
  endpoint.Call("window/workDoneProgress/create", {{"token", token}},
                [state, token, title, ep](protocol::CallResponse response) {
                  std::lock_guard<std::mutex> lock(state->mu);
                  if (!response.ok() || state->done) return;
                  state->begun = true;
                  ep->Notify("$/progress",
                             {{"token", token},
                              {"value", {{"kind", "begin"}, {"title", title}, {"cancellable", false}}}});
                });
  run();
  std::lock_guard<std::mutex> lock(state->mu);
  state->done = true;
  if (state->begun) {
    endpoint.Notify("$/progress", {{"token", token}, {"value", {{"kind", "end"}}}});
  }
}

void LanguageServer::Impl::PublishConfigProblems(
    const std::shared_ptr<const ProjectConfig>& config) {
  if (config->path.empty()) return;
  analysis::Encoding enc;
  std::string base;
  {
    std::lock_guard<std::mutex> lock(mu);
    std::shared_ptr<const ProjectConfig>& published = config_published[config->path];
    if (published == config) return;
    bool had = published && !published->problems.empty();
    published = config;
    if (config->problems.empty() && !had) return;
    enc = encoding;
    base = docs_base;
  }
  // The file is read and the message built outside the lock (the workers and the message loop
  // take it); a newer version of the file published meanwhile is published after this one.
  std::string text, error;
  ReadSourceFile(config->path, &text, &error);
  analysis::Document doc(text);
  std::string uri = FileUri(config->path);
  json diagnostics = json::array();
  for (const analysis::Diagnostic& d : ConfigDiagnostics(*config, doc)) {
    diagnostics.push_back(DiagnosticJson(doc, d, uri, enc, d.severity, base));
  }
  endpoint.Notify("textDocument/publishDiagnostics",
                  {{"uri", uri}, {"diagnostics", std::move(diagnostics)}});
}

void LanguageServer::Impl::AnswerWaiters(DocState& d, const Work& work, std::vector<Waiter> waiters) {
  if (waiters.empty()) return;
  QueryContext ctx{*d.doc, *d.analyzer, d.uri, work.encoding, work.settings, docs_base,
                   d.language, client};
  for (Waiter& w : waiters) {
    if (w.reply.IsCancelled()) continue;
    try {
      w.reply.Result(d.analyzer->HasTvmScript() ? w.answer(ctx) : w.empty);
    } catch (...) {
      w.reply.Fail(std::current_exception());
    }
  }
}

// ------------------------------------------------------------------------------------------------

LanguageServer::LanguageServer(protocol::Endpoint& endpoint)
    : impl_(std::make_unique<Impl>(endpoint)) {
  impl_->Register();
  impl_->Start();
}

LanguageServer::~LanguageServer() { impl_->Stop(); }

protocol::SessionFactory MakeSessionFactory() {
  return [](protocol::Endpoint& endpoint) -> std::shared_ptr<void> {
    return std::make_shared<LanguageServer>(endpoint);
  };
}

}  // namespace tvmls::server
