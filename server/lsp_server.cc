// The language server: the method table, one handler per method on the loop thread, and the
// documents' analysis (LspDocument) run by the Scheduler's workers.
#include "lsp_server.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis.h"
#include "cli.h"
#include "diagnostics_json.h"
#include "jsonrpc.h"
#include "lsp_convert.h"
#include "lsp_features.h"
#include "memory_janitor.h"
#include "preview.h"
#include "project_config.h"
#include "scheduler.h"
#include "settings.h"

namespace tvmls::server {

using protocol::json;
using protocol::ParamView;
using protocol::Reply;
using Clock = std::chrono::steady_clock;

namespace {

// A document analysed from scratch (opened, or its analyzer replaced by new settings) at least
// this large shows a work-done progress in clients that support it: about 0.1 s of analysis.
constexpr size_t kProgressBytes = 256 * 1024;
// An opened text this large gets its first statements' diagnostics first (LspDocument::Preview):
// its whole analysis takes a quarter of a second or more (about 2.5 s at 100k lines).
constexpr size_t kPreviewBytes = 256 * 1024;
// An incremental analysis of a large document that took at least this long has rebuilt much of
// the tree or the models (error recovery can rebuild a third of a 100k-line file's tree on one
// keystroke), so the memory it freed is handed back to the system (server/memory_janitor.h) once
// the server is idle, or within kReleaseMaxWait while the user keeps typing. An ordinary keystroke takes about 1 ms; what it frees (the last diagnostics'
// text: megabytes at 100k lines) is handed back once idle.
constexpr double kReleaseAfterMs = 50;
// And after this many analyses of a large document, whatever they cost: the requests' answers
// and the diagnostics' text are freed in between, and what glibc keeps of them must not drift.
constexpr int kReleaseEveryAnalyses = 256;
// An answer at least this large (the full semantic tokens of a large file) is handed back once
// idle, like an ordinary keystroke's round.
constexpr size_t kLargeAnswerBytes = 256 * 1024;
// The janitor releases after this long without an analysis or request, or this long after the
// first large free while the user keeps typing.
constexpr auto kReleaseIdle = std::chrono::milliseconds(1000);
constexpr auto kReleaseMaxWait = std::chrono::seconds(10);

using Answer = std::function<json(const QueryContext&)>;

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

// True when a code action of `kind` passes the `only` filter: kinds are hierarchical, so
// "refactor" asks for "refactor.rewrite" too.
bool KindWanted(const std::optional<std::vector<std::string>>& only, const std::string& kind) {
  if (!only) return true;
  return std::any_of(only->begin(), only->end(), [&](const std::string& wanted) {
    return wanted.empty() || kind == wanted || kind.rfind(wanted + ".", 0) == 0;
  });
}

// The client's diagnostics of a code action request (context.diagnostics) by code and start
// line; malformed entries are skipped.
AskedDiagnostics AskedIn(const ParamView& p) {
  AskedDiagnostics asked;
  std::optional<ParamView> listed = p.FindView("context.diagnostics");
  if (!listed || !listed->value().is_array()) return asked;
  for (const json& d : listed->value()) {
    const json& code = At(d, {"code"});
    const json& line = At(d, {"range", "start", "line"});
    if (code.is_string() && line.is_number_integer()) {
      asked.insert({code.get<std::string>(), line.get<int64_t>()});
    }
  }
  return asked;
}

// What `initialize` negotiated: the session's settings and what the capabilities depend on.
struct Negotiated {
  protocol::PositionEncoding encoding = protocol::PositionEncoding::kUtf16;
  ClientFeatures client;
  Settings settings;  // the defaults and initializationOptions
  bool configuration_pull = false;
  bool hierarchical_symbols = false;
  std::vector<std::string> problems;  // in initializationOptions
};

Negotiated Negotiate(const json& params) {
  Negotiated n;
  n.encoding = protocol::NegotiatePositionEncoding(params);
  const json& item = At(params, {"capabilities", "textDocument", "completion", "completionItem"});
  n.client.snippets = Flag(item, {"snippetSupport"});
  n.client.progress = Flag(params, {"capabilities", "window", "workDoneProgress"});
  n.client.pull_diagnostics = At(params, {"capabilities", "textDocument", "diagnostic"}).is_object();
  n.client.diagnostic_refresh =
      Flag(params, {"capabilities", "workspace", "diagnostics", "refreshSupport"});
  const json& defaults =
      At(params, {"capabilities", "textDocument", "completion", "completionList", "itemDefaults"});
  n.client.completion_edit_range_default =
      defaults.is_array() && std::find(defaults.begin(), defaults.end(), json("editRange")) != defaults.end();
  const json& tags = At(item, {"tagSupport", "valueSet"});
  n.client.completion_deprecated_tag =
      tags.is_array() && std::find(tags.begin(), tags.end(), json(1)) != tags.end();
  const json& token_types =
      At(params, {"capabilities", "textDocument", "semanticTokens", "tokenTypes"});
  if (token_types.is_array()) {
    for (const json& t : token_types) {
      if (t.is_string()) n.client.token_types.push_back(t.get<std::string>());
    }
  }
  if (std::optional<ParamView> options = ParamView(params).FindView("initializationOptions")) {
    ApplySettings(SettingsSection(options->value()), true, &n.settings, &n.problems);
  }
  n.configuration_pull = Flag(params, {"capabilities", "workspace", "configuration"});
  n.hierarchical_symbols = Flag(params, {"capabilities", "textDocument", "documentSymbol",
                                         "hierarchicalDocumentSymbolSupport"});
  return n;
}

// The fragment of ServerCapabilities a method contributes, given what was negotiated.
using Capability = std::function<json(const Negotiated&)>;

Capability Provides(const char* key, json value) {
  return [fragment = json{{key, std::move(value)}}](const Negotiated&) { return fragment; };
}

// textDocumentSync (TextDocumentSyncOptions), to which each document notification adds its part.
Capability Sync(json part) { return Provides("textDocumentSync", std::move(part)); }

// semanticTokensProvider with `request` ("full" or "range") set to `value`. Tokens go to
// `tvmscript` documents, and to `python` ones only when asked: editors show one provider's tokens,
// and Python files have their Python server's.
Capability SemanticTokensProvider(const char* request, json value) {
  return [request, value](const Negotiated& n) {
    json selector = json::array({{{"language", "tvmscript"}}});
    if (n.settings.semantic_tokens_for_python) selector.push_back({{"language", "python"}});
    return json{{"semanticTokensProvider",
                 {{"legend", SemanticTokensLegend(n.client)},
                  {request, value},
                  {"documentSelector", std::move(selector)}}}};
  };
}

// diagnosticProvider, only for a client that pulls diagnostics (textDocument.diagnostic): the
// others get them pushed. A document's diagnostics depend on it alone (and its folder's
// tvmls.toml, which a workspace/diagnostic/refresh covers).
Capability DiagnosticProvider() {
  return [](const Negotiated& n) {
    if (!n.client.pull_diagnostics) return json::object();
    return json{{"diagnosticProvider",
                 {{"interFileDependencies", false}, {"workspaceDiagnostics", true}}}};
  };
}

// The answer to a diagnostic pull overtaken by an edit (LSP 3.17 DiagnosticServerCancellationData):
// the client asks again.
void ServerCancelled(const Reply& reply) {
  reply.Error(protocol::ErrorCode::kServerCancelled, "the document changed: pull again",
              json{{"retriggerRequest", true}});
}

json EmptyDiagnostics(const std::string& uri) {
  return {{"uri", uri}, {"diagnostics", json::array()}};
}

// A time in ms with two decimals, for the debug log.
std::string Ms(double ms) {
  char out[32];
  std::snprintf(out, sizeof out, "%.2f", ms);
  return out;
}

}  // namespace

class LspDocument;

struct LanguageServer::Impl {
  explicit Impl(protocol::Endpoint& ep)
      : endpoint(ep),
        log(ep.logger()),
        scheduler(Scheduler::DefaultWorkers(),
                  [this](const std::string& uri, const std::string& reason, bool removed) {
                    OnDrop(uri, reason, removed);
                  }) {}

