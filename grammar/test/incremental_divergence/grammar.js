// A toy grammar with no external scanner, to show that tree-sitter's incremental reparse can
// differ from a fresh parse once error recovery is involved (see run.sh and grammar/README.md,
// "Incremental parsing and syntax errors"). Not part of tvmls.
module.exports = grammar({
  name: 'toy',
  extras: $ => [/\s/],
  word: $ => $.identifier,
  rules: {
    module: $ => repeat($._statement),
    _statement: $ => choice($.expression_statement, $.return_statement, $.assignment),
    expression_statement: $ => seq($._expression, ';'),
    return_statement: $ => seq('return', optional($._expression), ';'),
    assignment: $ => seq($.identifier, '=', $._expression, ';'),
    _expression: $ => choice($.identifier, $.integer, $.string, $.call, $.list, $.set, $.tuple,
                             $.binary, $.comparison),
    call: $ => prec(10, seq($.identifier, '(', commaSep($._expression), ')')),
    list: $ => seq('[', commaSep($._expression), ']'),
    set: $ => seq('{', commaSep1($._expression), '}'),
    tuple: $ => seq('(', commaSep($._expression), ')'),
    binary: $ => prec.left(2, seq($._expression, choice('+', '/'), $._expression)),
    comparison: $ => prec.left(1, seq($._expression, 'in', $._expression)),
    string: $ => /"[^"\n]*"/,
    identifier: $ => /[a-z_]+/,
    integer: $ => /[0-9]+/,
  },
});

function commaSep1(rule) { return seq(rule, repeat(seq(',', rule)), optional(',')); }
function commaSep(rule) { return optional(commaSep1(rule)); }
