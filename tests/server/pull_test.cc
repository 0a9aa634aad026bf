// Diagnostics pulled (textDocument/diagnostic, workspace/diagnostic) and pushed only when they
// changed; semantic tokens full/delta/range and inlay hints over ranges, as properties: a delta
// applied to the previous array is a fresh full array, range tokens are the slice of the full
// ones, hints in a range are the full set filtered.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "analysis.h"
#include "lsp_features.h"
#include "lsp_session.h"
#include "query/semantic_tokens.h"
#include "support/files.h"
#include "text/line_index.h"

namespace tvmls::testing {
namespace {

const char* const kUri = "file:///work/pull.py";

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

const json kPullCapabilities = {
    {"textDocument", {{"diagnostic", {{"dynamicRegistration", false}}}}},
    {"workspace", {{"diagnostics", {{"refreshSupport", true}}}}}};

json Range(uint32_t l0, uint32_t c0, uint32_t l1, uint32_t c1) {
  return {{"start", {{"line", l0}, {"character", c0}}}, {"end", {{"line", l1}, {"character", c1}}}};
}

// A didChange inserting `text` at (line, character).
json Insert(uint32_t line, uint32_t character, const std::string& text) {
  return json::array({{{"range", Range(line, character, line, character)}, {"text", text}}});
}

json Pull(LspSession& s, const std::string& uri, const std::string& previous = "") {
  json params = {{"textDocument", {{"uri", uri}}}};
  if (!previous.empty()) params["previousResultId"] = previous;
  std::optional<json> r = s.Request("textDocument/diagnostic", params);
  EXPECT_TRUE(r);
  return r ? *r : json();
}

size_t Publishes(const std::vector<json>& messages, const std::string& uri) {
  return std::count_if(messages.begin(), messages.end(), [&](const json& m) {
    return m.value("method", "") == "textDocument/publishDiagnostics" &&
           m["params"].value("uri", "") == uri;
  });
}

TEST(LspPullDiagnostics, AdvertisedOnlyToClientsThatPull) {
  LspSession push;
  EXPECT_FALSE((*push.initialize_response())["result"]["capabilities"].contains("diagnosticProvider"));
  LspSession pull(json{{"debounceMs", 0}}, kPullCapabilities);
  EXPECT_EQ((*pull.initialize_response())["result"]["capabilities"]["diagnosticProvider"],
            (json{{"interFileDependencies", false}, {"workspaceDiagnostics", true}}));
}

TEST(LspPullDiagnostics, FullThenUnchangedThenFullAfterAnEdit) {
  LspSession s(json{{"debounceMs", 0}}, kPullCapabilities);
  s.Open(kUri, kText);
  json first = Pull(s, kUri);
  ASSERT_EQ(first["result"]["kind"], "full") << first.dump();
  ASSERT_EQ(first["result"]["items"].size(), 1u) << first.dump();
  EXPECT_EQ(first["result"]["items"][0]["code"], "undefined-name");
  std::string id = first["result"]["resultId"];

  json second = Pull(s, kUri, id);
  EXPECT_EQ(second["result"], (json{{"kind", "unchanged"}, {"resultId", id}})) << second.dump();

  // A comment at the end changes no diagnostic: still unchanged.
  s.Change(kUri, 2, Insert(11, 0, "# a comment\n"));
  json third = Pull(s, kUri, id);
  EXPECT_EQ(third["result"]["kind"], "unchanged") << third.dump();

  // `yy` -> `y`: no diagnostics, a new resultId.
  s.Change(kUri, 3, json::array({{{"range", Range(9, 26, 9, 28)}, {"text", "y"}}}));
  json fourth = Pull(s, kUri, id);
  EXPECT_EQ(fourth["result"]["kind"], "full") << fourth.dump();
  EXPECT_EQ(fourth["result"]["items"], json::array());
  EXPECT_NE(fourth["result"]["resultId"], id);
  // An unknown previousResultId gets the full report.
  EXPECT_EQ(Pull(s, kUri, "nonsense")["result"]["kind"], "full");

  // Nothing was pushed for the document.
  EXPECT_EQ(Publishes(s.Drain(kUri), kUri), 0u);
}

TEST(LspPullDiagnostics, ReopenedDocumentsNeverMatchOldResultIds) {
  LspSession s(json{{"debounceMs", 0}}, kPullCapabilities);
  s.Open(kUri, kText);
  std::string id = Pull(s, kUri)["result"]["resultId"];
  s.Close(kUri);
  // Not open: an empty full report.
  EXPECT_EQ(Pull(s, kUri, id)["result"], (json{{"kind", "full"}, {"items", json::array()}}));
  s.Open(kUri, kText);
  EXPECT_EQ(Pull(s, kUri, id)["result"]["kind"], "full");
}

TEST(LspPullDiagnostics, WorkspaceReportsEveryOpenDocument) {
  LspSession s(json{{"debounceMs", 0}}, kPullCapabilities);
  const std::string other = "file:///work/other.py";
  s.Open(kUri, kText, 4);
  s.Open(other, "x = 1\n", 7);
  std::optional<json> r = s.Request("workspace/diagnostic", {{"previousResultIds", json::array()}});
  ASSERT_TRUE(r);
  ASSERT_TRUE(r->contains("result")) << r->dump();
  const json& items = (*r)["result"]["items"];
  ASSERT_EQ(items.size(), 2u) << r->dump();
  // In uri order.
  EXPECT_EQ(items[0]["uri"], other);
  EXPECT_EQ(items[0]["version"], 7);
  EXPECT_EQ(items[0]["kind"], "full");
  EXPECT_EQ(items[0]["items"], json::array());
  EXPECT_EQ(items[1]["uri"], kUri);
  EXPECT_EQ(items[1]["version"], 4);
  EXPECT_EQ(items[1]["items"].size(), 1u);

  const std::string id = items[1]["resultId"];  // `items` dies with the next response
  json previous = json::array({{{"uri", kUri}, {"value", id}}});
  r = s.Request("workspace/diagnostic", {{"previousResultIds", previous}});
  ASSERT_TRUE(r);
  ASSERT_EQ((*r)["result"]["items"].size(), 2u) << r->dump();
  EXPECT_EQ((*r)["result"]["items"][0]["kind"], "full");
  EXPECT_EQ((*r)["result"]["items"][1],
            (json{{"uri", kUri}, {"version", 4}, {"kind", "unchanged"}, {"resultId", id}}));

  s.Close(kUri);
  s.Close(other);
  r = s.Request("workspace/diagnostic", json::object());
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"], (json{{"items", json::array()}}));
}

// A client keeps a workspace report until it gets another for that uri: a document closed since
// its last report gets an empty one, so its problems do not outlive it (VS Code's Problems panel
// kept a closed file's errors).
TEST(LspPullDiagnostics, WorkspaceClearsADocumentClosedSinceTheLastReport) {
  LspSession s(json{{"debounceMs", 0}}, kPullCapabilities);
  const std::string other = "file:///work/other.py";
  s.Open(kUri, kText, 4);
  s.Open(other, "x = 1\n", 7);
  std::optional<json> r = s.Request("workspace/diagnostic", {{"previousResultIds", json::array()}});
  ASSERT_TRUE(r);
  ASSERT_EQ((*r)["result"]["items"].size(), 2u) << r->dump();
  const std::string id = (*r)["result"]["items"][1]["resultId"];
  const std::string other_id = (*r)["result"]["items"][0]["resultId"];

  s.Close(kUri);
  json previous = json::array({{{"uri", kUri}, {"value", id}}, {{"uri", other}, {"value", other_id}}});
  r = s.Request("workspace/diagnostic", {{"previousResultIds", previous}});
  ASSERT_TRUE(r);
  const json& items = (*r)["result"]["items"];
  ASSERT_EQ(items.size(), 2u) << r->dump();
  EXPECT_EQ(items[0]["uri"], other);
  EXPECT_EQ(items[0]["kind"], "unchanged");
  EXPECT_EQ(items[1], (json{{"uri", kUri}, {"version", nullptr}, {"kind", "full"}, {"items", json::array()}}));

  s.Close(other);
  r = s.Request("workspace/diagnostic", {{"previousResultIds", previous}});
  ASSERT_TRUE(r);
  ASSERT_EQ((*r)["result"]["items"].size(), 2u) << r->dump();
  EXPECT_EQ((*r)["result"]["items"][0]["items"], json::array());
  EXPECT_EQ((*r)["result"]["items"][0]["version"], nullptr);
}

TEST(LspPullDiagnostics, NewSettingsAskForARefresh) {
  LspSession s(json{{"debounceMs", 0}}, kPullCapabilities);
  s.Open(kUri, kText);
  ASSERT_EQ(Pull(s, kUri)["result"]["items"].size(), 1u);
  s.client().SendNotification("workspace/didChangeConfiguration",
                              {{"settings", {{"tvmls", {{"severity", {{"undefined-name", "off"}}}}}}}});
  std::optional<json> refresh = s.client().WaitForServerRequest("workspace/diagnostic/refresh");
  ASSERT_TRUE(refresh);
  s.client().SendResponse((*refresh)["id"], nullptr);
  EXPECT_EQ(Pull(s, kUri)["result"]["items"], json::array());
}

// A pull overtaken by an edit is ServerCancelled with retriggerRequest (the analysis of the
// first version of a large document takes tens of milliseconds: the edit arrives meanwhile), or
// answered when the analysis won the race.
TEST(LspPullDiagnostics, OvertakenPullsAreServerCancelled) {
  LspSession s(json{{"debounceMs", 0}}, kPullCapabilities);
  std::string big;
  for (int i = 0; i < 6; ++i) big += ReadFileOrDie(SourcePath("examples/transformer_block.py"));
  s.Open(kUri, big);
  json id = s.client().SendRequest("textDocument/diagnostic", {{"textDocument", {{"uri", kUri}}}});
  s.Change(kUri, 2, Insert(0, 0, "# edited\n"));
  std::optional<json> r = s.client().WaitForResponse(id);
  ASSERT_TRUE(r);
  if (r->contains("error")) {
    EXPECT_EQ((*r)["error"]["code"], -32802) << r->dump();
    EXPECT_EQ((*r)["error"]["data"]["retriggerRequest"], true) << r->dump();
  } else {
    EXPECT_EQ((*r)["result"]["kind"], "full") << r->dump();
  }
  EXPECT_EQ(Pull(s, kUri)["result"]["kind"], "full");
}

// A pull overtaken by the document's close is answered, with the empty report a pull after the
// close gets: never ServerCancelled. vscode-languageclient 9.0.1 throws on retriggerRequest
// false and then keeps the closed document's old diagnostics for good (its pull state is never
// forgotten, so the workspace pull's empty report for it is skipped).
TEST(LspPullDiagnostics, APullOvertakenByTheCloseGetsAnEmptyReport) {
  LspSession s(json{{"debounceMs", 0}}, kPullCapabilities);
  std::string big;
  for (int i = 0; i < 6; ++i) big += ReadFileOrDie(SourcePath("examples/transformer_block.py"));
  big += "x = undefined_name\n";
  s.Open(kUri, big);
  json id = s.client().SendRequest("textDocument/diagnostic", {{"textDocument", {{"uri", kUri}}}});
  s.Close(kUri);
  std::optional<json> r = s.client().WaitForResponse(id);
  ASSERT_TRUE(r);
  ASSERT_FALSE(r->contains("error")) << r->dump();
  EXPECT_EQ((*r)["result"]["kind"], "full") << r->dump();
}

// After every edit the report is the one a fresh open of the same text gets: the JSON of the
// statements an edit left alone is kept with its lines moved (LspDocument::WriteDiagnostics).
// Edits above diagnostics move lines (blank lines, comments with characters of two UTF-16
// units), typed and deleted characters change statements; a severity setting changes midway.
TEST(LspPullDiagnostics, AfterEditsTheReportIsTheFreshOnes) {
  std::string text;
  for (const char* f : {"examples/seed_a_storage_overflow.py", "examples/seed_b_kill_in_dataflow.py",
                        "examples/seed_c_call_tir_shape.py", "examples/seed_d_axis_separators.py",
                        "examples/transformer_block.py"}) {
    text += ReadFileOrDie(SourcePath(f)) + "\n";
  }
  auto lines_of = [](const std::string& t) {
    std::vector<size_t> starts = {0};
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] == '\n') starts.push_back(i + 1);
    }
    return starts;
  };
  const json off = {{"tvmls", {{"severity", {{"shape-mismatch", "off"}, {"undefined-name", "hint"}}}}}};
  LspSession s(json{{"debounceMs", 0}}, kPullCapabilities);
  s.Open(kUri, text);
  std::mt19937 rng(20261129);
  bool configured = false;
  int moved = 0, changed = 0;
  for (int step = 0; step < 48; ++step) {
    if (step == 24) {
      s.client().SendNotification("workspace/didChangeConfiguration", {{"settings", off}});
      configured = true;
    }
    std::vector<size_t> starts = lines_of(text);
    uint32_t line = static_cast<uint32_t>(rng() % (starts.size() - 1));
    size_t at = starts[line];
    size_t line_end = starts[line + 1] - 1;  // its '\n'
    json change;
    switch (rng() % 4) {
      case 0:  // a blank line or a comment above whatever is there
      case 1: {
        std::string inserted = rng() % 2 ? "\n" : "# \xC3\xBC \xF0\x9F\x98\x80 note\n";
        change = Insert(line, 0, inserted);
        text.insert(at, inserted);
        ++moved;
        break;
      }
      case 2: {  // a character typed into an ASCII line
        uint32_t col = static_cast<uint32_t>(rng() % (line_end - at + 1));
        if (std::any_of(text.begin() + at, text.begin() + line_end, [](char c) { return c & 0x80; })) col = 0;
        change = Insert(line, col, "x");
        text.insert(at + col, "x");
        ++changed;
        break;
      }
      default: {  // the whole line deleted
        change = json::array({{{"range", Range(line, 0, line + 1, 0)}, {"text", ""}}});
        text.erase(at, starts[line + 1] - at);
        ++moved;
        break;
      }
    }
    s.Change(kUri, step + 2, change);
    json mine = Pull(s, kUri)["result"];
    LspSession fresh(configured ? json{{"debounceMs", 0}, {"severity", off["tvmls"]["severity"]}}
                                : json{{"debounceMs", 0}},
                     kPullCapabilities);
    fresh.Open(kUri, text);
    json theirs = Pull(fresh, kUri)["result"];
    ASSERT_EQ(mine["items"], theirs["items"]) << "after edit " << step << ": " << change.dump();
  }
  EXPECT_GT(moved, 10);
  EXPECT_GT(changed, 5);
}

