/**
 * Task synthesis by bug injection. A seed is a repository whose tests pass (a bundled task with
 * its reference patch applied, or any task folder). For each seed: list parse-aware mutants of its
 * source files, run the seed's tests on each mutant through the real grader, keep the mutants that
 * make some passing tests fail (those tests are `fail_to_pass`, the other passing ones
 * `pass_to_pass`), drop equivalent mutants (no test notices them), duplicates (the same normalized
 * program) and mutants that hang or trip the grader's integrity checks, write a statement from the
 * failing tests' behaviour, and check that the inverse patch (the reference solution) earns the
 * full reward before the task is written. Pairs and triples of kept mutants that fail different
 * tests make harder, multi-mutation tasks.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gradePatch, type GradeResult } from "../reward/grade.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { discoverTestIds } from "../task/test_ids.ts";
import { writeNewTask } from "../task/write.ts";
import { type Task, type TaskSpec, TEST_CONFIG_FILES } from "../task/spec.ts";
import { applyFilePatches } from "../patch/apply.ts";
import { parsePatch } from "../patch/parse.ts";
import { fileDiff } from "../patch/write.ts";
import { isProtected } from "../task/protected.ts";
import { type Snapshot, snapshotDir, type SnapshotFile } from "../workspace/snapshot.ts";
import { createWorkspace } from "../workspace/workspace.ts";
import { applyMutants, type Mutant, mutantsClash, MUTATION_OPERATORS } from "./mutant.ts";
import { pythonMutants } from "./python.ts";
import { estimateDifficulty, type FailureEvidence, writeStatement } from "./statement.ts";
import { typescriptMutants } from "./typescript.ts";
import { containedFixes, type ReferenceFix, referenceFixes } from "./decontaminate.ts";
import { LOCK_FILE } from "../env/lock.ts";
import { runTests, type TestEnvironment } from "../sandbox/test_runner.ts";
import { type StatementEndpoint, writeModelStatement } from "../mine/statement.ts";

/** Why a mutant did not become a task; a closed set. */
export type DropReason =
  | "equivalent"
  | "duplicate"
  | "near_duplicate"
  | "same_failing_tests"
  | "contaminated"
  | "timeout"
  | "untrusted"
  | "reference_failed"
  | "write_failed";

/** How to synthesize. */
export interface SynthOptions {
  sandbox: Sandbox;
  /** Folder for scoring copies (removed afterwards). */
  workRoot: string;
  /** Where task folders are written. */
  outDir: string;
  /** Single mutants tried per seed (default 40). */
  perSeed?: number;
  /** Multi-mutation combinations tried per seed (default 10). */
  multiPerSeed?: number;
  /** Test runs at once (default 2). */
  concurrency?: number;
  /** Seed of the sampling order (default 0), so a run can be repeated. */
  seed?: number;
  /** Told after each mutant is tried. */
  onProgress?: (event: SynthProgress) => void;
  /**
   * Apply each seed's reference patch before mutating (default false). Off, a seed with a
   * reference patch is mutated as it is, so no generated repository holds its fix.
   */
  applyReference?: boolean;
  /** Tasks whose reference fixes no generated repository may contain (the curated set). */
  curated?: Task[];
  /** Keep a second bug on a line a kept task broke when it fails the same tests (default false). */
  keepNearDuplicates?: boolean;
  /** Most tasks with the same fail_to_pass set, per seed (default 2). */
  maxPerFailingSet?: number;
  /** Files to add to a seed's repository (e.g. a version module its build backend writes). */
  seedFiles?: (task: Task) => Record<string, string>;
  /** Write issue-style statements through this endpoint (the template when it fails). */
  endpoint?: StatementEndpoint;
  /** A seed's dependency environment, when it has one (its lock is copied into every task). */
  environmentOf?: (task: Task) => TestEnvironment | null;
}

