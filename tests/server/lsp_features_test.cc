// The language server in process: diagnostics' codeDescription and tags, several documents on the
// worker pool, and the editing features (highlight, rename, folding, selection, semantic tokens,
// completion, signature help, the annotate action) as LSP shapes. What each feature answers is
// tested on fixtures in tests/analysis/; here: the JSON, the encodings, the capabilities.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lsp_session.h"
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
      s.Change(uri, version, json::array({{{"text", kText + "\n# v" + std::to_string(version)}}}));
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