  protocol::Endpoint& endpoint;
  protocol::Logger log;

  std::mutex mu;           // guards what follows, down to the scheduler
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
  // Fixed by initialize, before any document (the endpoint drops notifications until then), and
  // read by the workers without the lock.
  std::string docs_base;  // codeDescription base
  ClientFeatures client;
  std::atomic<int64_t> progress_tokens{0};
  // Hands memory freed by expensive rounds back to the system when idle; the workers use it.
  MemoryJanitor janitor{kReleaseIdle, kReleaseMaxWait, [this] { ReleaseMemory(); }};
  std::atomic<uint64_t> document_serial{0};       // names each LspDocument (result ids)
  std::atomic<bool> refresh_in_flight{false};     // a workspace/diagnostic/refresh awaits its answer
  // Last: destroyed first, joining the workers that use the members above.
  Scheduler scheduler;

  // ---- The method table ----
  using RequestHandler = void (Impl::*)(const json& params, const Reply& reply);
  using NotificationHandler = void (Impl::*)(const json& params);
  struct Binding {
    const char* method;
    RequestHandler request = nullptr;            // one of the two
    NotificationHandler notification = nullptr;
    Capability capability;                        // may be empty
  };
  static Binding Bind(const char* method, RequestHandler handler, Capability capability = {}) {
    return {method, handler, nullptr, std::move(capability)};
  }
  static Binding Bind(const char* method, NotificationHandler handler,
                      Capability capability = {}) {
    return {method, nullptr, handler, std::move(capability)};
  }
  static const std::vector<Binding>& Methods();
  static json Capabilities(const Negotiated& negotiated);
  void Register();

  // ---- Handlers (loop thread) ----
  void OnInitialize(const json& params, const Reply& reply);
  void OnInitialized(const json& params);
  void OnDidChangeWatchedFiles(const json& params);
  void OnDidChangeConfiguration(const json& params);
  void OnDidOpen(const json& params);
  void OnDidChange(const json& params);
  void OnDidClose(const json& params);
  void OnDidSave(const json& params);
  void OnHover(const json& params, const Reply& reply);
  void OnDefinition(const json& params, const Reply& reply);
  void OnReferences(const json& params, const Reply& reply);
  void OnDocumentSymbol(const json& params, const Reply& reply);
  void OnCodeAction(const json& params, const Reply& reply);
  void OnDocumentHighlight(const json& params, const Reply& reply);
  void OnPrepareRename(const json& params, const Reply& reply);
  void OnRename(const json& params, const Reply& reply);
  void OnFoldingRange(const json& params, const Reply& reply);
  void OnSelectionRange(const json& params, const Reply& reply);
  void OnDocumentDiagnostic(const json& params, const Reply& reply);
  void OnWorkspaceDiagnostic(const json& params, const Reply& reply);
  void OnSemanticTokensFull(const json& params, const Reply& reply);
  void OnSemanticTokensDelta(const json& params, const Reply& reply);
  void OnSemanticTokensRange(const json& params, const Reply& reply);
  void OnCompletion(const json& params, const Reply& reply);
  void OnSignatureHelp(const json& params, const Reply& reply);
  void OnInlayHint(const json& params, const Reply& reply);

