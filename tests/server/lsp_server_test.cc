// The language server in process, over the loopback client: lifecycle, documents and versions,
// scheduling, every advertised feature, settings, bad params.
#include "lsp_server.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "lsp_session.h"
#include "support/files.h"

namespace tvmls::testing {
namespace {

const char* const kUri = "file:///work/mod.py";

// Line 9 uses an undefined `yy` (columns 26-28); `y` is bound on line 8 (column 8) without an
// annotation, used on line 9 (column 23).
const std::string kText =
    "from tvm.script import ir as I\n"
    "from tvm.script import relax as R\n"
    "\n"
    "\n"
    "@I.ir_module\n"
    "class Mod:\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((4,), \"float32\")):\n"
    "        y = R.add(x, x)\n"
    "        z = R.multiply(y, yy)\n"
    "        return z\n";

json Range(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) {
  return {{"start", {{"line", l1}, {"character", c1}}}, {"end", {{"line", l2}, {"character", c2}}}};
}

std::vector<std::string> Codes(const json& publish) {
  std::vector<std::string> codes;
  for (const json& d : publish["diagnostics"]) codes.push_back(d.value("code", ""));
  return codes;
}

TEST(LspServer, InitializeAdvertisesWhatWorksAndShutdownExitsZero) {
  LspSession s;
  ASSERT_TRUE(s.initialize_response());
  const json& caps = (*s.initialize_response())["result"]["capabilities"];
  EXPECT_EQ(caps["positionEncoding"], "utf-16");
  EXPECT_EQ(caps["textDocumentSync"]["change"], 2);
  EXPECT_EQ(caps["textDocumentSync"]["openClose"], true);
  EXPECT_TRUE(caps["textDocumentSync"].contains("save"));
  EXPECT_EQ((*s.initialize_response())["result"]["serverInfo"]["name"], "tvmls");
  EXPECT_EQ(s.client().ShutdownAndExit(), 0);
}

// The capabilities come from the method table: each method's fragment is in the initialize
// result, every capability there (but the negotiated positionEncoding) is some method's, and
// every method of the table is answered by the server.
TEST(LspServer, CapabilitiesAreTheMethodTables) {
  json options = {{"debounceMs", 0}, {"semanticTokensForPython", true}};
  LspSession s(options);
  ASSERT_TRUE(s.initialize_response());
  const json& caps = (*s.initialize_response())["result"]["capabilities"];
  std::vector<server::AdvertisedMethod> table = server::MethodTable(
      {{"capabilities", json::object()}, {"initializationOptions", options}});

  std::set<std::string> methods;
  json merged = json::object();
  std::set<std::string> contributed = {"positionEncoding"};
  for (const server::AdvertisedMethod& m : table) {
    EXPECT_TRUE(methods.insert(m.method).second) << "bound twice: " << m.method;
    if (m.capability.is_null()) continue;
    ASSERT_TRUE(m.capability.is_object()) << m.method;
    for (const auto& [key, value] : m.capability.items()) {
      contributed.insert(key);
      ASSERT_TRUE(caps.contains(key)) << m.method << " contributes " << key;
      // The method's part is in the result (the fragments of one key are merged).
      json part = caps[key];
      part.merge_patch(value);
      EXPECT_EQ(part, caps[key]) << m.method;
    }
    merged.merge_patch(m.capability);
  }
  for (const auto& [key, value] : caps.items()) {
    EXPECT_TRUE(contributed.count(key)) << key << " is advertised by no method";
  }
  merged["positionEncoding"] = caps["positionEncoding"];
  EXPECT_EQ(merged, caps);
  EXPECT_EQ(caps["semanticTokensProvider"]["full"], (json{{"delta", true}}));
  EXPECT_EQ(caps["semanticTokensProvider"]["range"], true);
  EXPECT_EQ(caps["renameProvider"]["prepareProvider"], true);

  // Every request of the table is answered: a result, or an error other than MethodNotFound
  // (missing params), for a document that is not open.
  json params = {{"textDocument", {{"uri", kUri}}}};
  for (const server::AdvertisedMethod& m : table) {
    if (!m.request || m.method == "initialize") continue;
    std::optional<json> r = s.Request(m.method, params);
    ASSERT_TRUE(r) << m.method;
    if (r->contains("error")) {
      EXPECT_NE((*r)["error"]["code"], -32601) << m.method;
    }
  }
  // A method outside the table is not answered, nor advertised.
  std::optional<json> formatting = s.Request("textDocument/formatting", params);
  ASSERT_TRUE(formatting);
  EXPECT_EQ((*formatting)["error"]["code"], -32601);
  EXPECT_FALSE(caps.contains("documentFormattingProvider"));
  EXPECT_TRUE(methods.count("textDocument/hover"));
  EXPECT_TRUE(methods.count("textDocument/didChange"));
}

TEST(LspServer, ExitWithoutShutdownExitsOne) {
  LspSession s;
  s.client().SendNotification("exit");
  ASSERT_TRUE(s.client().WaitForEnd());
  EXPECT_EQ(s.client().ExitCode(), 1);
}

TEST(LspServer, NegotiatesThePositionEncoding) {
  for (const char* encoding : {"utf-8", "utf-32"}) {
    LspSession s(json{{"debounceMs", 0}},
                 {{"general", {{"positionEncodings", {encoding, "utf-16"}}}}});
    ASSERT_TRUE(s.initialize_response());
    EXPECT_EQ((*s.initialize_response())["result"]["capabilities"]["positionEncoding"], encoding);
  }
  // Columns follow the encoding: "é" is 2 bytes and 1 UTF-16 unit. The last `yy` of line 9
  // comes after one.
  LspSession utf8(json{{"debounceMs", 0}}, {{"general", {{"positionEncodings", {"utf-8"}}}}});
  std::string same_line = kText;
  same_line.replace(same_line.find("y, yy)"), 6, "y, yy) if \"é\" else yy");
  utf8.Open(kUri, same_line);
  std::optional<json> d = utf8.Diagnostics(kUri);
  ASSERT_TRUE(d);
  // Its UTF-8 column is its byte offset in the line.
  uint32_t line9_start = static_cast<uint32_t>(same_line.find("        z ="));
  uint32_t last_yy = static_cast<uint32_t>(same_line.rfind("yy"));
  bool found = false;
  for (const json& diag : (*d)["diagnostics"]) {
    if (diag["range"]["start"]["line"] == 9 &&
        diag["range"]["start"]["character"] == last_yy - line9_start) {
      found = true;
    }
  }
  EXPECT_TRUE(found) << d->dump();
}

TEST(LspServer, OpenPublishesDiagnosticsWithTheVersion) {
  LspSession s;
  s.Open(kUri, kText, 7);
  std::optional<json> d = s.Diagnostics(kUri);
  ASSERT_TRUE(d);
  EXPECT_EQ((*d)["version"], 7);
  ASSERT_EQ((*d)["diagnostics"].size(), 1u) << d->dump();
  const json& diag = (*d)["diagnostics"][0];
  EXPECT_EQ(diag["range"], Range(9, 26, 9, 28));
  EXPECT_EQ(diag["severity"], 1);
  EXPECT_EQ(diag["code"], "undefined-name");
  EXPECT_EQ(diag["source"], "tvmls");
  EXPECT_FALSE(diag.contains("codeDescription"));
  EXPECT_NE(diag["message"].get<std::string>().find("yy"), std::string::npos);
  // The tvmscript language id is tracked too.
  s.Open("file:///work/other.tvmscript", kText, 1, "tvmscript");
  std::optional<json> other = s.Diagnostics("file:///work/other.tvmscript");
  ASSERT_TRUE(other);
  EXPECT_EQ((*other)["diagnostics"].size(), 1u);
}

TEST(LspServer, IncrementalAndFullChangesRepublish) {
  LspSession s;
  s.Open(kUri, kText, 1);
  ASSERT_TRUE(s.Diagnostics(kUri));
  // Replace `yy` by `y`: clean.
  s.Change(kUri, 2, json::array({{{"range", Range(9, 26, 9, 28)}, {"text", "y"}}}));
  std::optional<json> d = s.Diagnostics(kUri);
  ASSERT_TRUE(d);
  EXPECT_EQ((*d)["version"], 2);
  EXPECT_TRUE((*d)["diagnostics"].empty()) << d->dump();
  // Two ranged edits in one notification, each relative to the text the previous one left:
  // `y` -> `q`, then insert a second undefined name.
  s.Change(kUri, 3,
           json::array({{{"range", Range(9, 26, 9, 27)}, {"text", "q"}},
                        {{"range", Range(10, 16, 10, 16)}, {"text", "\n        w = R.add(z, u)"}}}));
  d = s.Diagnostics(kUri);
  ASSERT_TRUE(d);
  EXPECT_EQ((*d)["version"], 3);
  // `w` is never read: a hint.
  EXPECT_EQ(Codes(*d), (std::vector<std::string>{"undefined-name", "unused-binding",
                                                 "undefined-name"}))
      << d->dump();
  // Full text.
  s.Change(kUri, 4, json::array({{{"text", kText}}}));
  d = s.Diagnostics(kUri);
  ASSERT_TRUE(d);
  EXPECT_EQ((*d)["version"], 4);
  ASSERT_EQ((*d)["diagnostics"].size(), 1u);
  EXPECT_EQ((*d)["diagnostics"][0]["range"], Range(9, 26, 9, 28));
}

TEST(LspServer, StaleVersionsAreIgnored) {
  LspSession s;
  s.Open(kUri, kText, 5);
  ASSERT_TRUE(s.Diagnostics(kUri));
  // Versions 5 and 3 are not newer than 5: ignored, so the text keeps its `yy`.
  s.Change(kUri, 5, json::array({{{"range", Range(9, 26, 9, 28)}, {"text", "y"}}}));
  s.Change(kUri, 3, json::array({{{"text", "garbage((("}}}));
  for (const json& m : s.Drain(kUri)) {
    EXPECT_NE(m.value("method", ""), "textDocument/publishDiagnostics") << m.dump();
  }
  // A line above moves the diagnostic (an edit that changes no diagnostic publishes nothing).
  s.Change(kUri, 6, json::array({{{"range", Range(0, 0, 0, 0)}, {"text", "\n"}}}));
  std::optional<json> d = s.Diagnostics(kUri);
  ASSERT_TRUE(d);
  EXPECT_EQ((*d)["version"], 6);
  ASSERT_EQ((*d)["diagnostics"].size(), 1u) << d->dump();
  EXPECT_EQ((*d)["diagnostics"][0]["range"], Range(10, 26, 10, 28));
}

TEST(LspServer, RapidEditsAreAnalysedOnceAtTheLatestVersion) {
  // A long debounce: nothing is analysed until a request needs it, so the 20 edits are batched.
  LspSession s(json{{"debounceMs", 60000}});
  s.Open(kUri, kText, 1);
  ASSERT_TRUE(s.Diagnostics(kUri));  // didOpen is not debounced
  // Each edit renames the undefined `yy` (yyz, yyzz, ...): version 21's diagnostics differ.
  for (int v = 2; v <= 21; ++v) {
    s.Change(kUri, v, json::array({{{"range", Range(9, 28, 9, 28)}, {"text", "z"}}}));
  }
  std::optional<json> hover = s.Request("textDocument/hover", LspSession::At(kUri, 8, 8));
  ASSERT_TRUE(hover);
  EXPECT_TRUE((*hover)["result"].is_object()) << hover->dump();
  std::vector<json> publishes;
  for (const json& m : s.client().TakeAll()) {
    if (m.value("method", "") == "textDocument/publishDiagnostics") publishes.push_back(m);
  }
  ASSERT_EQ(publishes.size(), 1u);
  EXPECT_EQ(publishes[0]["params"]["version"], 21);
}

TEST(LspServer, CloseClearsDiagnostics) {
  LspSession s;
  s.Open(kUri, kText);
  ASSERT_TRUE(s.Diagnostics(kUri));
  s.Close(kUri);
  std::optional<json> d = s.Diagnostics(kUri);
  ASSERT_TRUE(d);
  EXPECT_TRUE((*d)["diagnostics"].empty());
  // Requests about a closed document get empty answers.
  std::optional<json> hover = s.Request("textDocument/hover", LspSession::At(kUri, 8, 8));
  ASSERT_TRUE(hover);
  EXPECT_TRUE((*hover)["result"].is_null());
}

TEST(LspServer, PythonWithoutTvmScriptGetsAnEmptyList) {
  LspSession s;
  const std::string uri = "file:///work/plain.py";
  s.Open(uri, "import os\nx = undefined_thing + 1\ndef f(:\n");
  std::optional<json> d = s.Diagnostics(uri);
  ASSERT_TRUE(d);
  EXPECT_EQ((*d)["version"], 1);
  EXPECT_TRUE((*d)["diagnostics"].empty()) << d->dump();
  std::optional<json> hover = s.Request("textDocument/hover", LspSession::At(uri, 1, 0));
  ASSERT_TRUE(hover);
  EXPECT_TRUE((*hover)["result"].is_null());
  std::optional<json> symbols =
      s.Request("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}});
  ASSERT_TRUE(symbols);
  EXPECT_EQ((*symbols)["result"], json::array());
}

TEST(LspServer, OtherLanguagesAreNotTracked) {
  LspSession s;
  s.Open("file:///work/notes.md", kText, 1, "markdown");
  std::vector<json> messages = s.Drain("file:///work/notes.md");
  for (const json& m : messages) {
    EXPECT_NE(m.value("method", ""), "textDocument/publishDiagnostics") << m.dump();
  }
}

TEST(LspServer, Hover) {
  LspSession s;
  s.Open(kUri, kText);
  std::optional<json> r = s.Request("textDocument/hover", LspSession::At(kUri, 8, 8));
  ASSERT_TRUE(r);
  const json& result = (*r)["result"];
  ASSERT_TRUE(result.is_object()) << r->dump();
  EXPECT_EQ(result["contents"]["kind"], "markdown");
  EXPECT_EQ(result["contents"]["value"],
            "```python\ny: R.Tensor((4,), dtype=\"float32\")\n```");
  EXPECT_EQ(result["range"], Range(8, 8, 8, 9));
  // Nothing to say on a blank line, or past the end of the document.
  r = s.Request("textDocument/hover", LspSession::At(kUri, 2, 0));
  ASSERT_TRUE(r);
  EXPECT_TRUE((*r)["result"].is_null());
  r = s.Request("textDocument/hover", LspSession::At(kUri, 500, 0));
  ASSERT_TRUE(r);
  EXPECT_TRUE((*r)["result"].is_null());
}

TEST(LspServer, DefinitionAndReferences) {
  LspSession s;
  s.Open(kUri, kText);
  std::optional<json> r = s.Request("textDocument/definition", LspSession::At(kUri, 9, 23));
  ASSERT_TRUE(r);
  ASSERT_EQ((*r)["result"].size(), 1u) << r->dump();
  EXPECT_EQ((*r)["result"][0]["uri"], kUri);
  EXPECT_EQ((*r)["result"][0]["range"], Range(8, 8, 8, 9));

  json params = LspSession::At(kUri, 8, 8);
  params["context"] = {{"includeDeclaration", true}};
  r = s.Request("textDocument/references", params);
  ASSERT_TRUE(r);
  ASSERT_EQ((*r)["result"].size(), 2u) << r->dump();
  EXPECT_EQ((*r)["result"][0]["range"], Range(8, 8, 8, 9));
  EXPECT_EQ((*r)["result"][1]["range"], Range(9, 23, 9, 24));
  params["context"]["includeDeclaration"] = false;
  r = s.Request("textDocument/references", params);
  ASSERT_TRUE(r);
  ASSERT_EQ((*r)["result"].size(), 1u) << r->dump();
  EXPECT_EQ((*r)["result"][0]["range"], Range(9, 23, 9, 24));
}

TEST(LspServer, DocumentSymbolsHierarchicalOrFlat) {
  {
    LspSession s(json{{"debounceMs", 0}},
                 {{"textDocument", {{"documentSymbol", {{"hierarchicalDocumentSymbolSupport", true}}}}}});
    s.Open(kUri, kText);
    std::optional<json> r =
        s.Request("textDocument/documentSymbol", {{"textDocument", {{"uri", kUri}}}});
    ASSERT_TRUE(r);
    const json& result = (*r)["result"];
    ASSERT_EQ(result.size(), 1u) << r->dump();
    EXPECT_EQ(result[0]["name"], "Mod");
    EXPECT_EQ(result[0]["kind"], 2);
    EXPECT_EQ(result[0]["selectionRange"], Range(5, 6, 5, 9));
    ASSERT_EQ(result[0]["children"].size(), 1u);
    EXPECT_EQ(result[0]["children"][0]["name"], "main");
    EXPECT_EQ(result[0]["children"][0]["kind"], 12);
  }
  LspSession s;
  s.Open(kUri, kText);
  std::optional<json> r =
      s.Request("textDocument/documentSymbol", {{"textDocument", {{"uri", kUri}}}});
  ASSERT_TRUE(r);
  const json& result = (*r)["result"];
  ASSERT_EQ(result.size(), 2u) << r->dump();
  EXPECT_EQ(result[1]["name"], "main");
  EXPECT_EQ(result[1]["containerName"], "Mod");
  EXPECT_EQ(result[1]["location"]["uri"], kUri);
}

TEST(LspServer, InlayHintsInsertTheInferredStructInfo) {
  LspSession s;
  s.Open(kUri, kText);
  std::optional<json> r = s.Request(
      "textDocument/inlayHint", {{"textDocument", {{"uri", kUri}}}, {"range", Range(0, 0, 11, 0)}});
  ASSERT_TRUE(r);
  const json& result = (*r)["result"];
  ASSERT_GE(result.size(), 1u) << r->dump();
  const json& hint = result[0];
  EXPECT_EQ(hint["position"], json({{"line", 8}, {"character", 9}}));
  EXPECT_EQ(hint["label"], ": R.Tensor((4,), dtype=\"float32\")");
  EXPECT_EQ(hint["paddingLeft"], false);
  ASSERT_EQ(hint["textEdits"].size(), 1u);
  EXPECT_EQ(hint["textEdits"][0]["newText"], hint["label"]);
  // Inserting it leaves the module clean apart from the existing error.
  std::string annotated = ApplyTextEdits(kText, hint["textEdits"]);
  EXPECT_NE(annotated.find("y: R.Tensor((4,), dtype=\"float32\") = R.add(x, x)"),
            std::string::npos);
  s.Open("file:///work/annotated.py", annotated);
  std::optional<json> d = s.Diagnostics("file:///work/annotated.py");
  ASSERT_TRUE(d);
  EXPECT_EQ(Codes(*d), std::vector<std::string>{"undefined-name"});
  // A range elsewhere has no hints.
  r = s.Request("textDocument/inlayHint",
                {{"textDocument", {{"uri", kUri}}}, {"range", Range(0, 0, 3, 0)}});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"], json::array());
}

std::map<std::string, int> CountCodes(const json& publish) {
  std::map<std::string, int> counts;
  for (const json& d : publish["diagnostics"]) ++counts[d.value("code", "")];
  return counts;
}

TEST(LspServer, CodeActionsApplyAndFix) {
  for (const char* example : {"examples/seed_a_storage_overflow.py",
                              "examples/seed_b_kill_in_dataflow.py",
                              "examples/seed_c_call_tir_shape.py",
                              "examples/seed_d_axis_separators.py"}) {
    SCOPED_TRACE(example);
    std::string text = ReadFileOrDie(SourcePath(example));
    LspSession s;
    s.Open(kUri, text);
    std::optional<json> before = s.Diagnostics(kUri);
    ASSERT_TRUE(before);
    ASSERT_FALSE((*before)["diagnostics"].empty());
    std::map<std::string, int> before_counts = CountCodes(*before);
    int fixes_tried = 0;
    for (const json& diag : (*before)["diagnostics"]) {
      std::optional<json> r = s.Request(
          "textDocument/codeAction", {{"textDocument", {{"uri", kUri}}},
                                      {"range", diag["range"]},
                                      {"context", {{"diagnostics", json::array({diag})}}}});
      ASSERT_TRUE(r);
      for (const json& action : (*r)["result"]) {
        if (action["kind"] == "refactor.rewrite") continue;  // annotate: lsp_features_test.cc
        EXPECT_EQ(action["kind"], "quickfix");
        EXPECT_TRUE(action["isPreferred"].is_boolean());
        ASSERT_EQ(action["diagnostics"].size(), 1u);
        if (action["diagnostics"][0] != diag) continue;  // another diagnostic touching the range
        ++fixes_tried;
        std::string fixed = ApplyTextEdits(text, action["edit"]["changes"][kUri]);
        ASSERT_NE(fixed, text);
        std::string uri = "file:///work/fixed" + std::to_string(fixes_tried) + ".py";
        s.Open(uri, fixed);
        std::optional<json> after = s.Diagnostics(uri);
        ASSERT_TRUE(after);
        std::map<std::string, int> after_counts = CountCodes(*after);
        std::string code = diag["code"];
        EXPECT_LT(after_counts[code], before_counts[code]) << action["title"];
        for (const auto& [c, n] : after_counts) {
          EXPECT_LE(n, before_counts[c]) << action["title"] << " introduces " << c;
        }
        s.Close(uri);
        ASSERT_TRUE(s.Diagnostics(uri));
      }
    }
    EXPECT_GT(fixes_tried, 0);
  }
}

TEST(LspServer, CodeActionsOnlyForDiagnosticsInTheRange) {
  LspSession s;
  s.Open("file:///work/seed.py", ReadFileOrDie(SourcePath("examples/seed_b_kill_in_dataflow.py")));
  std::optional<json> r = s.Request("textDocument/codeAction",
                                    {{"textDocument", {{"uri", "file:///work/seed.py"}}},
                                     {"range", Range(0, 0, 0, 0)},
                                     {"context", {{"diagnostics", json::array()}}}});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"], json::array());
  // Kinds other than quickfix are not offered.
  r = s.Request("textDocument/codeAction",
                {{"textDocument", {{"uri", "file:///work/seed.py"}}},
                 {"range", Range(0, 0, 200, 0)},
                 {"context", {{"diagnostics", json::array()}, {"only", {"refactor"}}}}});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"], json::array());
}

TEST(LspServer, BadParamsAreAnsweredAndTheServerGoesOn) {
  LspSession s;
  s.Open(kUri, kText);
  std::optional<json> r = s.Request("textDocument/hover", {{"textDocument", {{"uri", kUri}}}});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32602);
  EXPECT_NE((*r)["error"]["message"].get<std::string>().find("position"), std::string::npos)
      << r->dump();
  r = s.Request("textDocument/definition",
                {{"textDocument", {{"uri", 7}}}, {"position", {{"line", 0}, {"character", 0}}}});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32602);
  EXPECT_NE((*r)["error"]["message"].get<std::string>().find("textDocument.uri"),
            std::string::npos);
  r = s.Request("textDocument/codeAction",
                {{"textDocument", {{"uri", kUri}}}, {"range", {{"start", {{"line", -1}}}}}});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32602);
  EXPECT_NE((*r)["error"]["message"].get<std::string>().find("range.start.line"),
            std::string::npos);
  // Malformed notifications are dropped without changing anything.
  s.client().SendNotification("textDocument/didChange",
                              {{"textDocument", {{"uri", kUri}, {"version", 2}}},
                               {"contentChanges", json::array({{{"range", Range(0, 0, 0, 0)}}})}});
  s.client().SendNotification("textDocument/didOpen", {{"textDocument", {{"uri", kUri}}}});
  r = s.Request("textDocument/hover", LspSession::At(kUri, 8, 8));
  ASSERT_TRUE(r);
  EXPECT_TRUE((*r)["result"].is_object()) << r->dump();
  EXPECT_EQ(s.client().ShutdownAndExit(), 0);
}

