// The language server in process: diagnostics' codeDescription and tags, several documents on the
// worker pool, and the editing features (highlight, rename, folding, selection, semantic tokens,
// completion, signature help, the annotate action) as LSP shapes. What each feature answers is
// tested on fixtures in tests/analysis/; here: the JSON, the encodings, the capabilities.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lsp_session.h"
#include "text/line_index.h"
#include "support/files.h"

namespace tvmls::testing {
namespace {

const char* const kUri = "file:///work/mod.py";

// Line 9 uses an undefined `yy`.
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

const json* FindCode(const json& publish, const std::string& code) {
  for (const json& d : publish["diagnostics"]) {
    if (d.value("code", "") == code) return &d;
  }
  return nullptr;
}

TEST(LspDiagnostics, CodeDescriptionLinksIntoTheDocumentation) {
  LspSession s(json{{"debounceMs", 0}, {"codeDescriptionBase", "https://example.test/codes"}});
  s.Open(kUri, kText);
  std::optional<json> publish = s.Diagnostics(kUri);
  ASSERT_TRUE(publish);
  const json* d = FindCode(*publish, "undefined-name");
  ASSERT_NE(d, nullptr) << publish->dump();
  EXPECT_EQ((*d)["codeDescription"]["href"], "https://example.test/codes#undefined-name");
  EXPECT_FALSE(d->contains("tags"));
}

TEST(LspDiagnostics, AnEmptyBaseMeansNoCodeDescription) {
  LspSession s(json{{"debounceMs", 0}, {"codeDescriptionBase", ""}});
  s.Open(kUri, kText);
  std::optional<json> publish = s.Diagnostics(kUri);
  ASSERT_TRUE(publish);
  const json* d = FindCode(*publish, "undefined-name");
  ASSERT_NE(d, nullptr) << publish->dump();
  EXPECT_FALSE(d->contains("codeDescription"));
}

TEST(LspDiagnostics, UnusedBindingsAreTaggedUnnecessary) {
  LspSession s;
  std::string text = kText;
  text.replace(text.find("        return z\n"), 0, "        unused = R.add(x, x)\n");
  s.Open(kUri, text);
  std::optional<json> publish = s.Diagnostics(kUri);
  ASSERT_TRUE(publish);
  const json* d = FindCode(*publish, "unused-binding");
  ASSERT_NE(d, nullptr) << publish->dump();
  EXPECT_EQ((*d)["severity"], 4);  // Hint
  EXPECT_EQ((*d)["tags"], json::array({1}));  // Unnecessary
  EXPECT_EQ((*d)["range"]["start"]["line"], 10);
  EXPECT_EQ((*d)["range"]["start"]["character"], 8);
}

TEST(LspInlayHints, UnpackingTargetsAreShownNotInserted) {
  LspSession s;
  std::string text = kText;
  text.replace(text.find("        return z\n"), 0, "        a, b = (x, y)\n");
  s.Open(kUri, text);
  ASSERT_TRUE(s.Diagnostics(kUri));
  std::optional<json> r = s.Request(
      "textDocument/inlayHint",
      {{"textDocument", {{"uri", kUri}}},
       {"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 20}, {"character", 0}}}}}});
  ASSERT_TRUE(r);
  std::map<uint32_t, json> by_line;  // the first hint of each line
  for (const json& hint : (*r)["result"]) {
    by_line.emplace(hint["position"]["line"].get<uint32_t>(), hint);
  }
  ASSERT_TRUE(by_line.count(8)) << r->dump();   // y = R.add(x, x)
  ASSERT_TRUE(by_line.count(10)) << r->dump();  // a, b = (x, y)
  EXPECT_TRUE(by_line[8].contains("textEdits"));
  EXPECT_EQ(by_line[10]["label"], ": R.Tensor((4,), dtype=\"float32\")");
  EXPECT_FALSE(by_line[10].contains("textEdits"));
}

// A module for the editing features: line numbers in the comments are 0-based, as LSP counts.
const std::string kModule =
    "from tvm.script import ir as I\n"                                     // 0
    "from tvm.script import relax as R\n"                                  // 1
    "from tvm.script import tir as T\n"                                    // 2
    "\n"                                                                   // 3
    "\n"                                                                   // 4
    "@I.ir_module\n"                                                       // 5
    "class Mod:\n"                                                         // 6
    "    @R.function\n"                                                    // 7
    "    def main(x: R.Tensor((\"n\", 4), \"float32\")):\n"                // 8
    "        n = T.int64()\n"                                              // 9
    "        with R.dataflow():\n"                                         // 10
    "            lv = R.add(x, x)\n"                                       // 11
    "            gv = R.multiply(lv, lv)\n"                                // 12
    "            R.output(gv)\n"                                           // 13
    "        return gv\n";                                                 // 14

json Params(uint32_t line, uint32_t character) { return LspSession::At(kUri, line, character); }

TEST(LspFeatures, DocumentHighlightMarksWritesAndReads) {
  LspSession s;
  s.Open(kUri, kModule);
  ASSERT_TRUE(s.Diagnostics(kUri));
  std::optional<json> r = s.Request("textDocument/documentHighlight", Params(12, 30));  // lv
  ASSERT_TRUE(r);
  const json& result = (*r)["result"];
  ASSERT_EQ(result.size(), 3u) << r->dump();
  EXPECT_EQ(result[0]["kind"], 3);  // Write: the binding
  EXPECT_EQ(result[0]["range"]["start"]["line"], 11);
  EXPECT_EQ(result[1]["kind"], 2);  // Read
  EXPECT_EQ(result[2]["kind"], 2);
}

TEST(LspFeatures, RenameAppliesAndPrepareRenameRefusesWithTheReason) {
  LspSession s;
  s.Open(kUri, kModule);
  ASSERT_TRUE(s.Diagnostics(kUri));
  std::optional<json> prepared = s.Request("textDocument/prepareRename", Params(11, 13));
  ASSERT_TRUE(prepared);
  EXPECT_EQ((*prepared)["result"]["placeholder"], "lv") << prepared->dump();
  EXPECT_EQ((*prepared)["result"]["range"]["start"]["character"], 12);

  json params = Params(11, 13);
  params["newName"] = "activation";
  std::optional<json> renamed = s.Request("textDocument/rename", params);
  ASSERT_TRUE(renamed);
  const json& edits = (*renamed)["result"]["changes"][kUri];
  ASSERT_EQ(edits.size(), 3u) << renamed->dump();
  std::string text = ApplyTextEdits(kModule, edits);
  EXPECT_NE(text.find("activation = R.add(x, x)"), std::string::npos) << text;
  EXPECT_NE(text.find("R.multiply(activation, activation)"), std::string::npos) << text;
  s.Open("file:///work/renamed.py", text);
  std::optional<json> after = s.Diagnostics("file:///work/renamed.py");
  ASSERT_TRUE(after);
  EXPECT_TRUE((*after)["diagnostics"].empty()) << after->dump();

  // On an operator: refused, with a message an editor can show.
  std::optional<json> op = s.Request("textDocument/prepareRename", Params(11, 20));  // add
  ASSERT_TRUE(op);
  EXPECT_EQ((*op)["error"]["code"], -32803) << op->dump();
  EXPECT_FALSE((*op)["error"]["message"].get<std::string>().empty());
  // A keyword as the new name: refused.
  params["newName"] = "class";
  std::optional<json> keyword = s.Request("textDocument/rename", params);
  ASSERT_TRUE(keyword);
  EXPECT_EQ((*keyword)["error"]["code"], -32803) << keyword->dump();
}

TEST(LspFeatures, DocumentSymbolsShowDataflowBlocks) {
  LspSession s(json{{"debounceMs", 0}},
               {{"textDocument", {{"documentSymbol", {{"hierarchicalDocumentSymbolSupport", true}}}}}});
  s.Open(kUri, kModule);
  ASSERT_TRUE(s.Diagnostics(kUri));
  std::optional<json> r = s.Request("textDocument/documentSymbol", {{"textDocument", {{"uri", kUri}}}});
  ASSERT_TRUE(r);
  const json& module = (*r)["result"][0];
  EXPECT_EQ(module["name"], "Mod");
  EXPECT_EQ(module["kind"], 2);
  const json& main = module["children"][0];
  EXPECT_EQ(main["name"], "main");
  EXPECT_EQ(main["kind"], 12);
  ASSERT_EQ(main["children"].size(), 1u) << r->dump();
  EXPECT_EQ(main["children"][0]["kind"], 3);  // Namespace: the dataflow block
  EXPECT_EQ(main["children"][0]["range"]["start"]["line"], 10);
  EXPECT_EQ(main["children"][0]["range"]["end"]["line"], 13);
}

TEST(LspFeatures, FoldingRangesAreLines) {
  LspSession s;
  s.Open(kUri, kModule);
  ASSERT_TRUE(s.Diagnostics(kUri));
  std::optional<json> r = s.Request("textDocument/foldingRange", {{"textDocument", {{"uri", kUri}}}});
  ASSERT_TRUE(r);
  std::set<std::pair<int, int>> folds;
  for (const json& f : (*r)["result"]) {
    EXPECT_LT(f["startLine"].get<int>(), f["endLine"].get<int>());
    folds.insert({f["startLine"].get<int>(), f["endLine"].get<int>()});
  }
  EXPECT_TRUE(folds.count({0, 2})) << r->dump();    // imports
  EXPECT_TRUE(folds.count({6, 14})) << r->dump();   // class Mod
  EXPECT_TRUE(folds.count({10, 13})) << r->dump();  // with R.dataflow()
}

TEST(LspFeatures, SelectionRangesNestOutwards) {
  LspSession s;
  s.Open(kUri, kModule);
  ASSERT_TRUE(s.Diagnostics(kUri));
  json params = {{"textDocument", {{"uri", kUri}}},
                 {"positions", json::array({{{"line", 11}, {"character", 24}},
                                            {{"line", 0}, {"character", 0}}})}};
  std::optional<json> r = s.Request("textDocument/selectionRange", params);
  ASSERT_TRUE(r);
  ASSERT_EQ((*r)["result"].size(), 2u);
  const json* node = &(*r)["result"][0];
  EXPECT_EQ((*node)["range"]["start"]["character"], 23);  // `x`, the second argument
  int depth = 0;
  uint32_t previous_lines = 0;
  while (node->contains("parent")) {
    node = &(*node)["parent"];
    uint32_t lines = (*node)["range"]["end"]["line"].get<uint32_t>() -
                     (*node)["range"]["start"]["line"].get<uint32_t>();
    EXPECT_GE(lines, previous_lines);
    previous_lines = lines;
    ++depth;
  }
  EXPECT_GE(depth, 5);
  EXPECT_EQ((*node)["range"]["start"]["line"], 0);  // the whole file last
}

TEST(LspFeatures, AnnotateActionInsertsTheInferredStructInfo) {
  LspSession s;
  s.Open(kUri, kModule);
  ASSERT_TRUE(s.Diagnostics(kUri));
  json params = {{"textDocument", {{"uri", kUri}}},
                 {"range", {{"start", {{"line", 11}, {"character", 13}}},
                            {"end", {{"line", 11}, {"character", 13}}}}},
                 {"context", {{"diagnostics", json::array()}, {"only", {"refactor"}}}}};
  std::optional<json> r = s.Request("textDocument/codeAction", params);
  ASSERT_TRUE(r);
  ASSERT_EQ((*r)["result"].size(), 1u) << r->dump();
  const json& action = (*r)["result"][0];
  EXPECT_EQ(action["kind"], "refactor.rewrite");
  std::string text = ApplyTextEdits(kModule, action["edit"]["changes"][kUri]);
  EXPECT_NE(text.find("lv: R.Tensor((n, 4), dtype=\"float32\") = R.add(x, x)"), std::string::npos)
      << text;
  s.Open("file:///work/annotated.py", text);
  std::optional<json> after = s.Diagnostics("file:///work/annotated.py");
  ASSERT_TRUE(after);
  EXPECT_TRUE((*after)["diagnostics"].empty()) << after->dump();
  // Asking only for quickfixes leaves it out.
  params["context"]["only"] = {"quickfix"};
  r = s.Request("textDocument/codeAction", params);
  ASSERT_TRUE(r);
  EXPECT_TRUE((*r)["result"].empty()) << r->dump();
}

// Decodes LSP's relative token data into (line, character, length, type) tuples.
std::vector<std::array<uint32_t, 4>> DecodeTokens(const json& data) {
  std::vector<std::array<uint32_t, 4>> tokens;
  uint32_t line = 0, character = 0;
  EXPECT_EQ(data.size() % 5, 0u);
  for (size_t i = 0; i + 4 < data.size(); i += 5) {
    uint32_t delta_line = data[i].get<uint32_t>();
    line += delta_line;
    character = delta_line ? data[i + 1].get<uint32_t>() : character + data[i + 1].get<uint32_t>();
    tokens.push_back({line, character, data[i + 2].get<uint32_t>(), data[i + 3].get<uint32_t>()});
  }
  return tokens;
}

TEST(LspFeatures, SemanticTokensForTvmScriptDocuments) {
  LspSession s;
  const json& legend = (*s.initialize_response())["result"]["capabilities"]
                                                  ["semanticTokensProvider"]["legend"];
  s.Open(kUri, kModule, 1, "tvmscript");
  ASSERT_TRUE(s.Diagnostics(kUri));
  std::optional<json> r =
      s.Request("textDocument/semanticTokens/full", {{"textDocument", {{"uri", kUri}}}});
  ASSERT_TRUE(r);
  std::map<std::pair<uint32_t, uint32_t>, std::string> type_at;
  for (const auto& t : DecodeTokens((*r)["result"]["data"])) {
    type_at[{t[0], t[1]}] = legend["tokenTypes"][t[3]].get<std::string>();
  }
  EXPECT_EQ(type_at[std::make_pair(11u, 19u)], "function") << r->dump();   // R.add: `add`
  EXPECT_EQ(type_at[std::make_pair(11u, 12u)], "variable") << r->dump();   // lv
  EXPECT_EQ(type_at[std::make_pair(11u, 17u)], "namespace") << r->dump();  // R
  EXPECT_EQ(type_at[std::make_pair(8u, 13u)], "parameter") << r->dump();   // x
  // The custom types fall back to standard ones: this client listed none.
  for (const json& type : legend["tokenTypes"]) {
    EXPECT_NE(type, "dtype");
    EXPECT_NE(type, "buffer");
  }
}

TEST(LspFeatures, SemanticTokensArePythonsOnlyWhenAsked) {
  {
    LspSession s;
    s.Open(kUri, kModule, 1, "python");
    ASSERT_TRUE(s.Diagnostics(kUri));
    std::optional<json> r =
        s.Request("textDocument/semanticTokens/full", {{"textDocument", {{"uri", kUri}}}});
    ASSERT_TRUE(r);
    EXPECT_TRUE((*r)["result"].is_null()) << r->dump();
    const json& selector = (*s.initialize_response())["result"]["capabilities"]
                                                      ["semanticTokensProvider"]["documentSelector"];
    EXPECT_EQ(selector, json::array({{{"language", "tvmscript"}}}));
  }
  LspSession s(json{{"debounceMs", 0}, {"semanticTokensForPython", true}},
               {{"textDocument", {{"semanticTokens", {{"tokenTypes", {"dtype", "buffer"}}}}}}});
  const json& caps = (*s.initialize_response())["result"]["capabilities"];
  EXPECT_EQ(caps["semanticTokensProvider"]["documentSelector"].size(), 2u);
  const json& types = caps["semanticTokensProvider"]["legend"]["tokenTypes"];
  EXPECT_NE(std::find(types.begin(), types.end(), json("dtype")), types.end()) << types.dump();
  s.Open(kUri, kModule, 1, "python");
  ASSERT_TRUE(s.Diagnostics(kUri));
  std::optional<json> r =
      s.Request("textDocument/semanticTokens/full", {{"textDocument", {{"uri", kUri}}}});
  ASSERT_TRUE(r);
  EXPECT_FALSE((*r)["result"]["data"].empty()) << r->dump();
}

// kModule with `line` typed above its `return gv`: the typed line is line 14 (0-based).
std::string WithLineTyped(const std::string& line) {
  std::string text = kModule;
  text.replace(text.find("        return gv\n"), 0, line);
  return text;
}

// The completion list `s` answers at the end of `y = R.nn.con` typed into kModule (line 14,
// character 20; `con` is characters 17-20).
json CompletionAfterNnCon(LspSession& s) {
  s.Open(kUri, WithLineTyped("        y = R.nn.con\n"));
  EXPECT_TRUE(s.Diagnostics(kUri));
  std::optional<json> r = s.Request("textDocument/completion", Params(14, 20));
  EXPECT_TRUE(r);
  return r ? (*r)["result"] : json();
}

json CompletionCapabilities(json completion) { return {{"textDocument", {{"completion", std::move(completion)}}}}; }

TEST(LspFeatures, CompletionAfterAnAliasWithSnippets) {
  LspSession s(json{{"debounceMs", 0}}, CompletionCapabilities({{"completionItem", {{"snippetSupport", true}}}}));
  json list = CompletionAfterNnCon(s);
  const json* conv = nullptr;
  for (const json& item : list["items"]) {
    if (item["label"] == "conv2d") conv = &item;
  }
  ASSERT_NE(conv, nullptr) << list.dump();
  EXPECT_EQ((*conv)["insertTextFormat"], 2);
  EXPECT_EQ((*conv)["textEdit"]["newText"], "conv2d(${1:data}, ${2:weight})");
  EXPECT_EQ((*conv)["textEdit"]["range"]["start"]["character"], 17);  // `con` is replaced
  EXPECT_EQ((*conv)["textEdit"]["range"]["end"]["character"], 20);

  // Without snippet support: the plain name.
  LspSession plain;
  list = CompletionAfterNnCon(plain);  // kept: a range-for over a temporary's member dangles
  for (const json& item : list["items"]) {
    EXPECT_FALSE(item.contains("insertTextFormat")) << item.dump();  // PlainText, the default
    EXPECT_EQ(item["textEdit"]["newText"], item["label"]);
  }
}

// A client that takes completionList.itemDefaults gets the replaced range once; items carry no
// textEdit, a snippet its text as textEditText, a plain one nothing (the label is inserted).
TEST(LspFeatures, CompletionRangeSentOnceAsItemDefault) {
  json defaults = {{"itemDefaults", {"commitCharacters", "editRange", "insertTextFormat"}}};
  LspSession s(json{{"debounceMs", 0}},
               CompletionCapabilities({{"completionItem", {{"snippetSupport", true}}}, {"completionList", defaults}}));
  json list = CompletionAfterNnCon(s);
  EXPECT_EQ(list["itemDefaults"]["editRange"]["start"]["character"], 17) << list.dump();
  EXPECT_EQ(list["itemDefaults"]["editRange"]["end"]["character"], 20);
  int snippets = 0;
  for (const json& item : list["items"]) {
    EXPECT_FALSE(item.contains("textEdit")) << item.dump();
    if (item.contains("textEditText")) {
      ++snippets;
      EXPECT_EQ(item["insertTextFormat"], 2) << item.dump();
    } else {
      EXPECT_FALSE(item.contains("insertTextFormat")) << item.dump();
    }
    if (item["label"] == "conv2d") {
      EXPECT_EQ(item["textEditText"], "conv2d(${1:data}, ${2:weight})");
    }
  }
  EXPECT_GT(snippets, 0);
  // Without snippet support nothing is left per item but what the list shows.
  LspSession plain(json{{"debounceMs", 0}}, CompletionCapabilities({{"completionList", defaults}}));
  list = CompletionAfterNnCon(plain);
  EXPECT_TRUE(list.contains("itemDefaults"));
  for (const json& item : list["items"]) {
    EXPECT_FALSE(item.contains("textEdit") || item.contains("textEditText") || item.contains("insertTextFormat"))
        << item.dump();
  }
}

TEST(LspFeatures, SignatureHelpInsideAnOperatorCall) {
  LspSession s;
  s.Open(kUri, WithLineTyped("        y = R.nn.conv2d(x, x, strides=\n"));
  ASSERT_TRUE(s.Diagnostics(kUri));
  std::optional<json> r = s.Request("textDocument/signatureHelp", Params(14, 38));
  ASSERT_TRUE(r);
  const json& help = (*r)["result"];
  ASSERT_TRUE(help.is_object()) << r->dump();
  const json& signature = help["signatures"][0];
  std::string label = signature["label"];
  EXPECT_EQ(label.rfind("R.nn.conv2d(data, weight, strides", 0), 0u) << label;
  int active = help["activeParameter"];
  const json& range = signature["parameters"][active]["label"];
  EXPECT_EQ(label.substr(range[0].get<size_t>(), range[1].get<size_t>() - range[0].get<size_t>())
                .rfind("strides", 0),
            0u)
      << r->dump();
  // Outside any call: null.
  r = s.Request("textDocument/signatureHelp", Params(9, 8));
  ASSERT_TRUE(r);
  EXPECT_TRUE((*r)["result"].is_null()) << r->dump();
}

// Every position-taking request at positions spread over every fixture and example (broken ones
// included): each gets one answer, a result or a deliberate error, never an internal error.
TEST(LspFeatures, EveryRequestAnywhereGetsAnAnswer) {
  std::vector<std::string> files = ListFilesRecursive("tests/fixtures", ".py");
  for (const std::string& f : ExampleFiles()) files.push_back(f);
  LspSession s(json{{"debounceMs", 0}, {"semanticTokensForPython", true}},
               CompletionCapabilities({{"completionItem", {{"snippetSupport", true}}}}));
  int requests = 0;
  for (const std::string& path : files) {
    std::string text = ReadFileOrDie(path);
    std::string uri = "file://" + path;
    s.Open(uri, text);
    ASSERT_TRUE(s.Diagnostics(uri)) << path;
    analysis::LineIndex lines(text);
    for (uint32_t offset = 0; offset < text.size(); offset += 97) {
      analysis::Position p = lines.ToPosition(text, offset, analysis::Encoding::kUtf16);
      json at = LspSession::At(uri, p.line, p.column);
      json rename = at;
      rename["newName"] = "renamed_name";
      json range = {{"start", at["position"]}, {"end", at["position"]}};
      json action = {{"textDocument", {{"uri", uri}}},
                     {"range", range},
                     {"context", {{"diagnostics", json::array()}}}};
      json selection = {{"textDocument", {{"uri", uri}}}, {"positions", {at["position"]}}};
      for (const auto& [method, params] :
           std::vector<std::pair<std::string, json>>{{"textDocument/hover", at},
                                                     {"textDocument/definition", at},
                                                     {"textDocument/documentHighlight", at},
                                                     {"textDocument/prepareRename", at},
                                                     {"textDocument/rename", rename},
                                                     {"textDocument/completion", at},
                                                     {"textDocument/signatureHelp", at},
                                                     {"textDocument/selectionRange", selection},
                                                     {"textDocument/codeAction", action}}) {
        std::optional<json> r = s.Request(method, params);
        ASSERT_TRUE(r) << method << " at " << path << ":" << p.line + 1;
        ++requests;
        if (r->contains("error")) {
          EXPECT_EQ((*r)["error"]["code"], -32803)
              << method << " at " << path << ":" << p.line + 1 << ": " << r->dump();
        }
      }
    }
    for (const char* method : {"textDocument/foldingRange", "textDocument/semanticTokens/full",
                               "textDocument/documentSymbol"}) {
      std::optional<json> r = s.Request(method, {{"textDocument", {{"uri", uri}}}});
      ASSERT_TRUE(r) << method;
      EXPECT_TRUE(r->contains("result")) << method << " on " << path << ": " << r->dump();
    }
    s.Close(uri);
  }
  EXPECT_GT(requests, 5000);
}

TEST(LspProgress, ALargeFirstAnalysisShowsWorkDoneProgress) {
  LspSession s(json{{"debounceMs", 0}}, {{"window", {{"workDoneProgress", true}}}});
  s.client().AutoAnswer("window/workDoneProgress/create", [](const json&) { return json(nullptr); });
  std::string block = ReadFileOrDie(SourcePath("examples/transformer_block.py"));
  std::string text;
  while (text.size() < 600 * 1024) text += block;  // about 0.2 s of analysis
  s.Open(kUri, text);
  ASSERT_TRUE(s.Diagnostics(kUri));
  std::vector<json> progress;
  for (json& m : s.Drain(kUri)) {
    if (m.value("method", "") == "$/progress") progress.push_back(std::move(m));
  }
  // The token was created before `begin` (AutoAnswer accepted it at once); `end` follows.
  ASSERT_EQ(progress.size(), 2u);
  EXPECT_EQ(progress[0]["params"]["value"]["kind"], "begin");
  EXPECT_EQ(progress[0]["params"]["value"]["title"], "Analysing mod.py");
  EXPECT_EQ(progress[1]["params"]["value"]["kind"], "end");
  EXPECT_EQ(progress[0]["params"]["token"], progress[1]["params"]["token"]);
  // An edit re-analyses incrementally: no progress.
  s.Change(kUri, 2, json::array({{{"range", {{"start", {{"line", 0}, {"character", 0}}},
                                            {"end", {{"line", 0}, {"character", 0}}}}},
                                  {"text", "# edited\n"}}}));
  // The file stays clean, so nothing is published; a request answers from the new analysis.
  ASSERT_TRUE(s.Request("textDocument/hover", LspSession::At(kUri, 1, 0)));
  for (const json& m : s.Drain(kUri)) EXPECT_NE(m.value("method", ""), "$/progress") << m.dump();
}

TEST(LspServerPool, DocumentsAreAnalysedIndependently) {
  LspSession s;
  std::vector<std::string> uris;
  for (int i = 0; i < 6; ++i) uris.push_back("file:///work/m" + std::to_string(i) + ".py");
  for (const std::string& uri : uris) s.Open(uri, kText);
  for (const std::string& uri : uris) {
    std::optional<json> publish = s.Diagnostics(uri);
    ASSERT_TRUE(publish) << uri;
    EXPECT_NE(FindCode(*publish, "undefined-name"), nullptr);
  }
  // Edits to all of them, interleaved: each one's last publication is for its last version.
  for (int version = 2; version <= 4; ++version) {
    for (const std::string& uri : uris) {
      // The undefined name changes with the version (yy2, yy3, yy4): so do the diagnostics.
      std::string text = kText;
      text.replace(text.find("yy"), 2, "yy" + std::to_string(version));
      s.Change(uri, version, json::array({{{"text", text}}}));
    }
  }
  std::vector<json> messages;
  for (const std::string& uri : uris) {
    for (json& m : s.Drain(uri)) messages.push_back(std::move(m));
  }
  for (const std::string& uri : uris) {
    int64_t last = 0;
    for (const json& m : messages) {
      if (m.value("method", "") == "textDocument/publishDiagnostics" &&
          m["params"]["uri"] == uri) {
        int64_t v = m["params"].value("version", int64_t{0});
        EXPECT_GT(v, last) << uri << " published out of order";
        last = v;
      }
    }
    EXPECT_EQ(last, 4) << uri;
  }
  EXPECT_EQ(s.client().ShutdownAndExit(), 0);
}

}  // namespace
}  // namespace tvmls::testing
