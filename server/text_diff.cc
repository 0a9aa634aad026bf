#include "text_diff.h"

#include <algorithm>
#include <vector>

namespace tvmls::server {

namespace {

// Lines with their line breaks; a last line without one keeps none.
std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    size_t end = nl == std::string::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(at, end - at));
    at = end;
  }
  return lines;
}

enum class Op { kKeep, kDelete, kInsert };

// The edit script turning a into b (Myers, with the V arrays kept for the backtrack).
std::vector<Op> EditScript(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  const int max = n + m, offset = max + 1;
  std::vector<int> v(2 * max + 3, 0);
  std::vector<std::vector<int>> trace;
  for (int d = 0; d <= max; ++d) {
    trace.push_back(v);
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1]
                                                                             : v[offset + k - 1] + 1;
      int y = x - k;
      while (x < n && y < m && a[x] == b[y]) {
        ++x;
        ++y;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        // Backtrack from (n, m) through the saved V arrays.
        std::vector<Op> ops;
        int cx = n, cy = m;
        for (int dd = d; dd > 0; --dd) {
          const std::vector<int>& pv = trace[dd];
          int kk = cx - cy;
          int prev_k = (kk == -dd || (kk != dd && pv[offset + kk - 1] < pv[offset + kk + 1])) ? kk + 1
                                                                                             : kk - 1;
          int px = pv[offset + prev_k], py = px - prev_k;
          while (cx > px && cy > py) {
            ops.push_back(Op::kKeep);
            --cx;
            --cy;
          }
          ops.push_back(cx == px ? Op::kInsert : Op::kDelete);
          cx = px;
          cy = py;
        }
        while (cx > 0 && cy > 0) {
          ops.push_back(Op::kKeep);
          --cx;
          --cy;
        }
        std::reverse(ops.begin(), ops.end());
        return ops;
      }
    }
  }
  return {};
}

void AppendLine(std::string* out, char mark, const std::string& line) {
  *out += mark;
  *out += line;
  if (line.empty() || line.back() != '\n') *out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string UnifiedDiff(const std::string& before, const std::string& after,
                        const std::string& from_name, const std::string& to_name, int context) {
  if (before == after) return "";
  std::vector<std::string> a = SplitLines(before), b = SplitLines(after);
  std::vector<Op> ops = EditScript(a, b);
  // Position of each op in a and b.
  std::vector<int> ax(ops.size() + 1), bx(ops.size() + 1);
  for (size_t i = 0; i < ops.size(); ++i) {
    ax[i + 1] = ax[i] + (ops[i] != Op::kInsert ? 1 : 0);
    bx[i + 1] = bx[i] + (ops[i] != Op::kDelete ? 1 : 0);
  }
  std::string out = "--- a/" + from_name + "\n+++ b/" + to_name + "\n";
  size_t i = 0;
  while (i < ops.size()) {
    if (ops[i] == Op::kKeep) {
      ++i;
      continue;
    }
    // A hunk: from `context` keeps before the change to `context` keeps after the last change
    // that is at most 2 * context keeps from the next.
    size_t start = i >= static_cast<size_t>(context) ? i - context : 0;
    while (start < i && ops[start] != Op::kKeep) ++start;
    size_t end = i;
    while (true) {
      while (end < ops.size() && ops[end] != Op::kKeep) ++end;
      size_t keeps = 0;
      while (end + keeps < ops.size() && ops[end + keeps] == Op::kKeep) ++keeps;
      if (end + keeps < ops.size() && keeps <= static_cast<size_t>(2 * context)) {
        end += keeps;
        continue;
      }
      end += std::min<size_t>(keeps, context);
      break;
    }
    int a_len = ax[end] - ax[start], b_len = bx[end] - bx[start];
    out += "@@ -" + std::to_string(a_len ? ax[start] + 1 : ax[start]) + "," + std::to_string(a_len) +
           " +" + std::to_string(b_len ? bx[start] + 1 : bx[start]) + "," + std::to_string(b_len) +
           " @@\n";
    for (size_t k = start; k < end; ++k) {
      if (ops[k] == Op::kKeep) AppendLine(&out, ' ', a[ax[k]]);
      if (ops[k] == Op::kDelete) AppendLine(&out, '-', a[ax[k]]);
      if (ops[k] == Op::kInsert) AppendLine(&out, '+', b[bx[k]]);
    }
    i = end;
  }
  return out;
}

}  // namespace tvmls::server