  void PullConfiguration();
  void UpdateSettings(const json& section);
  /// Answers `reply` with `answer` on the analysed current version of the params' document
  /// (`empty` for a document without TVMScript or not open; ContentModified when overtaken).
  void Query(const json& params, const Reply& reply, Answer answer, json empty);
  /// Answers `reply` with the JSON text `answer` writes for the params' document, on its analysed
  /// current version, whether or not it has TVMScript. `not_open` for a document that is not open;
  /// when overtaken: ContentModified, or with `server_cancellable` ServerCancelled (retrigger)
  /// by an edit and `not_open` by the close.
  void QueryText(const json& params, const Reply& reply,
                 std::function<std::string(LspDocument& doc, const analysis::Document& text)> answer,
                 std::string not_open, bool server_cancellable);
  /// Asks a client that pulls diagnostics to pull again (workspace/diagnostic/refresh), unless it
  /// cannot or a refresh is unanswered yet.
  void RefreshDiagnostics();
  /// Scheduler, under its lock: the document was dropped.
  void OnDrop(const std::string& uri, const std::string& reason, bool removed);

  // ---- Workers ----
  /// ReleaseFreedMemory, with the time it took logged at debug level. Any thread.
  void ReleaseMemory();
  /// Shows "Analysing FILE" while `run` runs, when the client supports work-done progress. The
  /// token is created with window/workDoneProgress/create; `begin` goes out only if the client
  /// accepted before `run` finished, and `end` only after a `begin`.
  void WithProgress(const std::string& uri, const std::function<void()>& run);
  /// Publishes the invalid-config diagnostics of `config`'s file when this version of it has not
  /// been published yet (an empty list once its mistakes are fixed).
  void PublishConfigProblems(const std::shared_ptr<const ProjectConfig>& config);
};

// One open document's analysis, on the Scheduler's workers: its Analyzer, the settings of its last
// round (its folder's project configuration under the client's settings), and the diagnostics to
// publish.
//
// Diagnostics: `generation_` counts the changes of their text; with push, Publish sends them only
// when the client has not got this generation yet (an edit that changes no diagnostic sends
// nothing); with pull, their resultId is "<serial>.<generation>", so a pull after such an edit is
// answered `unchanged`.
class LspDocument : public DocumentAnalysis {
 public:
  LspDocument(LanguageServer::Impl& server, std::string uri, std::string language, uint64_t serial)
      : server_(server),
        uri_(std::move(uri)),
        language_(std::move(language)),
        serial_(serial),
        writer_(uri_, server.docs_base),
        tokens_(serial) {}

  Outcome Analyse(const analysis::Document& text, int64_t version, bool edited) override;
  void Publish(int64_t version) override;
  /// For a client that takes pushed diagnostics and a text of kPreviewBytes or more: the
  /// diagnostics of its first statements (analysis/preview.h), published before the whole file's.
  bool Preview(const std::string& text, int64_t version) override;
  void PublishPreview(int64_t version) override;

  /// A DocumentDiagnosticReport as JSON text: `unchanged` when `previous` is the current
  /// resultId, else `full`. With `workspace`, a WorkspaceDocumentDiagnosticReport (uri, version).
  std::string DiagnosticReport(const std::string& previous, bool workspace) const;
  SemanticTokensState& Tokens() { return tokens_; }
  /// Counts the analyses run: what the model shows changes only when it does.
  uint64_t Round() const { return round_; }

  /// After a round: whether the text has TVMScript, and what a query sees.
  bool HasTvmScript() const { return analyzer_->HasTvmScript(); }
  QueryContext Context(const analysis::Document& text) {
    return {text, *analyzer_, uri_, encoding_, settings_, server_.docs_base, language_,
            server_.client};
  }

 private:
  // The session's settings with the project configuration's; publishes the configuration's
  // problems.
  void TakeSettings();
  // Runs the analyzer on `text` (with a progress when it is large and from scratch).
  void Run(const analysis::Document& text, bool from_scratch);
  void WriteDiagnostics(const analysis::Document& text);
  // Sends publishDiagnostics for `version` with `array`, a JSON array of diagnostics as text.
  void PushDiagnostics(int64_t version, const std::string& array);

  LanguageServer::Impl& server_;
  const std::string uri_;
  const std::string language_;
  std::unique_ptr<analysis::Analyzer> analyzer_;
  analysis::AnalysisOptions analyzer_options_;
  Settings settings_;
  analysis::Encoding encoding_ = analysis::Encoding::kUtf16;
  std::string DiagnosticsResultId() const;