TEST(LspPushDiagnostics, AnEditThatChangesNoDiagnosticPublishesNothing) {
  LspSession s;
  s.Open(kUri, kText);
  std::optional<json> first = s.Diagnostics(kUri);
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)["diagnostics"].size(), 1u);
  s.Change(kUri, 2, Insert(11, 0, "# a comment\n"));
  EXPECT_EQ(Publishes(s.Drain(kUri), kUri), 0u);
  // The diagnostic moves down a line: published, with the version.
  s.Change(kUri, 3, Insert(0, 0, "# first\n"));
  std::optional<json> moved = s.Diagnostics(kUri);
  ASSERT_TRUE(moved);
  EXPECT_EQ((*moved)["version"], 3);
  EXPECT_EQ((*moved)["diagnostics"][0]["range"]["start"]["line"], 10);
  // Closing clears them.
  s.Close(kUri);
  std::optional<json> closed = s.Diagnostics(kUri);
  ASSERT_TRUE(closed);
  EXPECT_EQ((*closed)["diagnostics"], json::array());
}

// ---- Semantic tokens and inlay hints ----

using Token = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t>;  // absolute

std::vector<Token> Decode(const json& data) {
  std::vector<Token> tokens;
  uint32_t line = 0, column = 0;
  for (size_t i = 0; i + 4 < data.size(); i += 5) {
    uint32_t dl = data[i], dc = data[i + 1];
    column = dl == 0 ? column + dc : dc;
    line += dl;
    tokens.emplace_back(line, column, data[i + 2], data[i + 3], data[i + 4]);
  }
  return tokens;
}