/** One step of progress. */
export interface SynthProgress {
  done: number;
  total: number;
  kept: number;
  label: string;
  /** The task written, or why the mutant was dropped. */
  outcome: "kept" | DropReason;
}

/** What a seed gave. */
export interface SeedReport {
  seed: string;
  /** Tests that pass on the seed (the pool fail_to_pass and pass_to_pass come from). */
  passing_tests: number;
  mutants_found: number;
  tried: number;
  kept: number;
  /** Why the seed gave nothing, when it could not be used. */
  problem: string | null;
}

/** What a synthesis run did. */
export interface SynthReport {
  seeds: SeedReport[];
  tried: number;
  /** Task ids written. */
  written: string[];
  dropped: Record<DropReason, number>;
  /** Distinct fail_to_pass sets among the tasks written. */
  distinct_f2p_sets: number;
  elapsed_ms: number;
}

interface Seed {
  task: Task;
  snapshot: Snapshot;
  passing: string[];
  hidden: Record<string, Uint8Array>;
  timeoutMs: number;
  report: SeedReport;
  environment: TestEnvironment | null;
  /** Lines a kept single mutant broke, with its failing tests (`file:line:set`). */
  lines: Set<string>;
  /** Kept tasks per fail_to_pass set. */
  failingSets: Map<string, number>;
}

interface Kept {
  seed: Seed;
  mutants: Mutant[];
  failing: string[];
}

/** Synthesize tasks from `seeds` into `options.outDir`. */
export async function synthesize(seeds: Task[], options: SynthOptions): Promise<SynthReport> {
  const started = performance.now();
  const dropped: Record<DropReason, number> = {
    equivalent: 0,
    duplicate: 0,
    near_duplicate: 0,
    same_failing_tests: 0,
    contaminated: 0,
    timeout: 0,
    untrusted: 0,
    reference_failed: 0,
    write_failed: 0,
  };
  const written: string[] = [];
  const seen = new Set<string>();
  const fixes = referenceFixes(options.curated ?? seeds);
  const failingSets = new Set<string>();
  const prepared: Seed[] = [];
  const reports: SeedReport[] = [];
  const singles: { seed: Seed; mutants: Mutant[] }[] = [];
  for (const task of seeds) {
    const seed = await prepareSeed(task, options);
    reports.push(seed.report);
    if (seed.report.problem !== null) continue;
    prepared.push(seed);
    const mutants = sample(await findMutants(seed, options), options.perSeed ?? 40, options.seed);
    seed.report.tried = mutants.length;
    for (const m of mutants) singles.push({ seed, mutants: [m] });
  }
  let done = 0;
  let total = singles.length;
  const kept: Kept[] = [];
  const tryJob = async (job: { seed: Seed; mutants: Mutant[] }) => {
    const result = await tryMutants(job.seed, job.mutants, seen, fixes, options);
    done++;
    if (result.ok) {
      failingSets.add(JSON.stringify([...result.failing].sort()));
      kept.push({ seed: job.seed, mutants: job.mutants, failing: result.failing });
      written.push(result.id);
      job.seed.report.kept++;
    } else dropped[result.reason]++;
    options.onProgress?.({
      done,
      total,
      kept: written.length,
      label: result.ok ? result.id : `${job.seed.task.spec.id} ${job.mutants[0].operator}`,
      outcome: result.ok ? "kept" : result.reason,
    });
  };
  await pool(singles, options.concurrency ?? 2, tryJob);
  const combos = prepared.flatMap((seed) =>
    combinations(kept.filter((k) => k.seed === seed), options.multiPerSeed ?? 10, options.seed)
      .map((mutants) => ({ seed, mutants }))
  );
  total += combos.length;
  for (const c of combos) c.seed.report.tried++;
  await pool(combos, options.concurrency ?? 2, tryJob);
  return {
    seeds: reports,
    tried: total,
    written: written.sort(),
    dropped,
    distinct_f2p_sets: failingSets.size,
    elapsed_ms: Math.round(performance.now() - started),
  };
}

