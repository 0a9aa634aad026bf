// check TEXT: parses TEXT with the toy grammar, applies a zero-length edit at offset 0, reparses
// the unchanged text with the old tree, and prints both trees. Exits 1 when they differ.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_toy(void);

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: check TEXT\n");
    return 2;
  }
  const char *text = argv[1];
  uint32_t length = (uint32_t)strlen(text);
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_toy());

  TSTree *fresh = ts_parser_parse_string(parser, NULL, text, length);
  TSTree *old = ts_tree_copy(fresh);
  TSInputEdit nothing = {0, 0, 0, {0, 0}, {0, 0}, {0, 0}};
  ts_tree_edit(old, &nothing);
  TSTree *reparsed = ts_parser_parse_string(parser, old, text, length);

  char *a = ts_node_string(ts_tree_root_node(fresh));
  char *b = ts_node_string(ts_tree_root_node(reparsed));
  printf("text:     %s\nfresh:    %s\nreparsed: %s\n", text, a, b);
  int differ = strcmp(a, b) != 0;
  printf("%s\n", differ ? "DIFFERENT" : "same");
  free(a);
  free(b);
  ts_tree_delete(fresh);
  ts_tree_delete(old);
  ts_tree_delete(reparsed);
  ts_parser_delete(parser);
  return differ;
}