json TokensRequest(LspSession& s, const std::string& method, json params) {
  params["textDocument"] = {{"uri", kUri}};
  std::optional<json> r = s.Request(method, params);
  EXPECT_TRUE(r);
  return r ? (*r)["result"] : json();
}

std::vector<uint32_t> Ints(const json& data) { return data.get<std::vector<uint32_t>>(); }

TEST(LspSemanticTokens, MinimalEditLeavesOutTheCommonPrefixAndSuffix) {
  using server::MinimalTokensEdit;
  EXPECT_FALSE(MinimalTokensEdit({1, 2, 3}, {1, 2, 3}));
  std::optional<server::TokensEdit> e = MinimalTokensEdit({1, 2, 3, 4, 5}, {1, 2, 9, 4, 5});
  ASSERT_TRUE(e);
  EXPECT_EQ(std::make_tuple(e->start, e->delete_count, e->data_begin, e->data_end),
            std::make_tuple(size_t{2}, size_t{1}, size_t{2}, size_t{3}));
  // Prefix and suffix may not overlap: [1,1] -> [1,1,1] inserts one.
  e = MinimalTokensEdit({1, 1}, {1, 1, 1});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->delete_count, 0u);
  EXPECT_EQ(e->data_end - e->data_begin, 1u);
  e = MinimalTokensEdit({7, 8, 9}, {});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->delete_count, 3u);
}

