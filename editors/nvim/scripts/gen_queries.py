#!/usr/bin/env python3
"""Derive Neovim's tvmscript queries from grammar/queries/*.scm.

    python3 editors/nvim/scripts/gen_queries.py          # rewrite editors/nvim/queries/tvmscript/
    python3 editors/nvim/scripts/gen_queries.py --check  # exit 1 if the committed files differ

grammar/queries are written for first-match-wins hosts (tree-sitter-highlight: the EARLIEST
pattern that captures a node colours it). Neovim's highlighter lets the LAST matching pattern
win (same priority: the extmark set last is drawn on top), so highlights.scm is emitted with its
sections in reverse order and the patterns of each section reversed too. That is the exact
mirror: for any node, the pattern that came first before comes last now.

Other changes:
- `(#match? @c "^(a|b|c)$")` over plain words becomes `(#any-of? @c "a" "b" "c")` (a string
  set instead of a Vim regex per match). Other `#match?` regexes stay: Neovim runs them as Vim
  very-magic regexes, and the subset the grammar's queries use (anchors, groups, alternation,
  bracket classes, ? * +) means the same there.
- locals.scm: Neovim's (nvim-treesitter's) names `@local.definition.function|type|parameter|
  var|import`; `@local.definition-value` is dropped (no Neovim consumer knows it).
- folds.scm: copied; `@fold` is already Neovim's name, and order does not matter for folds.
Capture names in highlights.scm are already Neovim 0.10's standard names (@module,
@variable.parameter, @keyword.import, @function.method.call, @number.float, ...); the plugin maps
them to Vim's groups on 0.7-0.9 (lua/tvmls/treesitter.lua, LEGACY_GROUPS).
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NVIM = os.path.dirname(HERE)
GRAMMAR_QUERIES = os.path.join(NVIM, '..', '..', 'grammar', 'queries')
OUT = os.path.join(NVIM, 'queries', 'tvmscript')

BANNER = re.compile(r'^; =+\s*$')


def split_patterns(text):
    """Split a query file into (leading comment lines, pattern text) items, in order.

    Returns a list of items; an item is ('banner', title_lines) or ('pattern', comments, body).
    """
    items = []
    lines = text.split('\n')
    i = 0
    pending = []  # comment lines waiting for the pattern they describe
    body = ''
    depth = 0
    in_body = False

    def flush_body():
        nonlocal body, in_body, pending
        items.append(('pattern', pending, body.rstrip()))
        pending = []
        body = ''
        in_body = False

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not in_body:
            if BANNER.match(stripped):
                # ; ====== / ; Title / ; ======
                title = [line]
                j = i + 1
                while j < len(lines) and not BANNER.match(lines[j].strip()):
                    title.append(lines[j])
                    j += 1
                title.append(lines[j])
                if pending:
                    items.append(('comment', pending))
                    pending = []
                items.append(('banner', title))
                i = j + 1
                continue
            if stripped.startswith(';'):
                pending.append(line)
                i += 1
                continue
            if stripped == '':
                if pending:
                    pending.append(line)
                i += 1
                continue
            in_body = True
        # inside a pattern: track depth outside strings and comments
        body += line + '\n'
        k = 0
        in_str = False
        while k < len(line):
            c = line[k]
            if in_str:
                if c == '\\':
                    k += 2
                    continue
                if c == '"':
                    in_str = False
            else:
                if c == ';':
                    break
                if c == '"':
                    in_str = True
                elif c in '([':
                    depth += 1
                elif c in ')]':
                    depth -= 1
            k += 1
        i += 1
        if depth == 0:
            # a pattern ends when brackets balance and the next non-blank line does not
            # continue it with a capture (`] @operator` is on the same line already)
            nxt = lines[i].strip() if i < len(lines) else ''
            if not nxt.startswith('@'):
                flush_body()
    if pending:
        items.append(('comment', pending))
    return items


def trim_comment(lines):
    while lines and lines[-1].strip() == '':
        lines = lines[:-1]
    while lines and lines[0].strip() == '':
        lines = lines[1:]
    return lines


WORDS = re.compile(r'\(#match\? (@[\w.]+) "\^\(([A-Za-z0-9_|]+)\)\$"\)')


def any_of(body):
    def repl(m):
        words = m.group(2).split('|')
        return '(#any-of? %s %s)' % (m.group(1), ' '.join('"%s"' % w for w in words))
    return WORDS.sub(repl, body)


HEADER_HL = """; Neovim highlights for TVMScript (the `tvmscript` tree-sitter grammar).
;
; GENERATED by editors/nvim/scripts/gen_queries.py from grammar/queries/highlights.scm: edit
; that file and rerun the script. The grammar's file is written for first-match-wins hosts;
; Neovim lets the LAST matching pattern win, so the sections and the patterns in them are in
; reverse order here: general rules first (ending in the `(identifier) @variable` fallback at
; the top), TVMScript-specific ones last. Comments are the grammar's own, so "below"/"above"
; in them refer to the grammar's order. Predicates used: eq?, match?, any-of? (valid on
; Neovim 0.7.2 and newer). Capture names are Neovim 0.10's standard names; on 0.7-0.9 the
; tvmls plugin links them to Vim's highlight groups.
"""


def gen_highlights(text):
    items = split_patterns(text)
    # group into sections: the preamble (before the first banner) is dropped; each banner
    # starts a section
    sections = []
    current = None
    for it in items:
        if it[0] == 'banner':
            current = {'banner': it[1], 'items': []}
            sections.append(current)
        elif current is not None:
            current['items'].append(it)
    out = [HEADER_HL]
    for sec in reversed(sections):
        out.append('\n'.join(sec['banner']))
        out.append('')
        pats = [it for it in sec['items'] if it[0] == 'pattern']
        loose = [it for it in sec['items'] if it[0] == 'comment']
        for it in loose:  # section-level notes not attached to a pattern
            out.append('\n'.join(trim_comment(it[1])))
            out.append('')
        for it in reversed(pats):
            comments = trim_comment(it[1])
            if comments:
                out.append('\n'.join(comments))
            out.append(any_of(it[2]))
            out.append('')
    return '\n'.join(out).rstrip() + '\n'


HEADER_LOCALS = """; Neovim locals for TVMScript (the `tvmscript` grammar), in nvim-treesitter's capture names.
;
; GENERATED by editors/nvim/scripts/gen_queries.py from grammar/queries/locals.scm: edit that
; file and rerun the script. Renamed: `@local.definition` -> `@local.definition.function`,
; `.type`, `.parameter`, `.import` or `.var` by section; `@local.definition-value` dropped.
; Neovim itself does not read locals; plugins such as nvim-treesitter's refactor modules do.