/** The seed repository (the task with its reference patch applied) and the tests passing on it. */
async function prepareSeed(task: Task, options: SynthOptions): Promise<Seed> {
  const report: SeedReport = {
    seed: task.spec.id,
    passing_tests: 0,
    mutants_found: 0,
    tried: 0,
    kept: 0,
    problem: null,
  };
  const seed: Seed = {
    task,
    snapshot: snapshotDir(task.repoDir),
    passing: [],
    hidden: {},
    timeoutMs: 30_000,
    report,
    environment: options.environmentOf?.(task) ?? null,
    lines: new Set(),
    failingSets: new Map(),
  };
  if (seed.environment?.error) {
    report.problem = seed.environment.error;
    return seed;
  }
  if (task.solutionPath !== null && options.applyReference) {
    const workspace = createWorkspace(seed.snapshot, {
      root: options.workRoot,
      prefix: `seed-${task.spec.id}`,
    });
    try {
      const parsed = parsePatch(readFileSync(task.solutionPath, "utf8"));
      const applied = parsed.ok ? await applyFilePatches(workspace.dir, parsed.files) : parsed;
      if (!applied.ok) {
        report.problem = `reference patch does not apply: ${applied.message}`;
        return seed;
      }
      seed.snapshot = snapshotDir(workspace.dir);
    } finally {
      await workspace.remove();
    }
  }
  const added = options.seedFiles?.(task) ?? {};
  if (Object.keys(added).length > 0) {
    // Files a build step would write (a version module): part of every task's repository.
    const files = [
      ...seed.snapshot.files.filter((f) => !(f.path in added)),
      ...Object.entries(added).map(([path, text]) => ({
        path,
        content: new TextEncoder().encode(text),
        mode: 0o644,
      })),
    ];
    seed.snapshot = { ...seed.snapshot, files, byPath: new Map(files.map((f) => [f.path, f])) };
  }
  for (const path of task.spec.hidden_tests) {
    seed.hidden[path] = readFileSync(join(task.hiddenDir, path));
  }
  const discovered = [
    ...task.spec.visible_tests.flatMap((path) => {
      const file = seed.snapshot.byPath.get(path);
      return file ? discoverTestIds(path, decode(file.content), task.spec.runner) : [];
    }),
    ...task.spec.hidden_tests.flatMap((path) =>
      discoverTestIds(path, decode(seed.hidden[path]), task.spec.runner)
    ),
  ];
  // pytest names each case of a parametrized test, and runs methods a class inherits from another
  // module: the ids a run reports are the tests, where the files alone give their functions only.
  const ids = task.spec.runner === "pytest"
    ? await reportedIds(seed, options) ?? discovered
    : discovered;
  const grade = await gradePatch(withExpected(task, ids, []), "", {
    sandbox: options.sandbox,
    workRoot: options.workRoot,
    snapshot: seed.snapshot,
    // A whole real suite, graded on a loaded machine, takes longer than one task's tests.
    timeoutMs: SEED_TIMEOUT_MS,
    ...(seed.environment ? { environment: seed.environment } : {}),
  });
  if (grade.run.timed_out) {
    report.problem = `the seed's tests did not finish within ${SEED_TIMEOUT_MS / 1000} s`;
    return seed;
  }
  if (grade.run.problems.length > 0) {
    report.problem = `the seed's tests cannot be trusted: ${
      grade.run.problems.map((p) => p.code).join(", ")
    }`;
    return seed;
  }
  seed.passing = ids.filter((id) => grade.fail_to_pass.tests[id] === "passed");
  report.passing_tests = seed.passing.length;
  if (seed.passing.length < 2) {
    report.problem =
      `only ${seed.passing.length} test(s) pass on the seed; a task needs at least 2`;
  }
  // A mutant's test run may take longer than the seed's (more failures), not forever.
  seed.timeoutMs = Math.max(10_000, grade.run.duration_ms * 5);
  return seed;
}