// The full array is the reference encoding of analysis::SemanticTokens (positions from the line
// index), also in UTF-16 with characters outside the BMP before tokens.
TEST(LspSemanticTokens, FullDataIsTheRelativeEncodingOfTheQuery) {
  std::string text = ReadFileOrDie(SourcePath("examples/transformer_block.py"));
  // Non-ASCII before tokens on a line: a comment is not a token, a string is lexed past.
  text.replace(text.find("@I.ir_module"), 0, "s = \"\xF0\x9F\x98\x80\xC3\xA9\"; import tvm\n");
  LspSession s;
  s.Open(kUri, text, 1, "tvmscript");
  ASSERT_TRUE(s.Diagnostics(kUri));
  json full = TokensRequest(s, "textDocument/semanticTokens/full", json::object());

  analysis::Document doc(text);
  std::unique_ptr<analysis::Analyzer> analyzer = std::make_unique<analysis::Analyzer>();
  analyzer->Run(doc);
  std::vector<uint32_t> expected;
  uint32_t last_line = 0, last_column = 0;
  for (const analysis::SemanticToken& t : analysis::SemanticTokens(doc, *analyzer->Model())) {
    analysis::Position b = doc.PositionOf(t.range.begin, analysis::Encoding::kUtf16);
    analysis::Position e = doc.PositionOf(t.range.end, analysis::Encoding::kUtf16);
    uint32_t dl = b.line - last_line;
    expected.insert(expected.end(), {dl, dl == 0 ? b.column - last_column : b.column,
                                     e.column - b.column, static_cast<uint32_t>(t.type),
                                     t.modifiers});
    last_line = b.line;
    last_column = b.column;
  }
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(Ints(full["data"]), expected);
  EXPECT_TRUE(full["resultId"].is_string());
}