TEST(LspServer, ChangesThatDoNotFitDropTheDocument) {
  LspSession s;
  s.Open(kUri, kText, 1);
  ASSERT_TRUE(s.Diagnostics(kUri));
  s.Change(kUri, 2, json::array({{{"range", Range(400, 0, 400, 1)}, {"text", "x"}}}));
  std::optional<json> d = s.Diagnostics(kUri);
  ASSERT_TRUE(d);
  EXPECT_TRUE((*d)["diagnostics"].empty());
  EXPECT_FALSE(d->contains("version"));
  // The document is gone: answers are empty, later changes ignored, until it is reopened.
  std::optional<json> hover = s.Request("textDocument/hover", LspSession::At(kUri, 8, 8));
  ASSERT_TRUE(hover);
  EXPECT_TRUE((*hover)["result"].is_null());
  s.Change(kUri, 3, json::array({{{"text", kText}}}));
  for (const json& m : s.Drain(kUri)) {
    EXPECT_NE(m.value("method", ""), "textDocument/publishDiagnostics") << m.dump();
  }
  s.Open(kUri, kText, 4);
  d = s.Diagnostics(kUri);
  ASSERT_TRUE(d);
  EXPECT_EQ((*d)["version"], 4);
  EXPECT_EQ((*d)["diagnostics"].size(), 1u);
}

