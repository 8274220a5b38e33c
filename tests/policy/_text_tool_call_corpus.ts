/**
 * Model outputs with tool calls written as text, in the shapes and damage seen from models served
 * without a tool-call parser. `expected` is the calls a careful reader would take from the text, or
 * "error" where the text is too damaged to read without guessing.
 */

/** One corpus case. */
export interface CorpusCase {
  name: string;
  content: string;
  expected: { name: string; arguments: Record<string, unknown> }[] | "error";
}

const FENCE = "```";

/** The corpus, in no particular order. */
export const TEXT_TOOL_CALL_CORPUS: CorpusCase[] = [
  {
    name: "hermes block with prose before it",
    content: String.raw`I'll start by reading the module that raises the error.

<tool_call>
{"name": "read_file", "arguments": {"path": "src/parser/header.py", "start_line": 1, "max_lines": 120}}
</tool_call>`,
    expected: [{
      name: "read_file",
      arguments: { path: "src/parser/header.py", start_line: 1, max_lines: 120 },
    }],
  },
  {
    name: "qwen3 think block then call",
    content: String.raw`<think>
The traceback points at parse_header returning None for an empty line. Let me run just that test.
</think>

<tool_call>
{"name": "run_tests", "arguments": {"selector": "tests/test_header.py::test_empty_line"}}
</tool_call>`,
    expected: [{
      name: "run_tests",
      arguments: { selector: "tests/test_header.py::test_empty_line" },
    }],
  },
  {
    name: "qwen3 reply starting inside the reasoning (no opening think tag)",
    content: String
      .raw`Okay, the user wants the date parsing fixed. First find where dates are parsed.
</think>

<tool_call>
{"name": "search", "arguments": {"pattern": "def parse_date", "path": "src"}}
</tool_call>`,
    expected: [{ name: "search", arguments: { pattern: "def parse_date", path: "src" } }],
  },
  {
    name: "unclosed think runs into the call",
    content: String.raw`<think>
I need to look at the config loader before changing anything.
<tool_call>
{"name": "read_file", "arguments": {"path": "src/config.py"}}
</tool_call>`,
    expected: [{ name: "read_file", arguments: { path: "src/config.py" } }],
  },
  {
    name: "closing tool_call tag cut off at the end of output",
    content: String.raw`All tests pass now.

<tool_call>
{"name": "submit", "arguments": {"status": "done", "summary": "Handle empty header lines in parse_header"}}`,
    expected: [{
      name: "submit",
      arguments: { status: "done", summary: "Handle empty header lines in parse_header" },
    }],
  },
  {
    name: "parameters instead of arguments",
    content: String.raw`<tool_call>
{"name": "list_files", "parameters": {"path": "src/utils"}}
</tool_call>`,
    expected: [{ name: "list_files", arguments: { path: "src/utils" } }],
  },
  {
    name: "arguments as a JSON-encoded string",
    content: String.raw`<tool_call>
{"name": "run_command", "arguments": "{\"argv\": [\"python\", \"-m\", \"pytest\", \"-x\", \"-q\"]}"}
</tool_call>`,
    expected: [{
      name: "run_command",
      arguments: { argv: ["python", "-m", "pytest", "-x", "-q"] },
    }],
  },
  {
    name: "several blocks in one reply",
    content: String.raw`Let me read both files.
<tool_call>
{"name": "read_file", "arguments": {"path": "src/cache.py"}}
</tool_call>
<tool_call>
{"name": "read_file", "arguments": {"path": "tests/test_cache.py", "start_line": 40, "max_lines": 60}}
</tool_call>`,
    expected: [
      { name: "read_file", arguments: { path: "src/cache.py" } },
      {
        name: "read_file",
        arguments: { path: "tests/test_cache.py", start_line: 40, max_lines: 60 },
      },
    ],
  },
  {
    name: "apply_patch with literal newlines in the patch string",
    content: String.raw`<tool_call>
{"name": "apply_patch", "arguments": {"patch": "--- a/src/cache.py
+++ b/src/cache.py
@@ -10,7 +10,9 @@ class Cache:
     def get(self, key):
-        return self._data[key]
+        if key not in self._data:
+            raise KeyError(f\"missing key: {key!r}\")
+        return self._data[key]
"}}
</tool_call>`,
    expected: [{
      name: "apply_patch",
      arguments: {
        patch: `--- a/src/cache.py
+++ b/src/cache.py
@@ -10,7 +10,9 @@ class Cache:
     def get(self, key):
-        return self._data[key]
+        if key not in self._data:
+            raise KeyError(f"missing key: {key!r}")
+        return self._data[key]
`,
      },
    }],
  },
  {
    name: "apply_patch with literal newlines, escaped backslashes and a literal tab",
    content: String.raw`<tool_call>
{"name": "apply_patch", "arguments": {"patch": "--- a/Makefile
+++ b/Makefile
@@ -1,3 +1,3 @@
 test:
-	pytest -q
+	pytest -q --tb=short
--- a/src/paths.py
+++ b/src/paths.py
@@ -4 +4 @@
-SEP = \"/\"
+SEP = \"\\\\\" if os.name == \"nt\" else \"/\"
"}}
</tool_call>`,
    expected: [{
      name: "apply_patch",
      arguments: {
        patch: [
          "--- a/Makefile",
          "+++ b/Makefile",
          "@@ -1,3 +1,3 @@",
          " test:",
          "-\tpytest -q",
          "+\tpytest -q --tb=short",
          "--- a/src/paths.py",
          "+++ b/src/paths.py",
          "@@ -4 +4 @@",
          '-SEP = "/"',
          '+SEP = "\\\\" if os.name == "nt" else "/"',
          "",
        ].join("\n"),
      },
    }],
  },
  {
    name: "apply_patch with unescaped quotes and literal newlines",
    content: String.raw`<tool_call>
{"name": "apply_patch", "arguments": {"patch": "--- a/src/greet.py
+++ b/src/greet.py
@@ -1,2 +1,2 @@
 def greet(name):
-    return "Hello " + name
+    return f"Hello, {name}!"
"}}
</tool_call>`,
    expected: [{
      name: "apply_patch",
      arguments: {
        patch: `--- a/src/greet.py
+++ b/src/greet.py
@@ -1,2 +1,2 @@
 def greet(name):
-    return "Hello " + name
+    return f"Hello, {name}!"
`,
      },
    }],
  },
  {
    name: "apply_patch with unescaped quotes in subscripts and dict literals",
    content: String.raw`<tool_call>
{"name": "apply_patch", "arguments": {"patch": "--- a/src/settings.py
+++ b/src/settings.py
@@ -7,2 +7,3 @@
-    level = config["log"]["level"]
+    level = config.get("log", {}).get("level", "INFO")
+    defaults = {"level": level, "json": False}
"}}
</tool_call>`,
    expected: [{
      name: "apply_patch",
      arguments: {
        patch: `--- a/src/settings.py
+++ b/src/settings.py
@@ -7,2 +7,3 @@
-    level = config["log"]["level"]
+    level = config.get("log", {}).get("level", "INFO")
+    defaults = {"level": level, "json": False}
`,
      },
    }],
  },
  {
    name: "apply_patch keeping an escaped backslash-n inside the code",
    content: String.raw`<tool_call>
{"name": "apply_patch", "arguments": {"patch": "--- a/src/report.py
+++ b/src/report.py
@@ -3 +3 @@
-    return \",\".join(rows)
+    return \"\\n\".join(rows)
"}}
</tool_call>`,
    expected: [{
      name: "apply_patch",
      arguments: {
        patch: [
          "--- a/src/report.py",
          "+++ b/src/report.py",
          "@@ -3 +3 @@",
          '-    return ",".join(rows)',
          '+    return "\\n".join(rows)',
          "",
        ].join("\n"),
      },
    }],
  },
  {
    name: "trailing commas in arguments and call",
    content: String.raw`<tool_call>
{"name": "search", "arguments": {"pattern": "TODO", "glob": "*.py",},}
</tool_call>`,
    expected: [{ name: "search", arguments: { pattern: "TODO", glob: "*.py" } }],
  },
  {
    name: "final closing brace missing",
    content: String.raw`<tool_call>
{"name": "read_file", "arguments": {"path": "README.md"}
</tool_call>`,
    expected: [{ name: "read_file", arguments: { path: "README.md" } }],
  },
  {
    name: "extra closing braces",
    content: String.raw`<tool_call>
{"name": "run_tests", "arguments": {"selector": "tests/test_cli.py"}}}}
</tool_call>`,
    expected: [{ name: "run_tests", arguments: { selector: "tests/test_cli.py" } }],
  },
  {
    name: "argv array closed with a brace",
    content: String.raw`<tool_call>
{"name": "run_command", "arguments": {"argv": ["git", "diff", "--stat"}}
</tool_call>`,
    expected: [{ name: "run_command", arguments: { argv: ["git", "diff", "--stat"] } }],
  },
  {
    name: "python dict with single quotes",
    content: String.raw`<tool_call>
{'name': 'replace_text', 'arguments': {'path': 'src/util.py', 'old': 'return None', 'new': 'return []'}}
</tool_call>`,
    expected: [{
      name: "replace_text",
      arguments: { path: "src/util.py", old: "return None", new: "return []" },
    }],
  },
  {
    name: "python literals True, False and None",
    content: String.raw`<tool_call>
{"name": "search", "arguments": {"pattern": "load_config", "regex": False, "case_sensitive": True, "path": None}}
</tool_call>`,
    expected: [{
      name: "search",
      arguments: { pattern: "load_config", regex: false, case_sensitive: true, path: null },
    }],
  },
  {
    name: "smart quotes around keys and values",
    content: `<tool_call>
{\u201cname\u201d: \u201crun_tests\u201d, \u201carguments\u201d: {}}
</tool_call>`,
    expected: [{ name: "run_tests", arguments: {} }],
  },
  {
    name: "code fence inside the tool_call block",
    content: String.raw`<tool_call>
${FENCE}json
{"name": "inspect_tree", "arguments": {"depth": 2}}
${FENCE}
</tool_call>`,
    expected: [{ name: "inspect_tree", arguments: { depth: 2 } }],
  },
  {
    name: "json fence after prose",
    content: String.raw`The fix is in place; let me run the whole suite.

${FENCE}json
{"name": "run_tests", "arguments": {}}
${FENCE}`,
    expected: [{ name: "run_tests", arguments: {} }],
  },
  {
    name: "tool_call fence with tool and args keys",
    content: String.raw`${FENCE}tool_call
{"tool": "read_file", "args": {"path": "pyproject.toml", "max_lines": 50}}
${FENCE}`,
    expected: [{ name: "read_file", arguments: { path: "pyproject.toml", max_lines: 50 } }],
  },
  {
    name: "plain fence with tool and input keys",
    content: String.raw`Searching for the helper:
${FENCE}
{"tool": "search", "input": {"pattern": "slugify\\(", "path": "src"}}
${FENCE}`,
    expected: [{ name: "search", arguments: { pattern: "slugify\\(", path: "src" } }],
  },
  {
    name: "openai function wrapper in a json fence",
    content: String.raw`${FENCE}json
{"type": "function", "function": {"name": "list_files", "arguments": "{\"path\": \".\"}"}}
${FENCE}`,
    expected: [{ name: "list_files", arguments: { path: "." } }],
  },
  {
    name: "list of calls in a json fence",
    content: String.raw`${FENCE}json
[
  {"name": "read_file", "arguments": {"path": "src/a.py"}},
  {"name": "read_file", "arguments": {"path": "src/b.py"}}
]
${FENCE}`,
    expected: [
      { name: "read_file", arguments: { path: "src/a.py" } },
      { name: "read_file", arguments: { path: "src/b.py" } },
    ],
  },
  {
    name: "llama function tag",
    content: String
      .raw`<function=read_file>{"path": "src/models/user.py", "start_line": 120, "max_lines": 40}</function>`,
    expected: [{
      name: "read_file",
      arguments: { path: "src/models/user.py", start_line: 120, max_lines: 40 },
    }],
  },
  {
    name: "two llama function tags, the last unclosed",
    content: String.raw`<function=list_files>{}</function>
<function=inspect_tree>{"depth": 3}`,
    expected: [
      { name: "list_files", arguments: {} },
      { name: "inspect_tree", arguments: { depth: 3 } },
    ],
  },
  {
    name: "function_call tag",
    content: String
      .raw`<function_call>{"name": "run_command", "arguments": {"argv": ["ls", "-la", "src"]}}</function_call>`,
    expected: [{ name: "run_command", arguments: { argv: ["ls", "-la", "src"] } }],
  },
  {
    name: "bare json object as the whole message",
    content: String
      .raw`{"name": "submit", "parameters": {"status": "done", "summary": "Fixed off-by-one in paginate()"}}`,
    expected: [{
      name: "submit",
      arguments: { status: "done", summary: "Fixed off-by-one in paginate()" },
    }],
  },
  {
    name: "bare json with literal newlines in replace_text",
    content: String
      .raw`{"name": "replace_text", "arguments": {"path": "src/paginate.py", "old": "    end = start + size
    return items[start:end + 1]", "new": "    end = start + size
    return items[start:end]"}}`,
    expected: [{
      name: "replace_text",
      arguments: {
        path: "src/paginate.py",
        old: "    end = start + size\n    return items[start:end + 1]",
        new: "    end = start + size\n    return items[start:end]",
      },
    }],
  },
  {
    name: "regex pattern with invalid escapes",
    content: String.raw`<tool_call>
{"name": "search", "arguments": {"pattern": "def \w+\(self, \*args"}}
</tool_call>`,
    expected: [{ name: "search", arguments: { pattern: "def \\w+\\(self, \\*args" } }],
  },
  {
    name: "windows path with single backslashes in replace_text",
    content: String.raw`<tool_call>
{"name": "replace_text", "arguments": {"path": "docs/install.md", "old": "C:\Program Files\tool", "new": "C:\Tools\tool"}}
</tool_call>`,
    // `\t` is a valid escape, so "\tool" becomes a tab and "ool": that is what the JSON says.
    expected: [{
      name: "replace_text",
      arguments: { path: "docs/install.md", old: "C:\\Program Files\tool", new: "C:\\Tools\tool" },
    }],
  },
  {
    name: "think block quoting a tool call example is not parsed",
    content: String.raw`<think>
The format is <tool_call>{"name": "submit", "arguments": {"status": "done"}}</tool_call> but I am not done yet.
</think>
<tool_call>
{"name": "run_tests", "arguments": {"selector": "tests/"}}
</tool_call>`,
    expected: [{ name: "run_tests", arguments: { selector: "tests/" } }],
  },
  {
    name: "several repairs at once",
    content: String.raw`<tool_call>
{'name': 'submit', 'arguments': {'status': 'done', 'summary': 'Guard against None in merge()
and add a regression test', 'tests_pass': True,}}}
</tool_call>`,
    expected: [{
      name: "submit",
      arguments: {
        status: "done",
        summary: "Guard against None in merge()\nand add a regression test",
        tests_pass: true,
      },
    }],
  },
  {
    name: "mistral TOOL_CALLS list",
    content: String.raw`[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "setup.py"}}]`,
    expected: [{ name: "read_file", arguments: { path: "setup.py" } }],
  },
  {
    name: "llama python_tag with parameters",
    content: String
      .raw`<|python_tag|>{"name": "search", "parameters": {"pattern": "import requests"}}<|eom_id|>`,
    expected: [{ name: "search", arguments: { pattern: "import requests" } }],
  },
  {
    name: "two calls in one tool_call block",
    content: String.raw`<tool_call>
{"name": "read_file", "arguments": {"path": "src/a.py"}}
{"name": "read_file", "arguments": {"path": "src/b.py"}}
</tool_call>`,
    expected: [
      { name: "read_file", arguments: { path: "src/a.py" } },
      { name: "read_file", arguments: { path: "src/b.py" } },
    ],
  },
  {
    name: "tool_call wrapped in an xml fence",
    content: String.raw`${FENCE}xml
<tool_call>
{"name": "list_files", "arguments": {"path": "tests"}}
</tool_call>
${FENCE}`,
    expected: [{ name: "list_files", arguments: { path: "tests" } }],
  },
  {
    name: "run_command with an unescaped python one-liner",
    content: String.raw`<tool_call>
{"name": "run_command", "arguments": {"argv": ["python", "-c", "import sys; print("ok", sys.version)"]}}
</tool_call>`,
    expected: [{
      name: "run_command",
      arguments: { argv: ["python", "-c", 'import sys; print("ok", sys.version)'] },
    }],
  },
  {
    name: "prose with a package.json fence is not a call",
    content: String.raw`The package name is set here:

${FENCE}json
{"name": "left-pad", "version": "1.3.0", "main": "index.js"}
${FENCE}

I think the bug is in index.js.`,
    expected: [],
  },
  {
    name: "prose with a python fence is not a call",
    content: String.raw`Here is the change I plan to make:

${FENCE}python
def parse(data):
    return {"name": data["name"], "arguments": []}
${FENCE}`,
    expected: [],
  },
  {
    name: "output cut off inside the patch string",
    content: String.raw`<tool_call>
{"name": "apply_patch", "arguments": {"patch": "--- a/src/cache.py
+++ b/src/cache.py
@@ -10,7 +10,9 @@ class Cache:
     def get(self, key):
-        return self._da`,
    expected: "error",
  },
  {
    name: "command line instead of JSON in a tool_call block",
    content: String.raw`<tool_call>
read_file src/app.py
</tool_call>`,
    expected: "error",
  },
  {
    name: "missing comma between arguments",
    content: String.raw`<tool_call>
{"name": "submit", "arguments": {"status": "done" "summary": "Fixed the parser"}}
</tool_call>`,
    expected: "error",
  },
  {
    name: "tool_call block without a tool name",
    content: String.raw`<tool_call>
{"arguments": {"path": "src/app.py"}}
</tool_call>`,
    expected: "error",
  },
  {
    name: "arguments string that is not JSON",
    content: String.raw`<tool_call>
{"name": "read_file", "arguments": "path=src/app.py"}
</tool_call>`,
    expected: "error",
  },
];