// Random edits (inserting and deleting names, lines, brackets); after each, a delta on the last
// resultId applied to the last array gives the array of a fresh full request.
TEST(LspSemanticTokens, DeltaAppliedToThePreviousArrayIsTheFullArray) {
  std::string text = ReadFileOrDie(SourcePath("examples/transformer_block.py"));
  LspSession s;
  s.Open(kUri, text, 1, "tvmscript");
  ASSERT_TRUE(s.Diagnostics(kUri));
  json full = TokensRequest(s, "textDocument/semanticTokens/full", json::object());
  std::vector<uint32_t> data = Ints(full["data"]);
  std::string id = full["resultId"];

  std::mt19937 rng(1234);
  const std::vector<std::string> inserts = {"x", "lv", "\n", "R.", "(", ")", " ", "# c\n", "\"",
                                            "\"\"\"", "'", "\"float32\"", "@R.function\n",
                                            "gv = R.add(x, x)\n        ", "def f():\n"};
  int deltas_with_edits = 0;
  int with_tokens = 0;  // steps whose text is TVMScript (else every answer is empty)
  for (int version = 2; version < 122; ++version) {
    analysis::LineIndex lines(text);
    uint32_t at = std::uniform_int_distribution<uint32_t>(0, text.size() - 1)(rng);
    while (at > 0 && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
    analysis::Position p = lines.ToPosition(text, at, analysis::Encoding::kUtf16);
    json change;
    if (version % 3 == 0) {  // Deletes up to 8 bytes (whole characters), newlines included.
      uint32_t to = std::min<uint32_t>(text.size(), at + 1 + rng() % 8);
      while (to < text.size() && (static_cast<unsigned char>(text[to]) & 0xC0) == 0x80) ++to;
      analysis::Position q = lines.ToPosition(text, to, analysis::Encoding::kUtf16);
      change = json::array({{{"range", Range(p.line, p.column, q.line, q.column)}, {"text", ""}}});
      text.erase(at, to - at);
    } else {
      const std::string& ins = inserts[rng() % inserts.size()];
      change = Insert(p.line, p.column, ins);
      text.insert(at, ins);
    }
    s.Change(kUri, version, change);
    json delta = TokensRequest(s, "textDocument/semanticTokens/full/delta", {{"previousResultId", id}});
    ASSERT_TRUE(delta.contains("edits")) << delta.dump();
    ASSERT_LE(delta["edits"].size(), 1u);
    for (const json& e : delta["edits"]) {
      size_t start = e["start"], count = e["deleteCount"];
      ASSERT_LE(start + count, data.size());
      std::vector<uint32_t> inserted = Ints(e.value("data", json::array()));
      data.erase(data.begin() + start, data.begin() + start + count);
      data.insert(data.begin() + start, inserted.begin(), inserted.end());
      ++deltas_with_edits;
    }
    if (delta["edits"].empty()) {
      EXPECT_EQ(delta["resultId"], id);
    }
    id = delta["resultId"];
    // The same document's full array, and its tokens computed from scratch on the same analysis
    // (a range over the whole text reads the query directly, not the tokens kept across edits;
    // a second document with this text may be parsed differently after the random garbage).
    json full_now = TokensRequest(s, "textDocument/semanticTokens/full", json::object());
    EXPECT_EQ(full_now["resultId"], id);
    ASSERT_EQ(Ints(full_now["data"]), data) << "after edit " << version << ": " << change.dump();
    json scratch = TokensRequest(s, "textDocument/semanticTokens/range", {{"range", Range(0, 0, 100000, 0)}});
    std::vector<uint32_t> want = Ints(scratch["data"]);
    if (!want.empty()) ++with_tokens;
    if (want != data) {
      std::vector<Token> a = Decode(want), b = Decode(data);
      size_t k = 0;
      while (k < a.size() && k < b.size() && a[k] == b[k]) ++k;
      auto show = [](const std::vector<Token>& v, size_t where) {
        std::string out;
        for (size_t i = where > 2 ? where - 2 : 0; i < std::min(v.size(), where + 3); ++i) {
          out += std::to_string(std::get<0>(v[i])) + ":" + std::to_string(std::get<1>(v[i])) + "+" +
                 std::to_string(std::get<2>(v[i])) + "/" + std::to_string(std::get<3>(v[i])) + " ";
        }
        return out;
      };
      FAIL() << "after edit " << version << ": " << change.dump() << "\nscratch: " << show(a, k)
             << "\nkept:    " << show(b, k) << "\ntext:\n" << text;
    }
  }
  EXPECT_GT(deltas_with_edits, 30);
  EXPECT_GT(with_tokens, 60);  // 95 of the 120 with this seed
  // An unknown previousResultId gets full tokens.
  json full_again = TokensRequest(s, "textDocument/semanticTokens/full/delta", {{"previousResultId", "x"}});
  EXPECT_EQ(Ints(full_again["data"]), data);
}

// Every line range of every example: the range's tokens are the full tokens meeting it.
TEST(LspSemanticTokens, RangeTokensAreTheSliceOfTheFullTokens) {
  for (const std::string& path : ExampleFiles()) {
    std::string text = ReadFileOrDie(path);
    LspSession s;
    s.Open(kUri, text, 1, "tvmscript");
    ASSERT_TRUE(s.Diagnostics(kUri));
    std::vector<Token> all = Decode(TokensRequest(s, "textDocument/semanticTokens/full", json::object())["data"]);
    analysis::LineIndex lines(text);
    uint32_t n = lines.LineCount();
    std::mt19937 rng(7);
    for (int k = 0; k < 40; ++k) {
      uint32_t l0 = rng() % n;
      uint32_t l1 = std::min(n, l0 + 1 + static_cast<uint32_t>(rng() % 60));
      uint32_t c0 = k % 2 ? 0 : rng() % 12;
      json range = Range(l0, c0, l1, 0);
      json got = TokensRequest(s, "textDocument/semanticTokens/range", {{"range", range}});
      std::vector<Token> expected;
      for (const Token& t : all) {
        uint32_t line = std::get<0>(t), col = std::get<1>(t), len = std::get<2>(t);
        bool after_start = line > l0 || (line == l0 && col + len > c0);
        if (after_start && line < l1) expected.push_back(t);
      }
      EXPECT_EQ(Decode(got["data"]), expected) << path << " " << range.dump();
    }
  }
}

// Inlay hints of a 60-line viewport are the hints of the whole document inside it.
TEST(LspInlayHints, ARangeGetsTheFullSetFiltered) {
  std::string text;
  for (int i = 0; i < 3; ++i) text += ReadFileOrDie(SourcePath("examples/transformer_block.py"));
  text += ReadFileOrDie(SourcePath("examples/current_era_module.py"));
  LspSession s;
  s.Open(kUri, text);
  ASSERT_TRUE(s.Diagnostics(kUri));
  analysis::LineIndex lines(text);
  uint32_t n = lines.LineCount();
  json all = TokensRequest(s, "textDocument/inlayHint", {{"range", Range(0, 0, n, 0)}});
  ASSERT_GT(all.size(), 8u);
  for (uint32_t l0 = 0; l0 < n; l0 += 17) {
    json got = TokensRequest(s, "textDocument/inlayHint", {{"range", Range(l0, 4, l0 + 60, 0)}});
    json expected = json::array();
    for (const json& h : all) {
      uint32_t line = h["position"]["line"], col = h["position"]["character"];
      if ((line > l0 || (line == l0 && col >= 4)) && line < l0 + 60) expected.push_back(h);
    }
    EXPECT_EQ(got, expected) << "lines " << l0 << "-" << l0 + 60;
  }
}

}  // namespace
}  // namespace tvmls::testing
