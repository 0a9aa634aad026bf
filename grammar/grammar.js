/**
 * @file TVMScript grammar for tree-sitter.
 *
 * TVMScript is Python syntax: Relax and TIR functions are Python classes and functions whose
 * meaning comes from the `R.` / `T.` / `I.` namespaces. Files that embed it (TVM's own tests,
 * user scripts) are ordinary Python 3, so this grammar reads the whole Python 3 statement and
 * expression language. The tree carries no TVM semantics: `R.call_tir(...)` is a `call` like any
 * other, and the analysis layer recognises TVM constructs while lowering.
 *
 * Design notes (see grammar/README.md for more):
 * - Layout (NEWLINE / INDENT / DEDENT) and string delimiters come from the external scanner in
 *   src/scanner.c; everything else is lexed by tree-sitter.
 * - Assignment targets are parsed as expressions (as CPython's parser does before it validates
 *   targets), which keeps the grammar free of pattern-vs-expression ambiguities: fewer GLR stack
 *   splits means more subtrees that incremental reparsing can reuse.
 * - Statement sequences (module, block) are split into chunks; see `module` below.
 *
 * @license Apache-2.0
 * @see https://docs.python.org/3/reference/grammar.html
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

// Operator precedence, lowest first. Mirrors the table in the Python language reference
// ("Operator precedence"); lambda and the conditional expression bind loosest.
const PREC = {
  lambda: -2,
  conditional: -1,
  parenthesized: 1,
  or: 10,
  and: 11,
  not: 12,
  compare: 13,
  bitwise_or: 14,
  bitwise_xor: 15,
  bitwise_and: 16,
  shift: 17,
  plus: 18,
  times: 19,
  unary: 20,
  power: 21,
  call: 22,
};

// Binary operators: [precedence, operator token, associativity].
const BINARY_OPERATORS = [
  [PREC.plus, '+', 'left'],
  [PREC.plus, '-', 'left'],
  [PREC.times, '*', 'left'],
  [PREC.times, '@', 'left'],
  [PREC.times, '/', 'left'],
  [PREC.times, '%', 'left'],
  [PREC.times, '//', 'left'],
  [PREC.power, '**', 'right'],
  [PREC.bitwise_or, '|', 'left'],
  [PREC.bitwise_and, '&', 'left'],
  [PREC.bitwise_xor, '^', 'left'],
  [PREC.shift, '<<', 'left'],
  [PREC.shift, '>>', 'left'],
];

const COMPARISON_OPERATORS = ['<', '<=', '==', '!=', '>=', '>', '<>', 'in', 'is'];

const AUGMENTED_ASSIGNMENT_OPERATORS = [
  '+=', '-=', '*=', '/=', '@=', '//=', '%=', '**=', '>>=', '<<=', '&=', '^=', '|=',
];

const DIGITS = /[0-9]+(_[0-9]+)*/;
const EXPONENT = /[eE][+-]?[0-9]+(_[0-9]+)*/;

