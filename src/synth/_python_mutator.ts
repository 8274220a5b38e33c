/**
 * The Python mutator: a standard-library script that parses each source file with Python's own
 * `ast` module and lists single-point mutations as byte-range edits (operator and comparison swaps,
 * off-by-one constants, inverted conditions, dropped statements, swapped arguments, wrong
 * defaults). Each edit is kept only when the mutated file still parses and its AST differs from
 * the original; its `hash` is the SHA-1 of the mutated module's `ast.dump`, which ignores
 * formatting and comments, so two edits with the same hash are the same program.
 *
 * Input on stdin: `{"files": {path: source}}`; output on stdout: a JSON list of edits.
 */
export const PYTHON_MUTATOR: string = String
  .raw`import ast, difflib, hashlib, io, json, re, sys, tokenize

OPS = {
    ast.Add: ("+", "-"), ast.Sub: ("-", "+"), ast.Mult: ("*", "/"), ast.Div: ("/", "//"),
    ast.FloorDiv: ("//", "/"), ast.Mod: ("%", "//"), ast.Pow: ("**", "*"),
}
CMP = {
    ast.Lt: ("<", "<="), ast.LtE: ("<=", "<"), ast.Gt: (">", ">="), ast.GtE: (">=", ">"),
    ast.Eq: ("==", "!="), ast.NotEq: ("!=", "=="), ast.In: ("in", "not in"),
    ast.NotIn: ("not in", "in"), ast.Is: ("is", "is not"), ast.IsNot: ("is not", "is"),
}
TOKEN = {
    "+": r"(?<![+*/%<>=!-])\+(?![+=])", "-": r"(?<![+*/%<>=!-])-(?![-=>])",
    "*": r"(?<!\*)\*(?![*=])", "/": r"(?<!/)/(?![/=])", "//": r"//(?!=)", "%": r"%(?!=)",
    "**": r"\*\*(?!=)", "<": r"(?<![<>=!])<(?![<=])", "<=": r"<=", ">": r"(?<![<>=!-])>(?![>=])",
    ">=": r"(?<!>)>=", "==": r"==", "!=": r"!=", "in": r"(?<![\w])(?<!not )in(?![\w])",
    "not in": r"\bnot\s+in\b", "is": r"\bis\b(?!\s+not\b)", "is not": r"\bis\s+not\b",
}

# The negation a person would write: no "not (...)" around a comparison.
NEGATED = {ast.Lt: ">=", ast.LtE: ">", ast.Gt: "<=", ast.GtE: "<", ast.Eq: "!=", ast.NotEq: "==",
           ast.In: "not in", ast.NotIn: "in", ast.Is: "is not", ast.IsNot: "is"}
# Calls whose result is the point: dropping one leaves plausible code that is wrong.
DROPPABLE_CALLS = {"sorted", "abs", "round", "int", "float", "str", "list", "tuple", "set",
                   "frozenset", "bool", "reversed"}
DROPPABLE_METHODS = {"strip", "lstrip", "rstrip", "lower", "upper", "casefold", "copy", "title",
                     "capitalize", "expanduser", "resolve", "normalize"}
# Names people mix up.
PAIRS = [("start", "end"), ("begin", "end"), ("min", "max"), ("low", "high"), ("lo", "hi"),
         ("left", "right"), ("first", "last"), ("old", "new"), ("src", "dst"), ("x", "y"),
         ("i", "j"), ("width", "height"), ("row", "col"), ("key", "value"), ("a", "b"),
         ("before", "after"), ("prev", "next"), ("head", "tail"), ("lower", "upper")]
# A comment beside a mutated line that states what the code means gives the bug away.
TELLING = re.compile(r"\d|<|>|=|\b(inclusive|exclusive|at least|at most|must|should|never|always|only|not|less|more|before|after|first|last)\b", re.I)


def similar(a, b):
    if a == b or len(a) < 1 or len(b) < 1:
        return False
    for p, q in PAIRS:
        for x, y in ((p, q), (q, p)):
            if a.replace(x, y, 1) == b and x in a:
                return True
    return len(a) >= 4 and len(b) >= 4 and difflib.SequenceMatcher(None, a, b).ratio() >= 0.75


def main():
    request = json.load(sys.stdin)
    out = []
    for path, text in request["files"].items():
        data = text.encode()
        try:
            tree = ast.parse(data)
        except SyntaxError:
            continue
        base_dump = ast.dump(tree)
        starts = [0]
        for line in data.split(b"\n"):
            starts.append(starts[-1] + len(line) + 1)

        def off(line, col):
            return starts[line - 1] + col

        def span(node):
            return off(node.lineno, node.col_offset), off(node.end_lineno, node.end_col_offset)

        comments = []
        try:
            for tok in tokenize.tokenize(io.BytesIO(data).readline):
                if tok.type == tokenize.COMMENT:
                    line_text = data[starts[tok.start[0] - 1]:starts[tok.start[0]]].decode()
                    at = starts[tok.start[0] - 1] + len(line_text[:tok.start[1]].encode())
                    comments.append((at, tok.string))
        except (tokenize.TokenError, SyntaxError, IndexError):
            comments = []

        def untell(start, end, replacement):
            """Drop comments on the mutated lines that state what the code should do."""
            first = data.rfind(b"\n", 0, start) + 1
            last = data.find(b"\n", end)
            last = len(data) if last < 0 else last
            edits = [(at, text) for at, text in comments
                     if first <= at < last and not (start <= at < end) and TELLING.search(text)]
            if not edits:
                return start, end, replacement
            head, tail = data[first:start].decode(), data[end:last].decode()
            lines = head + replacement + tail
            for at, text in sorted(edits, reverse=True):
                if at < start:
                    col = len(data[first:at].decode())
                else:
                    col = len(head) + len(replacement) + len(data[end:at].decode())
                lines = lines[:col].rstrip() + lines[col + len(text):]
            return first, last, lines

        def add(start, end, replacement, operator, node, before):
            start, end, replacement = untell(start, end, replacement)
            mutated = data[:start] + replacement.encode() + data[end:]
            try:
                dump = ast.dump(ast.parse(mutated))
            except SyntaxError:
                return
            if dump == base_dump:
                return
            out.append({
                "file": path, "start": start, "end": end, "replacement": replacement,
                "operator": operator, "line": node.lineno,
                "before": before, "after": replacement,
                "hash": hashlib.sha1(dump.encode()).hexdigest(),
            })

        def token_between(a_end, b_start, symbol):
            segment = data[a_end:b_start].decode()
            match = re.search(TOKEN[symbol], segment)
            if not match:
                return None
            prefix = len(segment[:match.start()].encode())
            return a_end + prefix, a_end + prefix + len(match.group(0).encode())

        docstrings = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                body = node.body
                if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                    docstrings.add(id(body[0]))

        for node in ast.walk(tree):
            if isinstance(node, ast.BinOp) and type(node.op) in OPS:
                before, after = OPS[type(node.op)]
                where = token_between(span(node.left)[1], span(node.right)[0], before)
                if where:
                    add(*where, after, "operator", node, before)
            elif isinstance(node, ast.AugAssign) and type(node.op) in OPS:
                before, after = OPS[type(node.op)]
                segment_start = span(node.target)[1]
                segment = data[segment_start:span(node.value)[0]].decode()
                index = segment.find(before + "=")
                if index >= 0:
                    start = segment_start + len(segment[:index].encode())
                    add(start, start + len(before) + 1, after + "=", "operator", node, before + "=")
            elif isinstance(node, ast.BoolOp):
                before, after = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
                segment_start = span(node.values[0])[1]
                segment = data[segment_start:span(node.values[1])[0]].decode()
                match = re.search(r"\b%s\b" % before, segment)
                if match:
                    start = segment_start + len(segment[:match.start()].encode())
                    add(start, start + len(before), after, "operator", node, before)
            elif isinstance(node, ast.Compare):
                left = node.left
                for op, right in zip(node.ops, node.comparators):
                    if type(op) in CMP:
                        before, after = CMP[type(op)]
                        where = token_between(span(left)[1], span(right)[0], before)
                        if where:
                            add(*where, after, "comparison", node, before)
                    left = right
            elif isinstance(node, ast.Constant) and type(node.value) is int and hasattr(node, "lineno"):
                start, end = span(node)
                for delta in (1, -1):
                    if node.value + delta >= 0:
                        add(start, end, str(node.value + delta), "off_by_one", node, str(node.value))
            elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
                test = node.test
                start, end = span(test)
                if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                    inner = span(test.operand)
                    add(start, end, data[inner[0]:inner[1]].decode(), "invert_condition", node, "not")
                elif isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in NEGATED:
                    before = CMP[type(test.ops[0])][0]
                    where = token_between(span(test.left)[1], span(test.comparators[0])[0], before)
                    if where:
                        add(*where, NEGATED[type(test.ops[0])], "invert_condition", node, before)
                elif isinstance(test, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
                    add(start, end, "not " + data[start:end].decode(), "invert_condition", node, "")
                if isinstance(test, ast.BoolOp) and len(test.values) >= 2:
                    # Remove one condition of an and/or.
                    for k in range(len(test.values)):
                        rest = [v for m, v in enumerate(test.values) if m != k]
                        word = " and " if isinstance(test.op, ast.And) else " or "
                        text = word.join(data[span(v)[0]:span(v)[1]].decode() for v in rest)
                        add(start, end, text, "remove_condition", node, "")
                if isinstance(node, ast.If) and not node.orelse and len(node.body) == 1 and \
                        isinstance(node.body[0], (ast.Return, ast.Raise, ast.Continue, ast.Break, ast.Assign, ast.AugAssign)) and \
                        data[starts[node.lineno - 1]:off(node.lineno, node.col_offset)].strip() == b"" and \
                        node.end_lineno < len(starts) - 1:
                    # A guard or a special case a person forgot: the whole if statement goes.
                    add(starts[node.lineno - 1], starts[node.end_lineno], "", "remove_branch", node, "")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" \
                    and node.args and not node.keywords:
                stop = node.args[0] if len(node.args) == 1 else node.args[1]
                if not isinstance(stop, ast.Constant):
                    s0, s1 = span(stop)
                    text = data[s0:s1].decode()
                    if isinstance(stop, ast.BinOp) and isinstance(stop.right, ast.Constant) and stop.right.value == 1 \
                            and isinstance(stop.op, (ast.Add, ast.Sub)):
                        l0, l1 = span(stop.left)
                        add(s0, s1, data[l0:l1].decode(), "loop_bound", node, text)
                    else:
                        add(s0, s1, text + " - 1", "loop_bound", node, text)
            elif isinstance(node, ast.Slice):
                for bound in (node.lower, node.upper):
                    if bound is not None and not isinstance(bound, ast.Constant) and not isinstance(bound, ast.UnaryOp):
                        s0, s1 = span(bound)
                        text = data[s0:s1].decode()
                        if isinstance(bound, ast.BinOp) and isinstance(bound.right, ast.Constant) \
                                and bound.right.value == 1 and isinstance(bound.op, (ast.Add, ast.Sub)):
                            l0, l1 = span(bound.left)
                            add(s0, s1, data[l0:l1].decode(), "loop_bound", node, text)
                        else:
                            add(s0, s1, text + " + 1", "loop_bound", node, text)
            if isinstance(node, ast.Call) and not node.keywords and hasattr(node, "lineno"):
                s0, s1 = span(node)
                if isinstance(node.func, ast.Name) and node.func.id in DROPPABLE_CALLS and len(node.args) == 1 \
                        and not isinstance(node.args[0], ast.Starred):
                    a0, a1 = span(node.args[0])
                    add(s0, s1, data[a0:a1].decode(), "drop_call", node, node.func.id)
                elif isinstance(node.func, ast.Attribute) and node.func.attr in DROPPABLE_METHODS and not node.args:
                    v0, v1 = span(node.func.value)
                    add(s0, s1, data[v0:v1].decode(), "drop_call", node, node.func.attr)
            if isinstance(node, ast.Call) and len(node.args) >= 2 and not any(
                isinstance(a, ast.Starred) for a in node.args[:2]
            ):
                a, b = span(node.args[0]), span(node.args[1])
                text_a, text_b = data[a[0]:a[1]].decode(), data[b[0]:b[1]].decode()
                if text_a != text_b:
                    middle = data[a[1]:b[0]].decode()
                    add(a[0], b[1], text_b + middle + text_a, "swap_arguments", node, "")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for default in node.args.defaults + [d for d in node.args.kw_defaults if d]:
                    if not isinstance(default, ast.Constant):
                        continue
                    start, end = span(default)
                    value = default.value
                    if type(value) is bool:
                        add(start, end, str(not value), "wrong_default", node, str(value))
                    elif type(value) is int:
                        add(start, end, str(value + 1), "wrong_default", node, str(value))
                    elif type(value) is str and value:
                        add(start, end, '""', "wrong_default", node, repr(value))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                local = {a.arg for a in node.args.args + node.args.kwonlyargs}
                for sub_node in ast.walk(node):
                    if isinstance(sub_node, ast.Name) and isinstance(sub_node.ctx, ast.Store):
                        local.add(sub_node.id)
                seen_names = set()
                for sub_node in ast.walk(node):
                    if not (isinstance(sub_node, ast.Name) and isinstance(sub_node.ctx, ast.Load)):
                        continue
                    if sub_node.id not in local or sub_node.id in seen_names:
                        continue
                    seen_names.add(sub_node.id)
                    for other in sorted(local):
                        if similar(sub_node.id, other):
                            s0, s1 = span(sub_node)
                            add(s0, s1, other, "swap_names", sub_node, sub_node.id)
                            break
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.For, ast.While, ast.If, ast.With)):
                simple = (ast.Assign, ast.AugAssign, ast.Expr, ast.AnnAssign)
                for s1_, s2_ in zip(node.body, node.body[1:]):
                    if not (isinstance(s1_, simple) and isinstance(s2_, simple)) or id(s1_) in docstrings:
                        continue
                    if s1_.lineno != s1_.end_lineno or s2_.lineno != s2_.end_lineno or s2_.lineno != s1_.lineno + 1:
                        continue
                    writes = lambda s: {n.id for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
                    reads = lambda s: {n.id for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
                    if not (writes(s1_) & reads(s2_) or writes(s2_) & reads(s1_) or isinstance(s1_, ast.AugAssign)):
                        continue
                    a0, a1 = starts[s1_.lineno - 1], starts[s1_.lineno]
                    b1 = starts[s2_.lineno]
                    add(a0, b1, data[a1:b1].decode() + data[a0:a1].decode(), "swap_statements", s1_, "")
                body = [s for s in node.body if id(s) not in docstrings]
                if len(body) < 2:
                    continue
                for statement in body:
                    if not isinstance(statement, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Raise)):
                        continue
                    if statement.lineno != statement.end_lineno:
                        continue
                    line_start = starts[statement.lineno - 1]
                    line_end = starts[statement.lineno]
                    if data[line_start:off(statement.lineno, statement.col_offset)].strip():
                        continue
                    rest = data[off(statement.end_lineno, statement.end_col_offset):line_end].strip()
                    if rest and not rest.startswith(b"#"):
                        continue
                    add(line_start, line_end, "", "drop_statement", statement, "")
    json.dump(out, sys.stdout)


main()
`;
