// tvmls_language(): the generated language with every parse state's row of the parse table dense.
//
// `tree-sitter generate` stores the 156 states with the most actions as dense rows and the
// others (2,600 of 2,800) as lists of (value, symbols) groups, which the 0.20 runtime searches
// one entry at a time on every lookup (ts_language_lookup in its language.h). Error recovery looks
// up every token in every state it tries (ts_parser__do_all_potential_reductions, the missing-token
// search of ts_parser__handle_error): replaying the incremental fuzz target's inputs (mostly broken
// text, what an editor sees while a line is typed) spent a fifth of all its time, some 40 % of its
// parse time, in those searches (bench/README.md). The runtime reads
// a state as a dense row when its number is below large_state_count; this copy of the language
// has every row dense (state count x symbol count x 2 bytes: about 1.4 MB) and nothing else
// changed, so lookups give the same values and parses the same trees
// (tests/grammar/dense_language_test.cc).
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tree_sitter/parser.h"
#include "tvmls/grammar.h"

static TSLanguage dense_language;
static pthread_once_t dense_once = PTHREAD_ONCE_INIT;

// Writes the small state `state`'s groups into its dense row `row` (symbol -> value). A symbol
// listed twice keeps its first value, as the runtime's search returns the first match.
static void fill_small_row(const TSLanguage *language, uint32_t state, uint16_t *row) {
  const uint16_t *data =
      &language->small_parse_table[language->small_parse_table_map[state - language->large_state_count]];
  uint16_t group_count = *data++;
  for (uint16_t g = 0; g < group_count; g++) {
    uint16_t value = *data++;
    uint16_t symbol_count = *data++;
    for (uint16_t i = 0; i < symbol_count; i++) {
      uint16_t symbol = *data++;
      if (symbol < language->symbol_count && row[symbol] == 0) row[symbol] = value;
    }
  }
}

static void build_dense_language(void) {
  const TSLanguage *language = tree_sitter_tvmscript();
  dense_language = *language;
  size_t row_size = language->symbol_count;
  uint16_t *table = calloc((size_t)language->state_count * row_size, sizeof(uint16_t));
  if (table == NULL) return;  // out of memory: the generated layout, searched as before
  memcpy(table, language->parse_table, (size_t)language->large_state_count * row_size * sizeof(uint16_t));
  for (uint32_t state = language->large_state_count; state < language->state_count; state++) {
    fill_small_row(language, state, &table[state * row_size]);
  }
  dense_language.parse_table = table;  // static storage: never freed
  dense_language.large_state_count = language->state_count;
}

const TSLanguage *tvmls_language(void) {
  pthread_once(&dense_once, build_dense_language);
  return &dense_language;
}
