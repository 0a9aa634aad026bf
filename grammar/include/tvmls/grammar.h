// The TVMScript tree-sitter language (generated parser + external scanner).
#ifndef TVMLS_GRAMMAR_H_
#define TVMLS_GRAMMAR_H_

#include <tree_sitter/api.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The language object for ts_parser_set_language. Static storage; never freed.
const TSLanguage *tree_sitter_tvmscript(void);

/// The same language with every parse state's row of the parse table dense
/// (src/dense_language.c): the same trees, faster lookups where the parser recovers from errors.
/// What tvmls parses with. Built on the first call (thread-safe, about 1.4 MB); never freed.
const TSLanguage *tvmls_language(void);

#ifdef __cplusplus
}
#endif

#endif  // TVMLS_GRAMMAR_H_