/** How long the seed's own test runs may take (a mutant's get five times the seed's time). */
const SEED_TIMEOUT_MS = 300_000;

/** The test ids a plain run of the seed's test files reports, or null when it reports none. */
async function reportedIds(seed: Seed, options: SynthOptions): Promise<string[] | null> {
  const { spec } = seed.task;
  const files = [...new Set([...spec.visible_tests, ...spec.hidden_tests])];
  const workspace = createWorkspace(seed.snapshot, {
    root: options.workRoot,
    prefix: `seed-ids-${spec.id}`,
  });
  try {
    for (const [path, content] of Object.entries(seed.hidden)) {
      mkdirSync(dirname(join(workspace.dir, path)), { recursive: true });
      writeFileSync(join(workspace.dir, path), content);
    }
    const run = await runTests(options.sandbox, {
      runner: spec.runner,
      dir: workspace.dir,
      files,
      timeoutMs: SEED_TIMEOUT_MS,
      ...(seed.environment ? { environment: seed.environment } : {}),
    });
    const ids = [...run.tests.keys()].filter((id) =>
      files.some((file) => id.startsWith(`${file}::`))
    );
    return ids.length > 0 ? ids : null;
  } finally {
    await workspace.remove();
  }
}

async function findMutants(seed: Seed, options: SynthOptions): Promise<Mutant[]> {
  const { spec } = seed.task;
  // JavaScript is mutated by the TypeScript parser too (it reads plain JavaScript).
  const extension = spec.language === "python"
    ? /\.py$/
    : spec.language === "javascript"
    ? /\.m?js$/
    : /\.ts$/;
  const tests = new Set([...spec.visible_tests, ...spec.hidden_tests]);
  const configs: ReadonlySet<string> = new Set(TEST_CONFIG_FILES);
  const sources: Record<string, string> = {};
  for (const file of seed.snapshot.files) {
    const name = file.path.slice(file.path.lastIndexOf("/") + 1);
    if (
      !extension.test(file.path) || tests.has(file.path) || configs.has(name) ||
      isProtected(seed.task.spec.protected_paths, file.path) || /(^|\/)tests?\//.test(file.path) ||
      /(^test_.*\.py|_test\.ts|\.test\.ts|\.test\.m?js)$/.test(name)
    ) continue;
    sources[file.path] = decode(file.content);
  }
  const found = spec.language === "python"
    ? await pythonMutants(options.sandbox, sources, options.workRoot)
    : await typescriptMutants(sources);
  const unique = new Map<string, Mutant>();
  for (const m of found) if (!unique.has(m.hash)) unique.set(m.hash, m);
  seed.report.mutants_found = unique.size;
  return [...unique.values()];
}

type TryResult = { ok: true; id: string; failing: string[] } | { ok: false; reason: DropReason };

