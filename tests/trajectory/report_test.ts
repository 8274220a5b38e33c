import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { digestRecord } from "../../src/trajectory/digest.ts";
import { embedJson, escapeHtml, renderReport } from "../../src/trajectory/report.ts";
import type { TrajectoryRecord } from "../../src/trajectory/record.ts";
import { summarize } from "../../src/trajectory/summary.ts";
import { chromiumPath, withPage } from "../_cdp.ts";
import { fakeRecord, fakeTurn } from "./_records.ts";

/** Agent-produced text that tries to break out of the data block and run script. */
const HOSTILE =
  `</script><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><!--`;

const SOLVED = fakeRecord({
  episode: "run-1/a/0",
  group: "a",
  sample: 0,
  resolved: true,
  tokens: [],
});
const FAILED: TrajectoryRecord = (() => {
  const r = fakeRecord({
    episode: "run-1/b/0",
    group: "b",
    sample: 0,
    resolved: false,
    tokens: [],
    overrides: {
      task_id: "b",
      final_diff: `--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\n+x = "${HOSTILE}"\n`,
      submission: { status: "solved", summary: HOSTILE },
      turns: [
        fakeTurn(
          0,
          "read_file",
          { path: "m.py" },
          "   1| x = 1",
          `I will read the file. ${HOSTILE}`,
        ),
        fakeTurn(
          1,
          "write_file",
          { path: "m.py", content: `x = "${HOSTILE}"` },
          "Wrote m.py",
          null,
        ),
        fakeTurn(
          2,
          "submit",
          { status: "solved", summary: "done" },
          "Submitted as solved",
          "Done.",
        ),
      ],
    },
  });
  r.reward!.failures = [{
    id: "t.py::t",
    outcome: "failed",
    output: `AssertionError: 2 != 1 ${HOSTILE}`,
  }];
  return r;
})();

function report(records: TrajectoryRecord[]): string {
  const episodes = records.map(digestRecord);
  return renderReport({
    run_id: "run-1",
    subtitle: "policy scripted",
    summary: summarize(episodes),
    episodes,
  });
}

Deno.test("embedJson() leaves no markup in the data and parses back to the same value", () => {
  const value = { text: HOSTILE, sep: "a\u2028b", amp: "&amp;" };
  const text = embedJson(value);
  assert.ok(!/[<>&\u2028]/.test(text), text);
  assert.deepEqual(JSON.parse(text), value);
  assert.equal(escapeHtml(`<a href="x">'&`), "&#60;a href=&#34;x&#34;&#62;&#39;&#38;");
});

Deno.test("renderReport() is one self-contained page: two script elements, no remote URL", () => {
  const html = report([SOLVED, FAILED]);
  assert.equal(html.match(/<\/script/gi)?.length, 2);
  assert.equal(html.match(/<script/gi)?.length, 2);
  assert.ok(!/<img/i.test(html));
  assert.ok(!/(src|href)="(https?:)?\/\//i.test(html), "no remote resources");
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
});

const browser = chromiumPath();
if (!browser) {
  console.error(
    "chromium not found: skipping the browser test of report.html (apt-get install chromium)",
  );
}

Deno.test({
  name: "renderReport() shows the summary and steps through an episode in headless Chromium",
  ignore: !browser,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "patchgym-report-" });
    try {
      const path = join(dir, "report.html");
      writeFileSync(path, report([SOLVED, FAILED]));
      const shots = Deno.env.get("PATCHGYM_SCREENSHOT_DIR") ?? dir;
      await withPage(`file://${path}`, async (page) => {
        await page.waitFor(`document.querySelector(".cards")`);
        const overview = await page.evaluate<string>("document.body.innerText");
        assert.match(overview, /patchgym run run-1/);
        assert.match(overview, /mean reward/);
        assert.match(overview, /pass@1/);
        assert.match(overview, /language/);
        assert.match(overview, /Reward hacks caught by the grader/);
        assert.match(overview, /Training signal/);
        writeFileSync(join(shots, "report-summary.png"), await page.screenshot());

        await page.click(`nav a[data-tab="episodes"]`);
        await page.waitFor(`document.querySelector("#filter")`);
        await page.evaluate(`(() => { const s = document.querySelector("#which");
          s.value = "failed"; s.dispatchEvent(new Event("change")); })()`);
        await page.waitFor(`document.querySelectorAll("tr.click").length === 1`);
        await page.click("tr.click");
        await page.waitFor(`document.querySelector("#episode-title")`);
        assert.equal(
          await page.evaluate("document.querySelector('#episode-title').textContent"),
          "run-1/b/0",
        );
        assert.equal(
          await page.evaluate("document.querySelector('#turn-position').textContent"),
          "turn 1 of 3",
        );
        const first = await page.evaluate<string>("document.querySelector('#turns').innerText");
        assert.ok(first.includes(`I will read the file. ${HOSTILE}`), first);
        await page.click("#next-turn");
        await page.waitFor(
          `document.querySelector('#turn-position').textContent === "turn 2 of 3"`,
        );
        assert.match(
          await page.evaluate<string>("document.querySelector('#turns').textContent"),
          /call write_file/,
        );
        const body = await page.evaluate<string>("document.body.innerText");
        assert.ok(body.includes(`AssertionError: 2 != 1 ${HOSTILE}`), "failing test output shown");
        assert.match(body, /t\.py::t/);
        assert.ok(body.includes(`+x = "${HOSTILE}"`), "the diff shown as text");
        assert.equal(await page.evaluate("document.querySelectorAll('img').length"), 0);
        assert.equal(await page.evaluate("window.__pwned ?? null"), null);
        assert.equal(await page.evaluate("document.querySelectorAll('script').length"), 2);
        writeFileSync(join(shots, "report-episode.png"), await page.screenshot());
        assert.deepEqual(page.requests, []);
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
