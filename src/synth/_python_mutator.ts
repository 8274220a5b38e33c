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
export const PYTHON_MUTATOR: string = String.raw`import ast, hashlib, json, re, sys

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

        def add(start, end, replacement, operator, node, before):
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
                else:
                    add(start, end, "not (" + data[start:end].decode() + ")", "invert_condition", node, "")
            elif isinstance(node, ast.Call) and len(node.args) >= 2 and not any(
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
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.For, ast.While, ast.If, ast.With)):
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