async function tryMutants(
  seed: Seed,
  mutants: Mutant[],
  seen: Set<string>,
  fixes: ReferenceFix[],
  options: SynthOptions,
): Promise<TryResult> {
  const key = mutants.map((m) => m.hash).sort().join("+");
  if (seen.has(key)) return { ok: false, reason: "duplicate" };
  seen.add(key);

  const snapshot = mutatedSnapshot(seed.snapshot, mutants);
  const gradeOptions = {
    sandbox: options.sandbox,
    workRoot: options.workRoot,
    snapshot,
    timeoutMs: seed.timeoutMs,
    ...(seed.environment ? { environment: seed.environment } : {}),
  };
  const before = await gradePatch(withExpected(seed.task, seed.passing, []), "", gradeOptions);
  if (before.run.timed_out) return { ok: false, reason: "timeout" };
  // The mutant is our own code, not an adversary's: a mutant canary (a copy of a test with its
  // expected value changed) may simply match the bug's wrong value. Other problems are real.
  if (before.run.problems.some((p) => p.code !== "canary_mismatch")) {
    return { ok: false, reason: "untrusted" };
  }
  const failing = seed.passing.filter((id) => before.fail_to_pass.tests[id] !== "passed");
  if (failing.length === 0) return { ok: false, reason: "equivalent" };
  // Tasks of one repository should fail different tests, not the same one over and over.
  const failingKey = JSON.stringify([...failing].sort());
  // Another bug on a line a kept task already broke, failing the same tests, is the same task.
  const line = `${mutants[0].file}:${mutants[0].line}:${failingKey}`;
  if (mutants.length === 1 && !options.keepNearDuplicates && seed.lines.has(line)) {
    return { ok: false, reason: "near_duplicate" };
  }
  if (mutants.length === 1 && overSetCap(seed, failingKey, options)) {
    return { ok: false, reason: "same_failing_tests" };
  }
  const stillPassing = seed.passing.filter((id) => !failing.includes(id));
  const files = [...new Set(mutants.map((m) => m.file))];
  const patch = files.map((path) =>
    fileDiff(path, snapshot.byPath.get(path)!.content, seed.snapshot.byPath.get(path)!.content)
  ).join("");
  let spec = synthSpec(seed, mutants, failing, stillPassing, key, before);
  if (options.endpoint) {
    const written = await writeModelStatement(options.endpoint, {
      subject: "",
      body: "",
      failing,
      failures: new Map(Object.entries(before.failures)),
    });
    if (written) {
      spec = {
        ...spec,
        statement: written,
        provenance: { ...spec.provenance!, statement: "model" },
      };
    }
  }
  const task = withExpected({ ...seed.task, spec }, failing, stillPassing);
  const after = await gradePatch(task, patch, gradeOptions);
  const solved = after.patch_applied && after.run.problems.length === 0 &&
    after.fail_to_pass.passed === failing.length &&
    after.pass_to_pass.passed === stillPassing.length;
  if (!solved) return { ok: false, reason: "reference_failed" };
  const repo: Record<string, Uint8Array> = {};
  const texts = new Map<string, string>();
  for (const file of snapshot.files) {
    if (file.path.startsWith(".patchgym/")) continue;
    repo[file.path] = file.content;
    texts.set(file.path, decode(file.content));
  }
  if (containedFixes(texts, fixes).length > 0) return { ok: false, reason: "contaminated" };
  // Checked again after the awaits above: another worker may have kept the same set meanwhile.
  if (mutants.length === 1 && overSetCap(seed, failingKey, options)) {
    return { ok: false, reason: "same_failing_tests" };
  }
  const lock = seed.task.spec.environment
    ? readFileSync(join(seed.task.dir, seed.task.spec.environment), "utf8")
    : null;
  const result = writeNewTask(options.outDir, {
    spec: lock ? { ...spec, environment: LOCK_FILE } : spec,
    repo,
    hidden: seed.hidden,
    patch,
    ...(lock ? { extra: { [LOCK_FILE]: lock } } : {}),
  });
  if (!result.ok) return { ok: false, reason: "write_failed" };
  seed.failingSets.set(failingKey, (seed.failingSets.get(failingKey) ?? 0) + 1);
  if (mutants.length === 1) seed.lines.add(line);
  return { ok: true, id: spec.id, failing };
}

function synthSpec(
  seed: Seed,
  mutants: Mutant[],
  failing: string[],
  passing: string[],
  key: string,
  before: GradeResult,
): TaskSpec {
  const base = seed.task.spec;
  const evidence: FailureEvidence = {
    failing,
    output: before.failures,
    visibleTests: base.visible_tests,
  };
  const files = new Set(mutants.map((m) => m.file)).size;
  const suffix = hashText(key).slice(0, 8);
  const first = failing[0].split("::").at(-1);
  return {
    ...base,
    id: `synth-${base.id}-${mutants.length > 1 ? `m${mutants.length}-` : ""}${suffix}`,
    title: `Fix the regression behind ${first}${
      failing.length > 1 ? ` and ${failing.length - 1} more failing test(s)` : ""
    }`,
    difficulty: estimateDifficulty(mutants, evidence),
    kind: mutants.length === 1 ? "one_line_bug" : files > 1 ? "multi_file" : "read_test_output",
    statement: writeStatement(evidence),
    fail_to_pass: failing,
    pass_to_pass: passing,
    solution: "solution.patch",
    provenance: {
      made_by: "synth",
      made_at: new Date().toISOString(),
      ...(base.provenance?.upstream_repo ? { upstream_repo: base.provenance.upstream_repo } : {}),
      statement: "template",
    },
  };
}

