import assert from "node:assert/strict";
import { parseJunit, unescapeXml } from "../../src/sandbox/junit.ts";

Deno.test("parseJunit() reads passed, failed, errored and skipped testcases", () => {
  const xml = `<?xml version="1.0" encoding="utf-8"?>
<testsuites>
  <testsuite name="pytest" errors="1" failures="1" skipped="1" tests="4">
    <testcase classname="tests.test_a.T" name="test_pass" time="0.001" />
    <testcase classname="tests.test_a.T" name="test_fail" time="0.002">
      <failure message="assert 1 == 2">Traceback...</failure>
    </testcase>
    <testcase classname="tests.test_a" name="test_error" time="0.003">
      <error message="ValueError: boom">Traceback...</error>
    </testcase>
    <testcase classname="tests.test_a" name="test_skip" time="0.000">
      <skipped type="pytest.skip" message="not today">skip</skipped>
    </testcase>
    <testcase classname="tests.test_a" name="test_pass_with_output"><system-out>hi</system-out></testcase>
  </testsuite>
</testsuites>`;
  assert.deepEqual(parseJunit(xml), [
    { classname: "tests.test_a.T", name: "test_pass", outcome: "passed" },
    { classname: "tests.test_a.T", name: "test_fail", outcome: "failed", message: "assert 1 == 2" },
    {
      classname: "tests.test_a",
      name: "test_error",
      outcome: "error",
      message: "ValueError: boom",
    },
    { classname: "tests.test_a", name: "test_skip", outcome: "skipped" },
    { classname: "tests.test_a", name: "test_pass_with_output", outcome: "passed" },
  ]);
});

Deno.test("parseJunit() unescapes entities in attributes and messages", () => {
  const xml = `<testsuite>
<testcase classname="./a_test.ts" name="parse(&quot;&lt;a&gt;&quot;) &amp; more &apos;x&apos;">
<failure message="expected &lt;b&gt; &#38; got &#x3C;i&#x3E; &#9731;">...</failure>
</testcase>
</testsuite>`;
  const [testcase] = parseJunit(xml);
  assert.equal(testcase.name, `parse("<a>") & more 'x'`);
  assert.equal(testcase.message, "expected <b> & got <i> ☃");
  assert.equal(testcase.outcome, "failed");
});

Deno.test("parseJunit() prefers error over failure and skipped over both", () => {
  const xml =
    `<testcase classname="c" name="a"><failure message="f"/><error message="e"/></testcase>
<testcase classname="c" name="b"><skipped/><failure message="f"/></testcase>`;
  assert.deepEqual(parseJunit(xml).map((c) => c.outcome), ["error", "skipped"]);
});

Deno.test("parseJunit() caps failure messages at 2,000 characters", () => {
  const xml = `<testcase classname="c" name="n"><failure message="${
    "x".repeat(5000)
  }"/></testcase>`;
  assert.equal(parseJunit(xml)[0].message!.length, 2000);
});

Deno.test("parseJunit() returns no cases for an empty or broken report", () => {
  assert.deepEqual(parseJunit(""), []);
  assert.deepEqual(parseJunit("<testsuites></testsuites>"), []);
  assert.deepEqual(parseJunit("<testsuite><testcase classname="), []);
});

Deno.test("parseJunit() does not read a testcase out of captured output", () => {
  // Code under test printing XML lands escaped in system-out; it must not add a passing case.
  const xml = `<testsuite><testcase classname="t" name="real"><failure message="no"/>
<system-out>&lt;testcase classname="t" name="fake"/&gt;</system-out></testcase></testsuite>`;
  assert.deepEqual(parseJunit(xml).map((c) => [c.name, c.outcome]), [["real", "failed"]]);
});

Deno.test("unescapeXml() replaces named and numeric entities only", () => {
  assert.equal(unescapeXml("&lt;&gt;&amp;&quot;&apos;"), `<>&"'`);
  assert.equal(unescapeXml("&#65;&#x42;&#x1F600;"), "AB😀");
  assert.equal(unescapeXml("&amp;lt;"), "&lt;");
  assert.equal(unescapeXml("&nbsp; & plain"), "&nbsp; & plain");
});
