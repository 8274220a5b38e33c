/** Synthetic repositories for the benchmarks, built in memory as snapshots. */
import type { Snapshot, SnapshotFile } from "../src/workspace/snapshot.ts";

const encoder = new TextEncoder();

/** Roughly 40 lines of plausible Python; `needle` adds one line a search can find. */
export function pseudoCode(seed: number, needle?: string): string {
  const lines = [`"""Module ${seed}: synthetic code for benchmarks."""`, "", "import math", ""];
  for (let f = 0; f < 6; f++) {
    lines.push(`def func_${seed}_${f}(x, y=${f}):`);
    lines.push(`    """Combine x and y (variant ${f})."""`);
    lines.push(`    total = x * ${seed % 97} + y`);
    if (needle && f === 3) lines.push(`    total += ${needle}(x)`);
    lines.push(`    if total > ${seed % 13}:`);
    lines.push(`        return math.sqrt(total)`);
    lines.push(`    return total - ${f}`);
    lines.push("");
  }
  return `${lines.join("\n")}\n`;
}

/** A snapshot from `path -> text`, folders derived from the paths. */
export function snapshotOf(files: Record<string, string>): Snapshot {
  const dirs = new Set<string>();
  const list: SnapshotFile[] = [];
  for (const path of Object.keys(files).sort()) {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
    list.push({ path, content: encoder.encode(files[path]), mode: 0o644 });
  }
  const sortedDirs = [...dirs].sort((a, b) =>
    a.split("/").length - b.split("/").length || (a < b ? -1 : 1)
  );
  return { dirs: sortedDirs, files: list, byPath: new Map(list.map((f) => [f.path, f])) };
}

/** A two-file task repository: a module and its test. */
export function twoFileTree(): Snapshot {
  return snapshotOf({ "pkg/app.py": pseudoCode(1), "tests/test_app.py": pseudoCode(2) });
}

/** `dirs` folders of `perDir` files each; every `needleEvery`-th file gets a `needle_<n>(` line. */
export function gridTree(dirs: number, perDir: number, needleEvery = 0): Snapshot {
  const files: Record<string, string> = {};
  for (let d = 0; d < dirs; d++) {
    for (let f = 0; f < perDir; f++) {
      const index = d * perDir + f;
      const needle = needleEvery > 0 && index % needleEvery === needleEvery - 1
        ? `needle_${index}`
        : undefined;
      files[`pkg_${pad(d)}/mod_${pad(f)}.py`] = pseudoCode(index, needle);
    }
  }
  return snapshotOf(files);
}

function pad(n: number): string {
  return String(n).padStart(3, "0");
}
