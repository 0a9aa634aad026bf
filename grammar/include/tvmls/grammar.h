// The TVMScript tree-sitter language (generated parser + external scanner).
#ifndef TVMLS_GRAMMAR_H_
#define TVMLS_GRAMMAR_H_

#include <tree_sitter/api.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The language object for ts_parser_set_language. Static storage; never freed.
const TSLanguage *tree_sitter_tvmscript(void);

#ifdef __cplusplus
}
#endif

#endif  // TVMLS_GRAMMAR_H_