/** Whether a single mutant would be one task too many failing exactly `failingKey`'s tests. */
function overSetCap(seed: Seed, failingKey: string, options: SynthOptions): boolean {
  return (seed.failingSets.get(failingKey) ?? 0) >= (options.maxPerFailingSet ?? 2);
}

/** The task with other expected tests (for screening runs that grade every test at once). */
function withExpected(task: Task, failToPass: string[], passToPass: string[]): Task {
  return { ...task, spec: { ...task.spec, fail_to_pass: failToPass, pass_to_pass: passToPass } };
}

function mutatedSnapshot(base: Snapshot, mutants: Mutant[]): Snapshot {
  const byFile = Map.groupBy(mutants, (m) => m.file);
  const files: SnapshotFile[] = base.files.map((file) => {
    const edits = byFile.get(file.path);
    return edits ? { ...file, content: applyMutants(file.content, edits) } : file;
  });
  return { dirs: base.dirs, files, byPath: new Map(files.map((f) => [f.path, f])) };
}

/**
 * Up to `limit` mutants, in a seeded shuffled order that takes each operator in turn, so a small
 * sample still covers every kind of bug.
 */
function sample(mutants: Mutant[], limit: number, seed = 0): Mutant[] {
  const random = prng(seed);
  const byOperator = MUTATION_OPERATORS.map((op) =>
    shuffle(mutants.filter((m) => m.operator === op), random)
  );
  const out: Mutant[] = [];
  while (out.length < limit && byOperator.some((list) => list.length > 0)) {
    for (const list of byOperator) {
      const next = list.shift();
      if (next && out.length < limit) out.push(next);
    }
  }
  return out;
}

/**
 * Pairs and triples of kept mutants that do not touch the same line and each fail a test the
 * others do not (so fixing one bug alone does not pass every fail_to_pass test).
 */
function combinations(kept: Kept[], limit: number, seed = 0): Mutant[][] {
  const random = prng(seed + 1);
  const order = shuffle(kept, random);
  const distinct = (a: Kept, b: Kept) =>
    !mutantsClash(a.mutants[0], b.mutants[0]) &&
    a.failing.some((t) => !b.failing.includes(t)) && b.failing.some((t) => !a.failing.includes(t));
  const out: Mutant[][] = [];
  for (let i = 0; i < order.length && out.length < limit; i++) {
    for (let j = i + 1; j < order.length && out.length < limit; j++) {
      if (!distinct(order[i], order[j])) continue;
      const triple = order.slice(j + 1).find((k) => distinct(k, order[i]) && distinct(k, order[j]));
      // Every other combination is a triple when one exists: harder tasks, fewer of them.
      if (triple && out.length % 2 === 1) {
        out.push([order[i].mutants[0], order[j].mutants[0], triple.mutants[0]]);
      } else out.push([order[i].mutants[0], order[j].mutants[0]]);
      break;
    }
  }
  return out;
}

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker),
  );
}

function prng(seed: number): () => number {
  let state = (seed >>> 0) + 0x9e3779b9;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function hashText(text: string): string {
  // FNV-1a, twice with different offsets: a stable 16-hex-digit id suffix.
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    a = Math.imul(a ^ text.charCodeAt(i), 0x01000193) >>> 0;
    b = Math.imul(b ^ text.charCodeAt(i), 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