module.exports = grammar({
  name: 'tvmscript',

  extras: $ => [
    $.comment,
    /[\s\f\uFEFF\u2060\u200B]/,
    $.line_continuation,
  ],

  // Keep this list short: every conflict splits the parse stack, and nodes built while it is
  // split cannot be reused by incremental reparsing.
  conflicts: $ => [
    // `match` is a soft keyword: `match (x):` starts a match statement, `match(x)` is a call.
    // Python decides after the whole line; so does the GLR parser, only on lines starting with
    // `match` (nodes built while the stack is split are not reused by incremental reparsing).
    [$._keyword_identifier, $.match_statement],
  ],

  supertypes: $ => [
    $._simple_statement,
    $._compound_statement,
    $.parameter,
  ],

  // Order matters: src/scanner.c has the same list in `enum TokenType`.
  externals: $ => [
    $._newline,
    $._indent,
    $._dedent,
    $.string_start,
    $.string_content,
    $.string_end,
    // Brackets are lexed by the scanner, which keeps the bracket depth in its state: inside
    // brackets a line break is whitespace, outside it ends a logical line.
    '(',
    ')',
    '[',
    ']',
    '{',
    '}',
    // Zero-width statement-list boundaries (see `_statements`).
    $._boundary1,
    $._boundary2,
    $._boundary3,
    // Comments are lexed by the generated lexer; listing them here makes the scanner run in
    // every parse state (extras are valid everywhere), so it sees every line end.
    $.comment,
    // A probe, never produced: valid exactly where a statement may start. A line end where it
    // is not valid, outside brackets, breaks a statement (`lv = R.` then Enter), and the scanner
    // says so with a NEWLINE the parser does not expect, instead of joining the lines.
    $._statement_start,
  ],

  inline: $ => [
    $.expression,
    $.primary_expression,
    $._simple_statement,
    $._compound_statement,
    $._suite,
    $._expressions,
    $._collection_element,
    $._comprehension_clauses,
  ],

  word: $ => $.identifier,

  rules: {
    module: $ => optional($._statements),

    // Statement lists (module and block bodies) and incremental reparsing.
    //
    // Tree-sitter builds a `repeat` from nodes whose parse-table entry has two actions
    // (reduce, shift-repeat); the 0.20 runtime marks such nodes fragile and never reuses them,
    // so a flat list of N statements costs O(N) shifts on every reparse. Instead a statement
    // list is a left-recursive chain, cut into levels by zero-width boundary tokens that the
    // scanner places before about one statement in 16 (level 1), 256 (level 2) and 4096
    // (level 3), chosen by a hash of that statement's first line(s): content-defined, so an
    // edit moves only the boundaries next to it. Every chain node is unambiguous and reusable,
    // and an edit reparses O(chain lengths) nodes, about 16 per level, whatever the file size.
    // Left recursion reduces as it goes, so the parse stack stays shallow however long a chain
    // is (the 0.20 runtime corrupts memory when an error meets a stack 65k entries deep).
    // The chain nodes are hidden: the tree a client sees is a flat list of statements.
    _statements: $ => choice($._chain2, seq($._statements, $._boundary3, $._chain2)),
    _chain2: $ => choice($._chain1, seq($._chain2, $._boundary2, $._chain1)),
    _chain1: $ => choice($._chain0, seq($._chain1, $._boundary1, $._chain0)),
    _chain0: $ => choice($._statement, seq($._chain0, $._statement)),

    _statement: $ => seq(
      optional($._statement_start),
      choice($._simple_statements, $._compound_statement),
    ),

    // ---------------------------------------------------------------------------------------
    // Simple statements
    // ---------------------------------------------------------------------------------------

    _simple_statements: $ => seq(
      $._simple_statement,
      repeat(seq(';', $._simple_statement)),
      optional(';'),
      $._newline,
    ),

    _simple_statement: $ => choice(
      $.expression_statement,
      $.assignment,
      $.augmented_assignment,
      $.import_statement,
      $.import_from_statement,
      $.return_statement,
      $.pass_statement,
      $.break_statement,
      $.continue_statement,
      $.delete_statement,
      $.raise_statement,
      $.assert_statement,
      $.global_statement,
      $.nonlocal_statement,
    ),

    expression_statement: $ => choice($._expressions, $.yield),

    // Targets are expressions; the analysis layer decides what a valid target is.
    // `a = b = c` nests: the right side of the outer assignment is the inner one.
    assignment: $ => seq(
      field('left', $._expressions),
      choice(
        seq('=', field('right', $._right_hand_side)),
        seq(':', field('annotation', $.expression)),
        seq(':', field('annotation', $.expression), '=', field('right', $._right_hand_side)),
      ),
    ),

    augmented_assignment: $ => seq(
      field('left', $._expressions),
      field('operator', choice(...AUGMENTED_ASSIGNMENT_OPERATORS)),
      field('right', $._right_hand_side),
    ),

    _right_hand_side: $ => choice(
      $._expressions,
      $.assignment,
      $.augmented_assignment,
      $.yield,
    ),

    import_statement: $ => seq('import', $._import_list),

    import_from_statement: $ => seq(
      'from',
      field('module_name', choice($.relative_import, $.dotted_name)),
      'import',
      choice(
        $.wildcard_import,
        $._import_list,
        seq('(', $._import_list, ')'),
      ),
    ),

    _import_list: $ => seq(
      commaSep1(field('name', choice($.dotted_name, $.aliased_import))),
      optional(','),
    ),

    relative_import: $ => seq($.import_prefix, optional($.dotted_name)),
    import_prefix: _ => repeat1('.'),
    wildcard_import: _ => '*',

    aliased_import: $ => seq(
      field('name', $.dotted_name),
      'as',
      field('alias', $.identifier),
    ),

    dotted_name: $ => prec(1, sep1($.identifier, '.')),

    return_statement: $ => seq('return', optional(field('value', $._expressions))),
    pass_statement: _ => 'pass',
    break_statement: _ => 'break',
    continue_statement: _ => 'continue',
    delete_statement: $ => seq('del', field('target', $._expressions)),

    raise_statement: $ => seq(
      'raise',
      optional(field('value', $._expressions)),
      optional(seq('from', field('cause', $.expression))),
    ),

    assert_statement: $ => seq(
      'assert',
      field('condition', $.expression),
      optional(seq(',', field('message', $.expression))),
    ),

    global_statement: $ => seq('global', commaSep1($.identifier)),
    nonlocal_statement: $ => seq('nonlocal', commaSep1($.identifier)),

    // ---------------------------------------------------------------------------------------
    // Compound statements
    // ---------------------------------------------------------------------------------------

    _compound_statement: $ => choice(
      $.if_statement,
      $.for_statement,
      $.while_statement,
      $.try_statement,
      $.with_statement,
      $.function_definition,
      $.class_definition,
      $.decorated_definition,
      $.match_statement,
    ),

    if_statement: $ => seq(
      'if',
      field('condition', $.expression),
      ':',
      field('consequence', $._suite),
      repeat(field('alternative', $.elif_clause)),
      optional(field('alternative', $.else_clause)),
    ),

    elif_clause: $ => seq(
      'elif',
      field('condition', $.expression),
      ':',
      field('consequence', $._suite),
    ),

    else_clause: $ => seq('else', ':', field('body', $._suite)),

    for_statement: $ => seq(
      optional('async'),
      'for',
      field('left', $._targets),
      'in',
      field('right', $._expressions),
      ':',
      field('body', $._suite),
      optional(field('alternative', $.else_clause)),
    ),

    while_statement: $ => seq(
      'while',
      field('condition', $.expression),
      ':',
      field('body', $._suite),
      optional(field('alternative', $.else_clause)),
    ),

    try_statement: $ => seq(
      'try',
      ':',
      field('body', $._suite),
      choice(
        seq(
          repeat1($.except_clause),
          optional($.else_clause),
          optional($.finally_clause),
        ),
        $.finally_clause,
      ),
    ),

    except_clause: $ => seq(
      'except',
      optional('*'),
      optional(seq(
        field('value', $.expression),
        optional(seq(choice('as', ','), field('alias', $.expression))),
      )),
      ':',
      field('body', $._suite),
    ),

    finally_clause: $ => seq('finally', ':', field('body', $._suite)),

    with_statement: $ => seq(
      optional('async'),
      'with',
      field('items', $.with_clause),
      ':',
      field('body', $._suite),
    ),

    // Parentheses may group with-items (Python 3.10+): `with (a as b, c):`. A group may be
    // followed by more items, `with (a), b:`, so groups are elements, not the whole clause.
    with_clause: $ => seq(
      $._with_group,
      repeat(seq(',', $._with_group)),
      optional(','),
    ),

    _with_group: $ => choice(
      $.with_item,
      seq('(', commaSep1($.with_item), optional(','), ')'),
    ),

    // Inside `with (...)` the parentheses group with-items rather than make a tuple.
    with_item: $ => prec(2, seq(
      field('value', $.expression),
      optional(seq('as', field('alias', $.expression))),
    )),

    function_definition: $ => seq(
      optional('async'),
      'def',
      field('name', $.identifier),
      optional(field('type_parameters', $.type_parameters)),
      field('parameters', $.parameters),
      optional(seq('->', field('return_type', $.expression))),
      ':',
      field('body', $._suite),
    ),

    class_definition: $ => seq(
      'class',
      field('name', $.identifier),
      optional(field('type_parameters', $.type_parameters)),
      optional(field('superclasses', $.argument_list)),
      ':',
      field('body', $._suite),
    ),

    // PEP 695 / 696: `def f[T, *Ts, **P, U: int = str](...)`.
    type_parameters: $ => seq('[', commaSep1($.type_parameter), optional(','), ']'),

    type_parameter: $ => seq(
      optional(choice('*', '**')),
      field('name', $.identifier),
      optional(seq(':', field('bound', $.expression))),
      optional(seq('=', field('default', $.expression))),
    ),

    decorated_definition: $ => seq(
      repeat1($.decorator),
      field('definition', choice($.class_definition, $.function_definition)),
    ),

    decorator: $ => seq('@', field('value', $.expression), $._newline),

    // `match` is a soft keyword (PEP 634).
    match_statement: $ => seq(
      'match',
      field('subject', commaSep1($.expression)),
      optional(','),
      ':',
      field('body', alias($._match_block, $.block)),
    ),

    _match_block: $ => choice(
      seq($._indent, repeat($.case_clause), $._dedent),
      $._newline,
    ),

    case_clause: $ => seq(
      'case',
      commaSep1(field('pattern', $.case_pattern)),
      optional(','),
      optional(field('guard', $.if_clause)),
      ':',
      field('consequence', $._suite),
    ),

    // A suite is an indented block, or simple statements on the header line.
    _suite: $ => choice(
      alias($._simple_statements, $.block),
      seq($._indent, $.block),
      alias($._newline, $.block),
    ),

    block: $ => seq(optional($._statements), $._dedent),

    // ---------------------------------------------------------------------------------------
    // Parameters
    // ---------------------------------------------------------------------------------------

    parameters: $ => seq('(', optional($._parameters), ')'),

    lambda_parameters: $ => $._lambda_parameters,

    _parameters: $ => seq(commaSep1($.parameter), optional(',')),

    _lambda_parameters: $ => seq(
      commaSep1(choice(
        $.identifier,
        $.default_parameter,
        $.list_splat_pattern,
        $.dictionary_splat_pattern,
        $.keyword_separator,
        $.positional_separator,
      )),
      optional(','),
    ),

    parameter: $ => choice(
      $.identifier,
      $.typed_parameter,
      $.default_parameter,
      $.typed_default_parameter,
      $.list_splat_pattern,
      $.dictionary_splat_pattern,
      $.keyword_separator,
      $.positional_separator,
    ),

    typed_parameter: $ => seq(
      field('name', choice($.identifier, $.list_splat_pattern, $.dictionary_splat_pattern)),
      ':',
      field('annotation', $.expression),
    ),

    default_parameter: $ => seq(
      field('name', $.identifier),
      '=',
      field('value', $.expression),
    ),

    typed_default_parameter: $ => seq(
      field('name', $.identifier),
      ':',
      field('annotation', $.expression),
      '=',
      field('value', $.expression),
    ),

    list_splat_pattern: $ => seq('*', field('name', $.identifier)),
    dictionary_splat_pattern: $ => seq('**', field('name', $.identifier)),
    keyword_separator: _ => '*',
    positional_separator: _ => '/',

    // ---------------------------------------------------------------------------------------
    // Expressions
    // ---------------------------------------------------------------------------------------

    _expressions: $ => choice($.expression, $.expression_list),

    expression_list: $ => prec.right(seq(
      $._collection_element,
      choice(
        ',',
        seq(repeat1(seq(',', $._collection_element)), optional(',')),
      ),
    )),

    // For-loop and comprehension targets: no comparison may appear, so `in` ends the target.
    _targets: $ => choice(
      $._target,
      alias($._target_list, $.expression_list),
    ),

    _target: $ => choice($.primary_expression, alias($._target_splat, $.list_splat)),
    _target_splat: $ => seq('*', $.primary_expression),
    _target_list: $ => prec.right(seq(
      $._target,
      choice(',', seq(repeat1(seq(',', $._target)), optional(','))),
    )),

    expression: $ => choice(
      $.primary_expression,
      $.comparison_operator,
      $.not_operator,
      $.boolean_operator,
      $.conditional_expression,
      $.named_expression,
      $.lambda,
    ),

    // The operands of `for ... in` inside comprehensions (Python's `or_test`).
    _or_test: $ => prec(1, choice(
      $.primary_expression,
      $.comparison_operator,
      $.not_operator,
      $.boolean_operator,
    )),

    primary_expression: $ => choice(
      $.identifier,
      alias($._keyword_identifier, $.identifier),
      $.string,
      $.concatenated_string,
      $.integer,
      $.float,
      $.true,
      $.false,
      $.none,
      $.ellipsis,
      $.unary_operator,
      $.binary_operator,
      $.attribute,
      $.subscript,
      $.call,
      $.list,
      $.list_comprehension,
      $.dictionary,
      $.dictionary_comprehension,
      $.set,
      $.set_comprehension,
      $.tuple,
      $.parenthesized_expression,
      $.generator_expression,
      $.await,
    ),

    // Soft keywords used as plain names (`match = re.match(...)`).
    _keyword_identifier: _ => 'match',

    binary_operator: $ => choice(...BINARY_OPERATORS.map(([precedence, operator, assoc]) => {
      const rule = seq(
        field('left', $.primary_expression),
        field('operator', operator),
        field('right', $.primary_expression),
      );
      return assoc === 'right' ? prec.right(precedence, rule) : prec.left(precedence, rule);
    })),

    unary_operator: $ => prec(PREC.unary, seq(
      field('operator', choice('+', '-', '~')),
      field('argument', $.primary_expression),
    )),

    not_operator: $ => prec(PREC.not, seq('not', field('argument', $.expression))),

    boolean_operator: $ => choice(
      prec.left(PREC.and, seq(
        field('left', $.expression),
        field('operator', 'and'),
        field('right', $.expression),
      )),
      prec.left(PREC.or, seq(
        field('left', $.expression),
        field('operator', 'or'),
        field('right', $.expression),
      )),
    ),

    // `0 <= i < n`: one node with every operand and operator, as Python's Compare.
    comparison_operator: $ => prec.left(PREC.compare, seq(
      $.primary_expression,
      repeat1(seq(
        field('operators', choice(
          ...COMPARISON_OPERATORS,
          alias(seq('not', 'in'), 'not in'),
          alias(seq('is', 'not'), 'is not'),
        )),
        $.primary_expression,
      )),
    )),

    conditional_expression: $ => prec.right(PREC.conditional, seq(
      field('consequence', $.expression),
      'if',
      field('condition', $.expression),
      'else',
      field('alternative', $.expression),
    )),

    named_expression: $ => seq(
      field('name', $.identifier),
      ':=',
      field('value', $.expression),
    ),

    lambda: $ => prec(PREC.lambda, seq(
      'lambda',
      optional(field('parameters', $.lambda_parameters)),
      ':',
      field('body', $.expression),
    )),

    await: $ => prec(PREC.unary, seq('await', $.primary_expression)),

    yield: $ => prec.right(seq(
      'yield',
      optional(choice(
        seq('from', field('value', $.expression)),
        field('value', $._expressions),
      )),
    )),

    attribute: $ => prec(PREC.call, seq(
      field('object', $.primary_expression),
      '.',
      field('attribute', $.identifier),
    )),

    subscript: $ => prec(PREC.call, seq(
      field('value', $.primary_expression),
      '[',
      commaSep1(field('subscript', choice($.expression, $.slice, $.list_splat))),
      optional(','),
      ']',
    )),

    slice: $ => seq(
      optional(field('start', $.expression)),
      ':',
      optional(field('stop', $.expression)),
      optional(seq(':', optional(field('step', $.expression)))),
    ),

    call: $ => prec(PREC.call, seq(
      field('function', $.primary_expression),
      field('arguments', choice($.generator_expression, $.argument_list)),
    )),

    argument_list: $ => seq(
      '(',
      optional(commaSep1(choice(
        $.expression,
        $.list_splat,
        $.dictionary_splat,
        $.keyword_argument,
      ))),
      optional(','),
      ')',
    ),

    keyword_argument: $ => seq(
      field('name', choice($.identifier, alias($._keyword_identifier, $.identifier))),
      '=',
      field('value', $.expression),
    ),

    list_splat: $ => seq('*', $.expression),
    dictionary_splat: $ => seq('**', $.expression),

    _collection_element: $ => choice($.expression, $.list_splat, $.yield),

    parenthesized_expression: $ => prec(PREC.parenthesized, seq(
      '(',
      choice($.expression, $.yield),
      ')',
    )),

    tuple: $ => seq(
      '(',
      optional(choice(
        seq($._collection_element, ','),
        seq(
          $._collection_element,
          repeat1(seq(',', $._collection_element)),
          optional(','),
        ),
      )),
      ')',
    ),

    list: $ => seq(
      '[',
      optional(seq(commaSep1($._collection_element), optional(','))),
      ']',
    ),

    set: $ => seq('{', commaSep1($._collection_element), optional(','), '}'),

    dictionary: $ => seq(
      '{',
      optional(seq(commaSep1(choice($.pair, $.dictionary_splat)), optional(','))),
      '}',
    ),

    pair: $ => seq(field('key', $.expression), ':', field('value', $.expression)),

    list_comprehension: $ => seq(
      '[', field('body', $.expression), $._comprehension_clauses, ']',
    ),

    set_comprehension: $ => seq(
      '{', field('body', $.expression), $._comprehension_clauses, '}',
    ),

    dictionary_comprehension: $ => seq(
      '{', field('body', $.pair), $._comprehension_clauses, '}',
    ),

    generator_expression: $ => seq(
      '(', field('body', $.expression), $._comprehension_clauses, ')',
    ),

    _comprehension_clauses: $ => seq(
      $.for_in_clause,
      repeat(choice($.for_in_clause, $.if_clause)),
    ),

    for_in_clause: $ => prec.left(seq(
      optional('async'),
      'for',
      field('left', $._targets),
      'in',
      field('right', $._or_test),
    )),

    if_clause: $ => prec(1, seq('if', $._or_test)),

    // ---------------------------------------------------------------------------------------
    // Case patterns (PEP 634), kept shallow: the analysis never reads them.
    // ---------------------------------------------------------------------------------------

    case_pattern: $ => choice(
      $._closed_pattern,
      $.union_pattern,
      $.as_pattern,
      $.splat_pattern,
    ),

    _closed_pattern: $ => choice(
      $.identifier,
      alias($._dotted_pattern_name, $.dotted_name),
      $.string,
      $.concatenated_string,
      $.integer,
      $.float,
      $.signed_number,
      $.complex_pattern,
      $.true,
      $.false,
      $.none,
      $.class_pattern,
      $.group_pattern,
      $.sequence_pattern,
      $.mapping_pattern,
    ),

    // A value pattern names something with a dot (`Color.RED`); a bare name captures.
    _dotted_pattern_name: $ => seq($.identifier, repeat1(seq('.', $.identifier))),

    signed_number: $ => seq('-', choice($.integer, $.float)),

    complex_pattern: $ => seq(
      optional('-'),
      choice($.integer, $.float),
      choice('+', '-'),
      choice($.integer, $.float),
    ),

    union_pattern: $ => prec.left(seq($._closed_pattern, repeat1(seq('|', $._closed_pattern)))),

    as_pattern: $ => seq(
      choice($._closed_pattern, $.union_pattern),
      'as',
      field('alias', $.identifier),
    ),

    splat_pattern: $ => seq(choice('*', '**'), $.identifier),

    group_pattern: $ => seq('(', $.case_pattern, ')'),

    sequence_pattern: $ => choice(
      seq('[', optional(seq(commaSep1($.case_pattern), optional(','))), ']'),
      seq('(', optional(seq($.case_pattern, ',', optional(seq(commaSep1($.case_pattern), optional(','))))), ')'),
    ),

    mapping_pattern: $ => seq(
      '{',
      optional(seq(
        commaSep1(choice(
          seq(field('key', $._closed_pattern), ':', field('value', $.case_pattern)),
          $.splat_pattern,
        )),
        optional(','),
      )),
      '}',
    ),

    class_pattern: $ => seq(
      field('class', choice($.identifier, alias($._dotted_pattern_name, $.dotted_name))),
      '(',
      optional(seq(commaSep1(choice($.case_pattern, $.keyword_pattern)), optional(','))),
      ')',
    ),

    keyword_pattern: $ => seq(field('name', $.identifier), '=', field('value', $.case_pattern)),

    // ---------------------------------------------------------------------------------------
    // Literals and tokens
    // ---------------------------------------------------------------------------------------

    // Adjacent string literals concatenate: "a" "b".
    concatenated_string: $ => seq($.string, repeat1($.string)),

    // string_start carries the prefix and the quotes (`rb'''`); the scanner tracks which
    // delimiter is open, so `string_content` stops exactly at the matching end or at an
    // f-string interpolation.
    string: $ => seq(
      $.string_start,
      repeat(choice($.interpolation, $.string_content)),
      $.string_end,
    ),

    interpolation: $ => seq(
      '{',
      field('expression', choice($._expressions, $.yield)),
      optional('='),
      optional(field('type_conversion', $.type_conversion)),
      optional(field('format_specifier', $.format_specifier)),
      '}',
    ),

    type_conversion: _ => /![a-z]/,

    format_specifier: $ => seq(
      ':',
      repeat(choice(
        token(prec(1, /[^{}\n]+/)),
        alias($._nested_interpolation, $.interpolation),
      )),
    ),

    _nested_interpolation: $ => seq('{', field('expression', $._expressions), '}'),

    integer: _ => token(choice(
      seq(choice('0x', '0X'), /_?[0-9a-fA-F]+/, repeat(/_[0-9a-fA-F]+/)),
      seq(choice('0o', '0O'), /_?[0-7]+/, repeat(/_[0-7]+/)),
      seq(choice('0b', '0B'), /_?[01]+/, repeat(/_[01]+/)),
      seq(DIGITS, optional(/[jJ]/)),
    )),

    float: _ => token(seq(
      choice(
        seq(DIGITS, '.', optional(DIGITS), optional(EXPONENT)),
        seq('.', DIGITS, optional(EXPONENT)),
        seq(DIGITS, EXPONENT),
      ),
      optional(/[jJ]/),
    )),

    identifier: _ => /[_\p{XID_Start}][_\p{XID_Continue}]*/,

    true: _ => 'True',
    false: _ => 'False',
    none: _ => 'None',
    ellipsis: _ => '...',

    comment: _ => token(seq('#', /[^\r\n]*/)),

    line_continuation: _ => token(seq('\\', choice(seq(optional('\r'), '\n'), '\0'))),
  },
});

/**
 * One or more `rule`s separated by commas.
 * @param {RuleOrLiteral} rule
 * @returns {SeqRule}
 */
function commaSep1(rule) {
  return sep1(rule, ',');
}

/**
 * One or more `rule`s separated by `separator`.
 * @param {RuleOrLiteral} rule
 * @param {RuleOrLiteral} separator
 * @returns {SeqRule}
 */
function sep1(rule, separator) {
  return seq(rule, repeat(seq(separator, rule)));
}

module.exports.PREC = PREC;