  const uint64_t serial_;
  DiagnosticsWriter writer_;
  std::string diagnostics_;  // the JSON array of the last analysis, as text
  std::string preview_;      // the JSON array of Preview's diagnostics, until published
  size_t diagnostic_count_ = 0;
  int analyses_since_release_ = 0;
  uint64_t generation_ = 0;            // of diagnostics_
  uint64_t published_generation_ = 0;  // the last one pushed
  int64_t version_ = 0;                // the version last analysed
  uint64_t round_ = 0;
  SemanticTokensState tokens_;
};

// ------------------------------------------------------------------------------------------------
// The method table: each method, its handler and the capability it contributes. The initialize
// result is built from it (Capabilities) and Register binds it, so the two cannot drift.

const std::vector<LanguageServer::Impl::Binding>& LanguageServer::Impl::Methods() {
  static const std::vector<Binding> kMethods = {
      Bind("initialize", &Impl::OnInitialize),
      Bind("initialized", &Impl::OnInitialized),
      Bind("workspace/didChangeWatchedFiles", &Impl::OnDidChangeWatchedFiles),
      Bind("workspace/didChangeConfiguration", &Impl::OnDidChangeConfiguration),
      Bind("textDocument/didOpen", &Impl::OnDidOpen, Sync({{"openClose", true}})),
      Bind("textDocument/didChange", &Impl::OnDidChange, Sync({{"change", 2 /* Incremental */}})),
      Bind("textDocument/didClose", &Impl::OnDidClose, Sync({{"openClose", true}})),
      Bind("textDocument/didSave", &Impl::OnDidSave, Sync({{"save", {{"includeText", false}}}})),
      Bind("textDocument/hover", &Impl::OnHover, Provides("hoverProvider", true)),
      Bind("textDocument/definition", &Impl::OnDefinition, Provides("definitionProvider", true)),
      Bind("textDocument/references", &Impl::OnReferences, Provides("referencesProvider", true)),
      Bind("textDocument/documentSymbol", &Impl::OnDocumentSymbol,
           Provides("documentSymbolProvider", true)),
      Bind("textDocument/codeAction", &Impl::OnCodeAction,
           Provides("codeActionProvider", {{"codeActionKinds", {"quickfix", "refactor.rewrite"}}})),
      Bind("textDocument/documentHighlight", &Impl::OnDocumentHighlight,
           Provides("documentHighlightProvider", true)),
      Bind("textDocument/rename", &Impl::OnRename, Provides("renameProvider", json::object())),
      Bind("textDocument/prepareRename", &Impl::OnPrepareRename,
           Provides("renameProvider", {{"prepareProvider", true}})),
      Bind("textDocument/foldingRange", &Impl::OnFoldingRange,
           Provides("foldingRangeProvider", true)),
      Bind("textDocument/selectionRange", &Impl::OnSelectionRange,
           Provides("selectionRangeProvider", true)),
      Bind("textDocument/diagnostic", &Impl::OnDocumentDiagnostic, DiagnosticProvider()),
      Bind("workspace/diagnostic", &Impl::OnWorkspaceDiagnostic, DiagnosticProvider()),
      Bind("textDocument/semanticTokens/full", &Impl::OnSemanticTokensFull,
           SemanticTokensProvider("full", {{"delta", true}})),
      Bind("textDocument/semanticTokens/full/delta", &Impl::OnSemanticTokensDelta,
           SemanticTokensProvider("full", {{"delta", true}})),
      Bind("textDocument/semanticTokens/range", &Impl::OnSemanticTokensRange,
           SemanticTokensProvider("range", true)),
      Bind("textDocument/completion", &Impl::OnCompletion,
           Provides("completionProvider", {{"triggerCharacters", {"."}}, {"resolveProvider", false}})),
      Bind("textDocument/signatureHelp", &Impl::OnSignatureHelp,
           Provides("signatureHelpProvider",
                    {{"triggerCharacters", {"(", ","}}, {"retriggerCharacters", {"="}}})),
      Bind("textDocument/inlayHint", &Impl::OnInlayHint, Provides("inlayHintProvider", true)),
  };
  return kMethods;
}

json LanguageServer::Impl::Capabilities(const Negotiated& negotiated) {
  json capabilities = {{"positionEncoding", std::string(protocol::ToString(negotiated.encoding))}};
  for (const Binding& b : Methods()) {
    if (b.capability) capabilities.merge_patch(b.capability(negotiated));
  }
  return capabilities;
}

void LanguageServer::Impl::Register() {
  for (const Binding& b : Methods()) {
    if (b.request) {
      endpoint.OnRequest(b.method, [this, h = b.request](const json& params, Reply reply) {
        (this->*h)(params, reply);
      });
    } else {
      endpoint.OnNotification(b.method,
                              [this, h = b.notification](const json& params) { (this->*h)(params); });
    }
  }
}

std::vector<AdvertisedMethod> MethodTable(const json& initialize_params) {
  Negotiated negotiated = Negotiate(initialize_params);
  std::vector<AdvertisedMethod> table;
  for (const LanguageServer::Impl::Binding& b : LanguageServer::Impl::Methods()) {
    table.push_back({b.method, b.request != nullptr,
                     b.capability ? b.capability(negotiated) : json(nullptr)});
  }
  return table;
}

// ------------------------------------------------------------------------------------------------
// Lifecycle and settings.

void LanguageServer::Impl::OnInitialize(const json& params, const Reply& reply) {
  Negotiated n = Negotiate(params);
  for (const std::string& problem : n.problems) log.Warn("initializationOptions: " + problem);
  {
    std::lock_guard<std::mutex> lock(mu);
    encoding = ToAnalysisEncoding(n.encoding);
    base_settings = n.settings;
    settings = n.settings;
    docs_base = n.settings.docs_base ? *n.settings.docs_base : DefaultDocsBase();
    configuration_pull = n.configuration_pull;
    hierarchical_symbols = n.hierarchical_symbols;
    client = n.client;
  }
  std::optional<double> debounce;
  if (n.settings.debounce_ms) debounce = *n.settings.debounce_ms;
  scheduler.SetFixedDebounce(debounce);
  reply.Result({{"capabilities", Capabilities(n)},
                {"serverInfo", {{"name", "tvmls"}, {"version", TVMLS_VERSION}}}});
}

void LanguageServer::Impl::OnInitialized(const json&) {
  bool pull;
  {
    std::lock_guard<std::mutex> lock(mu);
    pull = configuration_pull;
  }
  if (pull) PullConfiguration();
}

// A project configuration file (tvmls.toml, pyproject.toml) was created, changed or deleted:
// every open document is analysed again (ConfigStore re-reads what changed). Clients send this
// for the files they watch (the VS Code extension watches both names); the server does not
// register watchers itself (Eglot 1.9 stalls 10 s reconnecting a server that asks to). Without
// it, a document picks up a changed configuration at its next edit.
void LanguageServer::Impl::OnDidChangeWatchedFiles(const json&) { scheduler.InvalidateAll(); }

void LanguageServer::Impl::OnDidChangeConfiguration(const json& params) {
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
  {
    std::lock_guard<std::mutex> lock(mu);
    Settings updated = base_settings;
    ApplySettings(section, false, &updated, &problems);
    settings = std::move(updated);
  }
  for (const std::string& problem : problems) log.Warn("configuration: " + problem);
  // Every open document is re-analysed (a no-op for the analyzer when the options are the same)
  // and its diagnostics republished with the new severities.
  scheduler.InvalidateAll();
}

// ------------------------------------------------------------------------------------------------
// Documents.

void LanguageServer::Impl::OnDidOpen(const json& params) {
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
  auto analysis = std::make_unique<LspDocument>(*this, uri, language, ++document_serial);
  if (scheduler.Open(uri, version, std::move(text), std::move(analysis))) {
    log.Warn("didOpen of " + uri + ", which is already open: replacing it");
  }
}

void LanguageServer::Impl::OnDidChange(const json& params) {
  ParamView p(params);
  std::string uri = p.Get<std::string>("textDocument.uri");
  int64_t version = p.Get<int64_t>("textDocument.version");
  std::vector<TextChange> changes;
  for (const ParamView& c : p.Array("contentChanges").Elements()) {
    TextChange change;
    change.text = c.Get<std::string>("text");
    if (c.Has("range")) {
      change.full = false;
      change.start = GetPosition(c, "range.start");
      change.end = GetPosition(c, "range.end");
    }
    changes.push_back(std::move(change));
  }
  analysis::Encoding enc;
  {
    std::lock_guard<std::mutex> lock(mu);
    enc = encoding;
  }
  Scheduler::ChangeResult r = scheduler.Change(uri, version, std::move(changes), enc);
  if (r.status == Scheduler::ChangeStatus::kNotOpen) {
    log.Warn("didChange of " + uri + ", which is not open (or was dropped): ignored");
  } else if (r.status == Scheduler::ChangeStatus::kNotNewer) {
    log.Warn("didChange of " + uri + " to version " + std::to_string(version) +
             ", not newer than version " + std::to_string(r.version) + ": ignored");
  }
}

void LanguageServer::Impl::OnDidClose(const json& params) {
  std::string uri = ParamView(params).Get<std::string>("textDocument.uri");
  // After Close no publication of the document is under way or to come: this empty list is last.
  // A client that pulls forgets a closed document's diagnostics itself.
  if (scheduler.Close(uri) && !client.pull_diagnostics) {
    endpoint.Notify("textDocument/publishDiagnostics", EmptyDiagnostics(uri));
  }
}

void LanguageServer::Impl::OnDidSave(const json& params) {
  ParamView(params).Get<std::string>("textDocument.uri");  // Nothing to do: edits carry text.
}

void LanguageServer::Impl::OnDrop(const std::string& uri, const std::string& reason,
                                  bool removed) {
  log.Warn("dropping " + uri + ": " + reason);
  if (!removed) return;
  if (client.pull_diagnostics) {
    RefreshDiagnostics();  // Its pulls now answer an empty report.
  } else {
    endpoint.Notify("textDocument/publishDiagnostics", EmptyDiagnostics(uri));
  }
}

void LanguageServer::Impl::Query(const json& params, const Reply& reply, Answer answer,
                                 json empty) {
  std::string uri = ParamView(params).Get<std::string>("textDocument.uri");
  Scheduler::Job job;
  job.run = [reply, answer = std::move(answer), empty](const analysis::Document& text,
                                                        DocumentAnalysis& analysis) {
    if (reply.IsCancelled()) return;
    auto& doc = static_cast<LspDocument&>(analysis);  // Every document's is an LspDocument.
    try {
      reply.Result(doc.HasTvmScript() ? answer(doc.Context(text)) : empty);
    } catch (...) {
      reply.Fail(std::current_exception());
    }
  };
  job.superseded = [reply] { reply.ContentModified(); };
  if (!scheduler.Query(uri, std::move(job))) reply.Result(std::move(empty));  // Not open.
}

void LanguageServer::Impl::QueryText(
    const json& params, const Reply& reply,
    std::function<std::string(LspDocument& doc, const analysis::Document& text)> answer,
    std::string not_open, bool server_cancellable) {
  std::string uri = ParamView(params).Get<std::string>("textDocument.uri");
  Scheduler::Job job;
  job.run = [this, reply, answer = std::move(answer)](const analysis::Document& text,
                                                      DocumentAnalysis& analysis) {
    if (reply.IsCancelled()) return;
    size_t bytes = 0;
    try {
      std::string result = answer(static_cast<LspDocument&>(analysis), text);
      bytes = result.size();
      reply.ResultText(std::move(result));
    } catch (...) {
      reply.Fail(std::current_exception());
    }
    janitor.Note(bytes >= kLargeAnswerBytes ? MemoryJanitor::Freed::kSome : MemoryJanitor::Freed::kNothing);
  };
  if (server_cancellable) {
    // Overtaken by the close: the answer a request after the close gets, not ServerCancelled
    // with retriggerRequest false (vscode-languageclient 9.0.1 then keeps the closed document's
    // diagnostics for good).
    job.superseded = [this, reply, uri, not_open] {
      if (scheduler.IsOpen(uri)) {
        ServerCancelled(reply);
      } else {
        reply.ResultText(not_open);
      }
    };
  } else {
    job.superseded = [reply] { reply.ContentModified(); };
  }
  if (!scheduler.Query(uri, std::move(job))) reply.ResultText(not_open);
}

void LanguageServer::Impl::RefreshDiagnostics() {
  if (!client.pull_diagnostics || !client.diagnostic_refresh) return;
  if (refresh_in_flight.exchange(true)) return;
  endpoint.Call("workspace/diagnostic/refresh", nullptr,
                [this](const protocol::CallResponse&) { refresh_in_flight = false; });
}

// ------------------------------------------------------------------------------------------------
// Diagnostics pulled (LSP 3.17): the report of the analysed current version, `unchanged` when
// the client has it.

void LanguageServer::Impl::OnDocumentDiagnostic(const json& params, const Reply& reply) {
  std::string previous = ParamView(params).Find<std::string>("previousResultId").value_or("");
  QueryText(
      params, reply,
      [previous](LspDocument& doc, const analysis::Document&) {
        return doc.DiagnosticReport(previous, false);
      },
      R"({"kind":"full","items":[]})", true);
}

// The open documents' reports, each of its analysed current version. A document changed while
// the pull waited is left out (its own pull covers it); one closed since the client's last report
// gets an empty one.
void LanguageServer::Impl::OnWorkspaceDiagnostic(const json& params, const Reply& reply) {
  std::map<std::string, std::string> previous;  // uri -> previousResultId
  std::optional<ParamView> listed = ParamView(params).FindView("previousResultIds");
  if (listed && listed->value().is_array()) {
    for (const json& p : listed->value()) {
      const json& uri = At(p, {"uri"});
      const json& value = At(p, {"value"});
      if (uri.is_string() && value.is_string()) previous[uri.get<std::string>()] = value.get<std::string>();
    }
  }
  struct Gather {
    explicit Gather(Reply r, size_t n) : reply(std::move(r)), remaining(n) {}
    Reply reply;
    std::mutex mu;
    size_t remaining;
    std::map<std::string, std::string> items;  // by uri: the answer is in uri order
    void Add(const std::string& uri, std::string item) {
      std::lock_guard<std::mutex> lock(mu);
      if (!item.empty()) items[uri] = std::move(item);
      if (--remaining > 0) return;
      std::string out = R"({"items":[)";
      bool first = true;
      for (const auto& entry : items) {
        if (!first) out += ',';
        first = false;
        out += entry.second;
      }
      out += "]}";
      reply.ResultText(std::move(out));
    }
  };
  std::vector<std::string> uris = scheduler.Keys();
  // A document the client has a report for but that is closed now has none: an empty full report
  // clears what the client shows for it (tvmls analyses open documents only).
  std::map<std::string, std::string> closed;
  for (const auto& entry : previous) {
    if (std::find(uris.begin(), uris.end(), entry.first) == uris.end()) {
      closed[entry.first] =
          json{{"uri", entry.first}, {"version", nullptr}, {"kind", "full"}, {"items", json::array()}}
              .dump();
    }
  }
  auto gather = std::make_shared<Gather>(reply, uris.size() + 1);
  gather->items = std::move(closed);
  for (const std::string& uri : uris) {
    auto it = previous.find(uri);
    std::string prev = it == previous.end() ? "" : it->second;
    Scheduler::Job job;
    job.run = [gather, uri, prev](const analysis::Document&, DocumentAnalysis& analysis) {
      std::string item;
      if (!gather->reply.IsCancelled()) {
        item = static_cast<LspDocument&>(analysis).DiagnosticReport(prev, true);
      }
      gather->Add(uri, std::move(item));
    };
    job.superseded = [gather, uri] { gather->Add(uri, ""); };
    if (!scheduler.Query(uri, std::move(job))) gather->Add(uri, "");
  }
  gather->Add("", "");  // the count's extra one: answers at once when no document is open
}

// ------------------------------------------------------------------------------------------------
// Features: the params read on the loop thread, the answer (lsp_features.h) on a worker.

void LanguageServer::Impl::OnHover(const json& params, const Reply& reply) {
  analysis::Position position = GetPosition(ParamView(params), "position");
  Query(params, reply, [position](const QueryContext& ctx) { return HoverAnswer(ctx, position); },
        nullptr);
}

void LanguageServer::Impl::OnDefinition(const json& params, const Reply& reply) {
  analysis::Position position = GetPosition(ParamView(params), "position");
  Query(params, reply,
        [position](const QueryContext& ctx) { return DefinitionAnswer(ctx, position); },
        json::array());
}

void LanguageServer::Impl::OnReferences(const json& params, const Reply& reply) {
  ParamView p(params);
  analysis::Position position = GetPosition(p, "position");
  bool include = p.Find<bool>("context.includeDeclaration").value_or(false);
  Query(params, reply,
        [position, include](const QueryContext& ctx) {
          return ReferencesAnswer(ctx, position, include);
        },
        json::array());
}

void LanguageServer::Impl::OnDocumentSymbol(const json& params, const Reply& reply) {
  bool hierarchical;
  {
    std::lock_guard<std::mutex> lock(mu);
    hierarchical = hierarchical_symbols;
  }
  Query(params, reply,
        [hierarchical](const QueryContext& ctx) { return DocumentSymbolAnswer(ctx, hierarchical); },
        json::array());
}

void LanguageServer::Impl::OnCodeAction(const json& params, const Reply& reply) {
  ParamView p(params);
  analysis::Position start = GetPosition(p, "range.start");
  analysis::Position end = GetPosition(p, "range.end");
  std::optional<std::vector<std::string>> only = p.Find<std::vector<std::string>>("context.only");
  bool quickfix = KindWanted(only, "quickfix");
  bool rewrite = KindWanted(only, "refactor.rewrite");
  if (!quickfix && !rewrite) {
    reply.Result(json::array());
    return;
  }
  AskedDiagnostics asked = AskedIn(p);
  Query(params, reply,
        [start, end, quickfix, rewrite, asked](const QueryContext& ctx) {
          json result = rewrite ? AnnotateActions(ctx, start) : json::array();
          if (quickfix) {
            for (json& action : QuickFixActions(ctx, start, end, asked)) {
              result.push_back(std::move(action));
            }
          }
          return result;
        },
        json::array());
}

void LanguageServer::Impl::OnDocumentHighlight(const json& params, const Reply& reply) {
  analysis::Position position = GetPosition(ParamView(params), "position");
  Query(params, reply,
        [position](const QueryContext& ctx) { return DocumentHighlightAnswer(ctx, position); },
        json::array());
}

void LanguageServer::Impl::OnPrepareRename(const json& params, const Reply& reply) {
  analysis::Position position = GetPosition(ParamView(params), "position");
  Query(params, reply,
        [position](const QueryContext& ctx) { return PrepareRenameAnswer(ctx, position); },
        nullptr);
}

void LanguageServer::Impl::OnRename(const json& params, const Reply& reply) {
  ParamView p(params);
  analysis::Position position = GetPosition(p, "position");
  std::string new_name = p.Get<std::string>("newName");
  Query(params, reply,
        [position, new_name](const QueryContext& ctx) {
          return RenameAnswer(ctx, position, new_name);
        },
        nullptr);
}

void LanguageServer::Impl::OnFoldingRange(const json& params, const Reply& reply) {
  Query(params, reply, [](const QueryContext& ctx) { return FoldingRangeAnswer(ctx); },
        json::array());
}

void LanguageServer::Impl::OnSelectionRange(const json& params, const Reply& reply) {
  std::vector<analysis::Position> positions;
  for (const ParamView& position : ParamView(params).Array("positions").Elements()) {
    positions.push_back({position.Get<uint32_t>("line"), position.Get<uint32_t>("character")});
  }
  Query(params, reply,
        [positions](const QueryContext& ctx) { return SelectionRangeAnswer(ctx, positions); },
        json::array());
}

void LanguageServer::Impl::OnSemanticTokensFull(const json& params, const Reply& reply) {
  QueryText(
      params, reply,
      [](LspDocument& doc, const analysis::Document& text) {
        return doc.Tokens().Full(doc.Context(text), doc.Round());
      },
      "null", false);
}

void LanguageServer::Impl::OnSemanticTokensDelta(const json& params, const Reply& reply) {
  std::string previous = ParamView(params).Find<std::string>("previousResultId").value_or("");
  QueryText(
      params, reply,
      [previous](LspDocument& doc, const analysis::Document& text) {
        return doc.Tokens().Delta(doc.Context(text), doc.Round(), previous);
      },
      "null", false);
}

void LanguageServer::Impl::OnSemanticTokensRange(const json& params, const Reply& reply) {
  ParamView p(params);
  analysis::Position start = GetPosition(p, "range.start");
  analysis::Position end = GetPosition(p, "range.end");
  QueryText(
      params, reply,
      [start, end](LspDocument& doc, const analysis::Document& text) {
        return SemanticTokensRangeAnswer(doc.Context(text), start, end);
      },
      "null", false);
}

void LanguageServer::Impl::OnCompletion(const json& params, const Reply& reply) {
  analysis::Position position = GetPosition(ParamView(params), "position");
  QueryText(
      params, reply,
      [position](LspDocument& doc, const analysis::Document& text) -> std::string {
        return doc.HasTvmScript() ? CompletionAnswer(doc.Context(text), position) : kEmptyCompletion;
      },
      kEmptyCompletion, false);
}

void LanguageServer::Impl::OnSignatureHelp(const json& params, const Reply& reply) {
  analysis::Position position = GetPosition(ParamView(params), "position");
  Query(params, reply,
        [position](const QueryContext& ctx) { return SignatureHelpAnswer(ctx, position); },
        nullptr);
}

void LanguageServer::Impl::OnInlayHint(const json& params, const Reply& reply) {
  ParamView p(params);
  analysis::Position start = GetPosition(p, "range.start");
  analysis::Position end = GetPosition(p, "range.end");
  Query(params, reply,
        [start, end](const QueryContext& ctx) { return InlayHintAnswer(ctx, start, end); },
        json::array());
}

// ------------------------------------------------------------------------------------------------
// Workers.

DocumentAnalysis::Outcome LspDocument::Analyse(const analysis::Document& text, int64_t version,
                                               bool edited) {
  TakeSettings();
  bool from_scratch = false;
  if (!analyzer_ || !SameOptions(analyzer_options_, settings_.options)) {
    from_scratch = true;
    analysis::AnalysisOptions options = settings_.options;
    options.threads = 0;  // a first analysis lowers the statements on every core
    analyzer_ = std::make_unique<analysis::Analyzer>(options);
    analyzer_options_ = settings_.options;
  }
  if (!edited && !from_scratch) return {};
  Clock::time_point start = Clock::now();
  Run(text, from_scratch);
  ++round_;
  Outcome outcome;
  outcome.analysed = true;
  outcome.from_scratch = from_scratch;
  Clock::time_point analysed = Clock::now();
  outcome.ms = std::chrono::duration<double, std::milli>(analysed - start).count();
  uint64_t generation = generation_;
  WriteDiagnostics(text);
  double json_ms = std::chrono::duration<double, std::milli>(Clock::now() - analysed).count();
  bool large = text.Text().size() >= kProgressBytes;
  if (large && from_scratch) {
    // The open is slow anyway: its freed temporaries go back at once.
    analyses_since_release_ = 0;
    server_.ReleaseMemory();
  } else {
    bool much = large && (outcome.ms >= kReleaseAfterMs || ++analyses_since_release_ >= kReleaseEveryAnalyses);
    if (much) analyses_since_release_ = 0;
    server_.janitor.Note(much    ? MemoryJanitor::Freed::kMuch
                         : large ? MemoryJanitor::Freed::kSome
                                 : MemoryJanitor::Freed::kNothing);
  }
  // With pull, the client pulls after its own edits; diagnostics that changed without one (new
  // settings, a project configuration) need a refresh.
  if (generation_ != generation && version == version_ && generation != 0) {
    server_.RefreshDiagnostics();
  }
  version_ = version;
  if (server_.log.Enabled(protocol::LogLevel::kDebug)) {
    // One line per round, read by bench/lsp/typing.py (its LOG_LINE).
    const analysis::RunStats& stats = analyzer_->Stats();
    server_.log.Debug("analysed " + uri_ + " version " + std::to_string(version) + " in " +
                      std::to_string(outcome.ms) + " ms (reparse " +
                      std::to_string(text.LastParseMs()) + " ms; functions re-lowered " +
                      std::to_string(stats.functions_analyzed) + " of " +
                      std::to_string(stats.functions) + "; statements scanned " +
                      std::to_string(stats.statements_scanned) + " of " +
                      std::to_string(stats.statements) + "; scan " + Ms(stats.scan_ms) + ", mark " +
                      Ms(stats.mark_ms) + ", analyse " + Ms(stats.analyse_ms) + ", assemble " +
                      Ms(stats.assemble_ms) + ", json " + Ms(json_ms) + " ms): " +
                      std::to_string(diagnostic_count_) + " diagnostics");
  }
  return outcome;
}

void LspDocument::TakeSettings() {
  {
    std::lock_guard<std::mutex> lock(server_.mu);
    settings_ = server_.settings;
    encoding_ = server_.encoding;
  }
  std::string path = FilePathOfUri(uri_);
  if (path.empty()) return;
  std::shared_ptr<const ProjectConfig> config =
      server_.configs.For(std::filesystem::path(path).parent_path().string());
  settings_ = WithConfig(settings_, *config);
  server_.PublishConfigProblems(config);
}

void LspDocument::Run(const analysis::Document& text, bool from_scratch) {
  bool large = text.Text().size() >= kProgressBytes;
  if (from_scratch && large && server_.client.progress) {
    server_.WithProgress(uri_, [&] { analyzer_->Run(text); });
  } else {
    analyzer_->Run(text);
  }
}

void LanguageServer::Impl::ReleaseMemory() {
  bool debug = log.Enabled(protocol::LogLevel::kDebug);
  HeapUse before = debug ? MeasureHeap() : HeapUse{};
  Clock::time_point start = Clock::now();
  ReleaseFreedMemory();
  if (debug) {
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    HeapUse after = MeasureHeap();
    auto mb = [](size_t bytes) { return std::to_string(bytes / (1024 * 1024)); };
    // Read by tests/stress/stress_lsp.py (TRIMMED).
    log.Debug("returned freed memory in " + std::to_string(ms) + " ms (heap in use " +
              mb(after.in_use) + " MB; freed but kept " + mb(before.kept) + " -> " +
              mb(after.kept) + " MB)");
  }
}

void LspDocument::WriteDiagnostics(const analysis::Document& text) {
  // Written as text: at 100k lines a file may have thousands of diagnostics, and a json tree of
  // them cost 25 ms per edit to build, copy, serialise and free.
  std::string diagnostics = writer_.Write(*analyzer_, text, settings_, encoding_, &diagnostic_count_);
  if (generation_ != 0 && diagnostics == diagnostics_) return;
  diagnostics_ = std::move(diagnostics);
  ++generation_;
}

std::string LspDocument::DiagnosticsResultId() const {
  return std::to_string(serial_) + "." + std::to_string(generation_);
}

std::string LspDocument::DiagnosticReport(const std::string& previous, bool workspace) const {
  std::string id = DiagnosticsResultId();
  std::string out = "{";
  if (workspace) {
    out += R"("uri":)";
    protocol::AppendJsonString(&out, uri_);
    out += R"(,"version":)" + std::to_string(version_) + ",";
  }
  if (previous == id) return out + R"("kind":"unchanged","resultId":")" + id + R"("})";
  // Room for the response around it and its frame header (Reply::ResultText builds them in place).
  out.reserve(out.size() + diagnostics_.size() + 256);
  out += R"("kind":"full","resultId":")" + id + R"(","items":)";
  out += diagnostics_;
  out += '}';
  return out;
}

bool LspDocument::Preview(const std::string& text, int64_t version) {
  if (server_.client.pull_diagnostics || text.size() < kPreviewBytes) return false;
  TakeSettings();
  Clock::time_point start = Clock::now();
  std::optional<analysis::Preview> preview = analysis::PreviewFirstStatements(text, settings_.options);
  if (!preview) return false;
  preview_ = "[";
  size_t count = 0;
  for (const analysis::Diagnostic& d : preview->diagnostics) {
    std::optional<analysis::Severity> severity = settings_.SeverityOf(d);
    if (!severity) continue;
    if (count++ > 0) preview_ += ',';
    AppendDiagnosticJson(&preview_, *preview->prefix, d, uri_, encoding_, *severity, server_.docs_base);
  }
  preview_ += ']';
  if (server_.log.Enabled(protocol::LogLevel::kDebug)) {
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    server_.log.Debug("previewed " + uri_ + " version " + std::to_string(version) + " in " + Ms(ms) +
                      " ms: " + std::to_string(count) + " diagnostics in bytes [0, " +
                      std::to_string(preview->end) + ") of " + std::to_string(text.size()));
  }
  return true;
}

void LspDocument::PublishPreview(int64_t version) {
  PushDiagnostics(version, preview_);
  std::string().swap(preview_);
}

void LspDocument::Publish(int64_t version) {
  // A client that pulls gets no pushed diagnostics, and one that has this generation none again.
  if (server_.client.pull_diagnostics || published_generation_ == generation_) return;
  published_generation_ = generation_;
  PushDiagnostics(version, diagnostics_);
}

void LspDocument::PushDiagnostics(int64_t version, const std::string& array) {
  std::string params = R"({"uri":)";
  protocol::AppendJsonString(&params, uri_);
  params += R"(,"version":)" + std::to_string(version) + R"(,"diagnostics":)";
  // Room for the notification around it and its frame header (NotifyText builds them in place).
  params.reserve(params.size() + array.size() + 256);
  params += array;
  params += '}';
  server_.endpoint.NotifyText("textDocument/publishDiagnostics", std::move(params));
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

// ------------------------------------------------------------------------------------------------

LanguageServer::LanguageServer(protocol::Endpoint& endpoint)
    : impl_(std::make_unique<Impl>(endpoint)) {
  impl_->Register();
}

LanguageServer::~LanguageServer() { impl_->scheduler.Stop(); }

protocol::SessionFactory MakeSessionFactory() {
  return [](protocol::Endpoint& endpoint) -> std::shared_ptr<void> {
    return std::make_shared<LanguageServer>(endpoint);
  };
}

}  // namespace tvmls::server
