// Unified diffs of two texts, line by line (Myers' O(ND) algorithm), as `diff -u` prints them.
#ifndef TVMLS_SERVER_TEXT_DIFF_H_
#define TVMLS_SERVER_TEXT_DIFF_H_

#include <string>

namespace tvmls::server {

/// `--- a/<from_name>` / `+++ b/<to_name>` headers and `@@ -l,n +l,n @@` hunks with `context`
/// unchanged lines around each change; "" when the texts are equal. A last line without a line
/// break is marked `\ No newline at end of file`, as diff does.
std::string UnifiedDiff(const std::string& before, const std::string& after,
                        const std::string& from_name, const std::string& to_name, int context = 3);

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_TEXT_DIFF_H_
