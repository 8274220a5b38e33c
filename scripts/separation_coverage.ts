/**
 * How many bundled fail_to_pass tests grading judges wholly outside the jail (every check
 * separated from its expected value, see src/reward/separate.ts), per task and in total:
 * `deno run -A scripts/separation_coverage.ts` (V=1 lists the tests judged inside).
 */
import { join } from "node:path";
import { functionOf, outsideTests } from "../src/reward/grade.ts";
import { loadTask } from "../src/task/load.ts";
const root = new URL("../tasks/", import.meta.url).pathname;
let total = 0;
let outside = 0;
const rows: string[] = [];
for (const entry of [...Deno.readDirSync(root)].sort((a, b) => a.name.localeCompare(b.name))) {
  if (!entry.isDirectory) continue;
  const task = loadTask(join(root, entry.name));
  const t = task;
  const tmp = await Deno.makeTempDir();
  try {
    const files = [...new Set([...t.spec.visible_tests, ...t.spec.hidden_tests])];
    for (const f of files) {
      const src = t.spec.hidden_tests.includes(f) ? join(t.hiddenDir, f) : join(t.repoDir, f);
      await Deno.mkdir(join(tmp, f, ".."), { recursive: true });
      await Deno.copyFile(src, join(tmp, f));
    }
    const kept = new Map<string, string[]>();
    const out = await outsideTests(tmp, files, t.spec.runner, kept);
    const f2p = t.spec.fail_to_pass;
    const n = f2p.filter((id) => out.has(functionOf(id))).length;
    total += f2p.length;
    outside += n;
    rows.push(`${entry.name} ${n}/${f2p.length}`);
    if (Deno.env.get("V")) {
      for (const id of f2p.filter((id) => !out.has(functionOf(id)))) {
        console.log(`${id}\n${(kept.get(functionOf(id)) ?? []).map((c) => `    ${c}`).join("\n")}`);
      }
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}
console.log(rows.join("\n"));
console.log(`fail_to_pass judged outside: ${outside}/${total}`);
