// FindModuleBindings: which names a text may bind in the global scope, read from its tokens. One
// row per rule, and the property the preview relies on: every name discovery (the parse) counts
// as a Python name of the file, the scan counts as bound too, on every example and fixture (and
// on a folder of real code named by $TVMLS_PREVIEW_CORPUS, e.g. apache/tvm's tests/python).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "model/discovery.h"
#include "model/model.h"
#include "support/files.h"
#include "syntax/document.h"
#include "syntax/module_bindings.h"

namespace tvmls::analysis {
namespace {

using Names = std::vector<std::string>;

TEST(FindModuleBindings, FollowsEachRule) {
  struct Case {
    const char* text;
    Names asked, bound, occurring;
  };
  const Case cases[] = {
      // Assignment targets, and what is no target.
      {"K = 1\n", {"K"}, {"K"}, {"K"}},
      {"x = K\nf(K=1)\nK == 2\nK.a = 1\nK[0] = 1\nK(1).b = 2\n", {"K"}, {}, {"K"}},
      {"a, (K, b) = t\n", {"K", "a"}, {"K", "a"}, {"K", "a"}},
      {"[K, *L] = t\n", {"K", "L"}, {"K", "L"}, {"K", "L"}},
      {"K: int = 3\nL: int\n", {"K", "L", "int"}, {"K", "L"}, {"K", "L", "int"}},
      {"K += 1\nL <<= 2\nM //= 3\n", {"K", "L", "M"}, {"K", "L", "M"}, {"K", "L", "M"}},
      {"a = K = b = 1\n", {"K", "a", "b"}, {"K", "a", "b"}, {"K", "a", "b"}},
      {"K = lambda x: x\n", {"K", "x"}, {"K"}, {"K", "x"}},
      {"x = a; K = 1; y = 2\n", {"K", "a"}, {"K"}, {"K", "a"}},
      {"x = (K :=\n  1)\nprint(L := 2)\n", {"K", "L", "x"}, {"K", "L", "x"}, {"K", "L", "x"}},
      // Definitions, and their bodies.
      {"def K(x):\n    L = 1\n    return x\n", {"K", "L", "x"}, {"K"}, {"K", "L", "x"}},
      {"async def K():\n    pass\n", {"K"}, {"K"}, {"K"}},
      // A class body binds the names of its definitions (discovery's rule for I.ir_module).
      {"class K:\n    L = 1\n    def M(self):\n        N = 2\n        def O(): pass\n", {"K", "L", "M", "N", "O"},
       {"K", "M"}, {"K", "L", "M", "N", "O"}},
      {"def f(): K = 1\n", {"K", "f"}, {"f"}, {"K", "f"}},
      {"@K.deco\ndef f():\n    pass\nL = 1\n", {"K", "L"}, {"L"}, {"K", "L"}},
      {"def f():\n    global K, L\n    K = 1\n", {"K", "L"}, {"K", "L"}, {"K", "L"}},
      {"class C:\n    def f(self):\n        nonlocal K\n", {"K"}, {"K"}, {"K"}},
      // Blocks at the global scope bind there.
      {"if c:\n    K = 1\nelse:\n    L = 2\n", {"K", "L"}, {"K", "L"}, {"K", "L"}},
      {"if c: K = 1\n", {"K"}, {"K"}, {"K"}},
      {"try:\n    import numpy as K\nexcept ImportError as L:\n    M = None\n", {"K", "L", "M", "numpy", "ImportError"},
       {"ImportError", "K", "L", "M", "numpy"}, {"ImportError", "K", "L", "M", "numpy"}},
      {"for K, (L, M.a) in items:\n    N = K\n", {"K", "L", "M", "N", "items"}, {"K", "L", "N"},
       {"K", "L", "M", "N", "items"}},
      {"with open(p) as K, g() as (L, M):\n    pass\n", {"K", "L", "M", "p"}, {"K", "L", "M"}, {"K", "L", "M", "p"}},
      {"while K:\n    L = 1\n", {"K", "L"}, {"L"}, {"K", "L"}},
      {"match x:\n    case [K, L]:\n        M = 1\n", {"K", "L", "M"}, {"K", "L", "M"}, {"K", "L", "M"}},
      {"match = K\n", {"K", "match"}, {"match"}, {"K", "match"}},
      {"def f():\n    if c:\n        K = 1\nL = 2\n", {"K", "L"}, {"L"}, {"K", "L"}},
      // Imports.
      {"import K.sub, L\nfrom M.x import N as O\n", {"K", "L", "M", "N", "O", "x"}, {"K", "L", "M", "N", "O", "x"},
       {"K", "L", "M", "N", "O", "x"}},
      // Strings and comments are not code.
      {"x = 'K = 1'  # L = 2\ny = \"\"\"\nM = 3\n\"\"\"\nz = rb'N = 4' f\"{O}\"\n", {"K", "L", "M", "N", "O"}, {}, {}},
      {"s = 'it\\'s K'\nL = 1\n", {"K", "L"}, {"L"}, {"L"}},
      {"s = 'open\nK = 1\n", {"K"}, {"K"}, {"K"}},  // a one-quote literal ends at its line end
      {"x = 1 + \\\n  K\nL \\\n  = 2\n", {"K", "L"}, {"L"}, {"K", "L"}},
      {"x = [\n  1,\nK = 2]\n", {"K"}, {}, {"K"}},  // inside brackets: a keyword argument's place
      {"x = 1e-5 + 0x1F + 1.5j\nK = 2\n", {"K", "e", "x1F", "j"}, {"K"}, {"K"}},
      {"caf\xc3\xa9 = 1\n", {"caf\xc3\xa9"}, {"caf\xc3\xa9"}, {"caf\xc3\xa9"}},
  };
  for (const Case& c : cases) {
    NamesInText found = FindModuleBindings(c.text, c.asked);
    EXPECT_EQ(found.bound, c.bound) << c.text;
    EXPECT_EQ(found.occurring, c.occurring) << c.text;
    EXPECT_TRUE(found.balanced) << c.text;
  }
}

TEST(FindModuleBindings, TellsWhenTheTextEndsOpen) {
  EXPECT_FALSE(FindModuleBindings("x = f(\nK = 1\n", {"K"}).balanced);
  EXPECT_FALSE(FindModuleBindings("x = '''\nK = 1\n", {"K"}).balanced);
  // A closer that closes nothing is skipped, as the parser skips it.
  NamesInText extra = FindModuleBindings("x = 1)\nK = 1\n", {"K"});
  EXPECT_TRUE(extra.balanced);
  EXPECT_EQ(extra.bound, Names{"K"});
  EXPECT_TRUE(FindModuleBindings("", {"K"}).balanced);
}

// The names discovery counts as the file's Python names, statement by statement.
Names DiscoveredNames(const Document& doc) {
  Names out;
  TSNode root = doc.Root();
  Aliases aliases;
  for (uint32_t i = 0, n = ts_node_named_child_count(root); i < n; ++i) {
    Discovery d;
    Discover(ts_node_named_child(root, i), doc.Text(), aliases, &d);
    out.insert(out.end(), d.python_names.begin(), d.python_names.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Over-approximation: what the parse finds bound, the scan finds bound.
void ExpectScanCoversDiscovery(const std::string& path) {
  std::string text = testing::ReadFileOrDie(path);
  Document doc(text);
  if (ts_node_has_error(doc.Root())) return;  // the scan promises nothing against recovery
  Names discovered = DiscoveredNames(doc);
  NamesInText found = FindModuleBindings(text, discovered);
  EXPECT_TRUE(found.balanced) << path;
  Names missed;
  std::set_difference(discovered.begin(), discovered.end(), found.bound.begin(), found.bound.end(),
                      std::back_inserter(missed));
  EXPECT_TRUE(missed.empty()) << path << ": the scan does not see `" << (missed.empty() ? "" : missed[0])
                              << "` bound";
}

TEST(FindModuleBindings, SeesEveryNameDiscoverySeesInTheExamplesAndFixtures) {
  std::vector<std::string> files = testing::ExampleFiles();
  for (const std::string& f : testing::ListFilesRecursive("tests/fixtures", ".py")) files.push_back(f);
  for (const std::string& f : files) ExpectScanCoversDiscovery(f);
  EXPECT_GT(files.size(), 50u);
}

TEST(FindModuleBindings, SeesEveryNameDiscoverySeesInACorpus) {
  const char* dir = std::getenv("TVMLS_PREVIEW_CORPUS");
  if (dir == nullptr) GTEST_SKIP() << "set TVMLS_PREVIEW_CORPUS to a folder of Python files";
  size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".py") continue;
    ExpectScanCoversDiscovery(entry.path().string());
    ++files;
  }
  EXPECT_GT(files, 0u);
}

}  // namespace
}  // namespace tvmls::analysis