"""


def gen_locals(text):
    out = []
    section = ''
    for line in text.split('\n'):
        m = re.match(r'^; (Definitions: [\w ,]+|References|Scopes)\s*$', line)
        if m:
            section = m.group(1)
        if '@local.definition' in line:
            line = re.sub(r'\s*@local\.definition-value', '', line)
            if 'functions and classes' in section:
                kind = 'type' if 'class_definition' in line else 'function'
            elif 'parameters' in section:
                kind = 'parameter'
            elif 'imports' in section:
                kind = 'import'
            else:
                kind = 'var'
            line = re.sub(r'@local\.definition\b(?![.-])', '@local.definition.' + kind, line)
        out.append(line)
    body = '\n'.join(out)
    # drop the grammar file's own header comment (up to the first blank line)
    body = body.split('\n\n', 1)[1] if body.startswith(';') else body
    # a pattern whose only capture was -value may now end in `right: (_))`: fine, still valid
    return HEADER_LOCALS + any_of(body).lstrip('\n')


HEADER_FOLDS = """; Neovim folds for TVMScript. GENERATED by editors/nvim/scripts/gen_queries.py from
; grammar/queries/folds.scm (a copy: `@fold` is Neovim's name and order does not matter).

"""


def gen_folds(text):
    body = text.split('\n\n', 1)[1] if text.startswith(';') else text
    return HEADER_FOLDS + body.lstrip('\n')


def main():
    check = '--check' in sys.argv
    results = {}
    for name, gen in (('highlights', gen_highlights), ('locals', gen_locals),
                      ('folds', gen_folds)):
        with open(os.path.join(GRAMMAR_QUERIES, name + '.scm'), encoding='utf-8') as f:
            results[name] = gen(f.read())
    bad = False
    for name, text in results.items():
        path = os.path.join(OUT, name + '.scm')
        if check:
            try:
                with open(path, encoding='utf-8') as f:
                    if f.read() != text:
                        print('%s is out of date: run %s' % (path, sys.argv[0]))
                        bad = True
            except FileNotFoundError:
                print('%s is missing' % path)
                bad = True
        else:
            os.makedirs(OUT, exist_ok=True)
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