TEST(LspServer, SeverityFromInitializationOptions) {
  {
    LspSession s(json{{"debounceMs", 0}, {"severity", {{"undefined-name", "off"}}}});
    s.Open(kUri, kText);
    std::optional<json> d = s.Diagnostics(kUri);
    ASSERT_TRUE(d);
    EXPECT_TRUE((*d)["diagnostics"].empty());
  }
  LspSession s(json{{"tvmls", {{"debounceMs", 0}, {"severity", {{"undefined-name", "hint"}}}}}});
  s.Open(kUri, kText);
  std::optional<json> d = s.Diagnostics(kUri);
  ASSERT_TRUE(d);
  ASSERT_EQ((*d)["diagnostics"].size(), 1u);
  EXPECT_EQ((*d)["diagnostics"][0]["severity"], 4);
}

TEST(LspServer, DidChangeConfigurationRepublishes) {
  LspSession s;
  s.Open(kUri, kText);
  ASSERT_TRUE(s.Diagnostics(kUri));
  s.client().SendNotification(
      "workspace/didChangeConfiguration",
      {{"settings", {{"tvmls", {{"severity", {{"undefined-name", "warning"}}}}}}}});
  std::optional<json> d = s.Diagnostics(kUri);
  ASSERT_TRUE(d);
  ASSERT_EQ((*d)["diagnostics"].size(), 1u);
  EXPECT_EQ((*d)["diagnostics"][0]["severity"], 2);
  // Bad values are skipped (logged); the rest applies.
  s.client().SendNotification("workspace/didChangeConfiguration",
                              {{"settings",
                                {{"tvmls",
                                  {{"severity", {{"undefined-name", "off"}, {"x", "loud"}}},
                                   {"era", 3}}}}}});
  d = s.Diagnostics(kUri);
  ASSERT_TRUE(d);
  EXPECT_TRUE((*d)["diagnostics"].empty());
}

