// Glob patterns over slash-separated relative paths, as .gitignore and the `include`/`exclude`
// lists of tvmls.toml write them.
//
//   *      any run of characters except '/'
//   **     any run of characters, '/' included (`a/**/b` also matches `a/b`)
//   ?      one character except '/'
//   [abc]  one character of the set; [!abc] or [^abc] one not in it; ranges as in [a-z]
//   \x     the character x
//
// A pattern is matched against a path relative to the directory the pattern belongs to (the
// .gitignore's folder, the configuration file's folder). A pattern without a '/' except at its
// end matches the last component at any depth (`*.py`, `build/`); one with a '/' is anchored
// (`/docs`, `tests/fixtures/*.py`). A trailing '/' restricts it to directories.
#ifndef TVMLS_SERVER_PATH_MATCH_H_
#define TVMLS_SERVER_PATH_MATCH_H_

#include <string>
#include <string_view>
#include <vector>

namespace tvmls::server {

/// True when `text` matches the glob `pattern` (the syntax above, `**` included) as a whole.
bool GlobMatch(std::string_view pattern, std::string_view text);

/// One pattern of an ignore list.
struct PathPattern {
  std::string glob;        // without the leading '!' / '/' and the trailing '/'
  bool negated = false;    // `!pattern`: re-includes what an earlier pattern excluded
  bool directory_only = false;
  bool anchored = false;   // matched against the whole relative path, not the last component
};

/// Parses one line of a .gitignore or one element of an exclude list. Returns false for blank
/// lines and comments (`# ...`).
bool ParsePathPattern(std::string_view line, PathPattern* pattern);

/// Patterns that belong to one directory (`base`, relative to the walk's root, "" for the root).
struct PatternSet {
  std::string base;
  std::vector<PathPattern> patterns;
};

/// The verdict of the LAST pattern of `sets` (in order) that matches `path` (relative to the
/// walk's root): +1 ignored, -1 re-included by a negation, 0 no pattern matches.
int MatchPatterns(const std::vector<PatternSet>& sets, const std::string& path, bool is_directory);

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_PATH_MATCH_H_
