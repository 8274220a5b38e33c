/** Section 1: how fast a rollout's workspace is ready, against `cp -r` of the same tree. */
import { listTaskIds, loadTask } from "../src/task/load.ts";
import { type Snapshot, snapshotDir, writeSnapshot } from "../src/workspace/snapshot.ts";
import { createWorkspace, type Workspace } from "../src/workspace/workspace.ts";
import { type BenchContext, spawnChecked, subdir } from "./_context.ts";
import { makeRow, type Row, type Target } from "./_report.ts";
import {
  sampleCases,
  type SampleOptions,
  summarize,
  timed,
  timedAsync,
  type Trial,
} from "./_stats.ts";
import { LineChild } from "./_lines.ts";
import { resolveChildProgram } from "./_system.ts";
import { gridTree, twoFileTree } from "./_trees.ts";

const SMALL: SampleOptions = { warmup: 20, min: 100, max: 1000, budgetMs: 1500 };
const LARGE: SampleOptions = { warmup: 3, min: 15, max: 60, budgetMs: 5000 };

interface Tree {
  label: string;
  snapshot: Snapshot;
  /** The same tree on disk, the source of `cp -r`. */
  source: string;
}

interface Timing {
  create: number[];
  copy: number[];
  /** The same tree written by a plain Python loop timed inside Python (see NATIVE_COPY). */
  native: number[];
}

/** Measure `createWorkspace` for a 2-file, the largest bundled and a 200-file tree. */
export async function benchWorkspace(ctx: BenchContext): Promise<Row[]> {
  const sources = subdir(ctx, "ws-sources");
  const two = onDisk("2-file tree", twoFileTree(), `${sources}/two`);
  const grid = onDisk("200-file tree", gridTree(10, 20), `${sources}/grid`);
  const largest = largestTask(ctx.tasksDir);
  const rows: Row[] = [];
  const section = "1 workspace";

  const root = subdir(ctx, "ws");
  ctx.log(`workspace: ${two.label}, ${largest.label}, ${grid.label} under ${root}`);
  const twoTiming = await measureTree(two, root, SMALL);
  const taskTiming = await measureTree(largest, root, SMALL);
  const gridTiming = await measureTree(grid, root, LARGE);
  rows.push(
    treeRow(section, two, twoTiming, {
      text: "< 0.5 ms",
      metric: "median",
      op: "<",
      value: 0.5,
    }),
    treeRow(section, largest, taskTiming, null),
    treeRow(section, grid, gridTiming, null),
    slopeRow(section, twoTiming, gridTiming),
  );

  const note =
    "Diagnostic floor, sampled with the rows above: the same tree written into the same root by a Python os.open/os.write/os.close loop timed inside Python (no process start); no target";
  const floor = "1 workspace (floor)";
  const slope = (a: number[], b: number[]) =>
    ((summarize(b).median - summarize(a).median) / 198) * 1000;
  rows.push(
    makeRow({
      section: floor,
      figure: `native copy, ${two.label}`,
      unit: "ms",
      values: twoTiming.native,
      note,
    }),
    makeRow({
      section: floor,
      figure: `native copy, ${grid.label}`,
      unit: "ms",
      values: gridTiming.native,
    }),
    makeRow({
      section: floor,
      figure: "native per-file cost (slope 2 -> 200 files)",
      unit: "us",
      summary: {
        median: slope(twoTiming.native, gridTiming.native),
        p95: null,
        n: gridTiming.native.length,
      },
    }),
  );
  return rows;
}

function onDisk(label: string, snapshot: Snapshot, dir: string): Tree {
  Deno.mkdirSync(dir);
  writeSnapshot(snapshot, dir);
  return { label, snapshot, source: dir };
}

/** The bundled task whose repository has the most files (first by id on a tie). */
function largestTask(tasksDir: string): Tree {
  let best: Tree | null = null;
  for (const id of listTaskIds(tasksDir)) {
    const task = loadTask(`${tasksDir}/${id}`);
    const snapshot = snapshotDir(task.repoDir);
    if (!best || snapshot.files.length > best.snapshot.files.length) {
      best = { label: `${id} (${snapshot.files.length} files)`, snapshot, source: task.repoDir };
    }
  }
  if (!best) throw new Error(`Cannot pick the largest task: no tasks in "${tasksDir}"`);
  return best;
}

async function measureTree(tree: Tree, root: string, options: SampleOptions): Promise<Timing> {
  const create: Trial = async () => {
    let workspace: Workspace | null = null;
    const ms = timed(() => {
      workspace = createWorkspace(tree.snapshot, { root, prefix: "bench" });
    });
    await (workspace as Workspace | null)?.remove();
    return ms;
  };
  let copies = 0;
  const copy: Trial = async () => {
    const dst = `${root}/cp-${copies++}`;
    const ms = await timedAsync(() => spawnChecked("cp", ["-r", tree.source, dst]));
    await Deno.remove(dst, { recursive: true });
    return ms;
  };
  const helper = new LineChild(resolveChildProgram("python3"), [
    "-I",
    "-S",
    "-c",
    NATIVE_COPY,
    tree.source,
    root,
  ]);
  try {
    const native: Trial = async () => {
      await helper.send("copy");
      return Number(await helper.read());
    };
    const [createMs, copyMs, nativeMs] = await sampleCases([create, copy, native], options);
    return { create: createMs, copy: copyMs, native: nativeMs };
  } finally {
    await helper.close();
  }
}

function treeRow(
  section: string,
  tree: Tree,
  timing: Timing,
  target: Target | null,
): Row {
  return makeRow({
    section,
    figure: `createWorkspace, ${tree.label}`,
    unit: "ms",
    values: timing.create,
    baseline: { name: "cp -r", value: summarize(timing.copy).median },
    target,
  });
}

/** Extra cost per file: the slope of the medians between the 2-file and the 200-file tree, in us. */
function slopeRow(section: string, small: Timing, large: Timing): Row {
  const slope = (a: number[], b: number[]) =>
    ((summarize(b).median - summarize(a).median) / 198) * 1000;
  return makeRow({
    section,
    figure: "per-file cost (slope 2 -> 200 files)",
    unit: "us",
    summary: { median: slope(small.create, large.create), p95: null, n: large.create.length },
    baseline: { name: "cp -r slope", value: slope(small.copy, large.copy) },
    target: { text: "< 40 us", metric: "median", op: "<", value: 40 },
  });
}

/** Reads a tree into memory, then per input line writes a fresh copy and prints the ms it took. */
const NATIVE_COPY = String.raw`
import os, shutil, sys, tempfile, time
src, root = sys.argv[1], sys.argv[2]
dirs, files = [], []
for cur, subdirs, names in os.walk(src):
    subdirs.sort()
    rel = os.path.relpath(cur, src)
    dirs.extend(os.path.normpath(os.path.join(rel, d)) for d in subdirs)
    for name in sorted(names):
        path = os.path.join(cur, name)
        with open(path, "rb") as f:
            files.append((os.path.normpath(os.path.join(rel, name)), f.read(), os.stat(path).st_mode & 0o777))
for _ in sys.stdin:
    started = time.perf_counter()
    dst = tempfile.mkdtemp(dir=root)
    for d in dirs:
        os.mkdir(os.path.join(dst, d))
    for path, data, mode in files:
        fd = os.open(os.path.join(dst, path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        os.write(fd, data)
        os.close(fd)
    ms = (time.perf_counter() - started) * 1000
    shutil.rmtree(dst)
    print(ms, flush=True)
`;