TEST(LspServer, PullsWorkspaceConfiguration) {
  protocol::LoopbackClient client(server::MakeSessionFactory());
  client.AutoAnswer("workspace/configuration", [](const json& params) {
    EXPECT_EQ(params["items"][0]["section"], "tvmls");
    return json::array({{{"severity", {{"undefined-name", "information"}}}}});
  });
  ASSERT_TRUE(client.Initialize({{"capabilities", {{"workspace", {{"configuration", true}}}}},
                                 {"initializationOptions", {{"debounceMs", 0}}}}));
  // The answer comes on the loop thread before the didOpen below is read... or after: either
  // way a publish with severity 3 must come.
  client.SendNotification("textDocument/didOpen",
                          {{"textDocument",
                            {{"uri", kUri}, {"languageId", "python"}, {"version", 1},
                             {"text", kText}}}});
  std::optional<json> m = client.WaitFor(
      [](const json& message) {
        return message.value("method", "") == "textDocument/publishDiagnostics" &&
               message["params"]["diagnostics"].size() == 1 &&
               message["params"]["diagnostics"][0]["severity"] == 3;
      },
      std::chrono::milliseconds(10000));
  EXPECT_TRUE(m);
}

TEST(LspServer, AssumedUpperBoundAndEraReachTheAnalyzer) {
  // seed a: with a small assumed bound the may-overflow warning is silenced, if there is one.
  std::string text = ReadFileOrDie(SourcePath("examples/seed_a_storage_overflow.py"));
  LspSession plain;
  plain.Open(kUri, text);
  std::optional<json> d = plain.Diagnostics(kUri);
  ASSERT_TRUE(d);
  LspSession bounded(json{{"debounceMs", 0}, {"assumedUpperBound", 1}, {"era", "classic"}});
  bounded.Open(kUri, text);
  std::optional<json> b = bounded.Diagnostics(kUri);
  ASSERT_TRUE(b);
  EXPECT_LE(CountCodes(*b)["storage-may-overflow"], CountCodes(*d)["storage-may-overflow"]);
}

TEST(LspServer, AdaptiveDebounceStillPublishes) {
  LspSession s(json::object());
  s.Open(kUri, kText, 1);
  ASSERT_TRUE(s.Diagnostics(kUri));
  s.Change(kUri, 2, json::array({{{"range", Range(9, 26, 9, 28)}, {"text", "y"}}}));
  std::optional<json> d = s.Diagnostics(kUri);
  ASSERT_TRUE(d);
  EXPECT_EQ((*d)["version"], 2);
  EXPECT_TRUE((*d)["diagnostics"].empty());
}

TEST(LspServer, RequestsInterleavedWithEditsGetAResultOrContentModified) {
  // Whether the worker sees a hover before or after the edit that follows it is a race; either
  // answer is right, and every request gets exactly one. The last diagnostics are for the last
  // version.
  LspSession s;
  s.Open(kUri, kText, 1);
  std::vector<json> ids;
  for (int v = 2; v <= 41; ++v) {
    ids.push_back(s.client().SendRequest("textDocument/hover", LspSession::At(kUri, 8, 8)));
    // Renames the undefined `yy` (yyz, yyzz, ...): every version's diagnostics differ.
    s.Change(kUri, v, json::array({{{"range", Range(9, 28, 9, 28)}, {"text", "z"}}}));
  }
  int modified = 0;
  for (const json& id : ids) {
    std::optional<json> r = s.client().WaitForResponse(id);
    ASSERT_TRUE(r);
    if (r->contains("error")) {
      EXPECT_EQ((*r)["error"]["code"], -32801) << r->dump();
      ++modified;
    } else {
      EXPECT_TRUE((*r)["result"].is_object()) << r->dump();
    }
  }
  std::optional<json> last = s.client().WaitFor(
      [](const json& m) {
        return m.value("method", "") == "textDocument/publishDiagnostics" &&
               m["params"]["version"] == 41;
      },
      std::chrono::milliseconds(10000));
  EXPECT_TRUE(last);
  int64_t previous = 0;
  for (const json& m : s.client().TakeAll()) {
    if (m.value("method", "") != "textDocument/publishDiagnostics") continue;
    EXPECT_GT(m["params"]["version"].get<int64_t>(), previous);
    previous = m["params"]["version"].get<int64_t>();
  }
  RecordProperty("content_modified", modified);  // how often the race went that way
}

TEST(LspServer, RequestsAboutUnknownDocumentsGetEmptyAnswers) {
  LspSession s;
  std::optional<json> r =
      s.Request("textDocument/definition", LspSession::At("file:///nowhere.py", 0, 0));
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"], json::array());
}

TEST(LspServer, ConcurrentSessionsAndEndWithWorkQueued) {
  // Sessions ending (client gone) while analyses are queued join their workers cleanly.
  for (int i = 0; i < 3; ++i) {
    LspSession s(json{{"debounceMs", 0}});
    for (int v = 1; v <= 5; ++v) {
      s.Open("file:///work/f" + std::to_string(v) + ".py", kText, v);
    }
    s.client().SendRequest("textDocument/hover", LspSession::At("file:///work/f5.py", 8, 8));
    s.client().CloseInput();
    EXPECT_TRUE(s.client().WaitForEnd());
  }
}

}  // namespace
}  // namespace tvmls::testing
