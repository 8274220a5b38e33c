/**
 * Permission flags that follow the command line. `deno task patchgym` starts `launch.ts`, which
 * asks {@linkcode planPermissions} for the Deno permission flags a command needs (exactly the
 * files, folders and hosts it names, plus the task folder and the workspace root) and re-runs
 * `main.ts` under them. The orchestrator is never given `-A`, a bare `--allow-read`/`--allow-write`
 * or any host but the model endpoint's.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { defaultWorkRoot, SHARED_WORK_ROOT } from "../agent/environment.ts";
import { NETWORK_ENV } from "../env/build.ts";
import { fileURLToPath } from "node:url";
import { POOL_WORKER_MODULE } from "../rollout/worker_pool.ts";
import { LAUNCHER_PATH_ENV, SPAWNER_MODULE_READS } from "../sandbox/launcher.ts";
import { findProgram } from "../sandbox/mounts.ts";
import { PROGRAMS_PATH_ENV } from "../sandbox/program_folder.ts";
import { LAUNCHER_ENV } from "./_launcher.ts";

/** Environment variables the orchestrator may read, by name. */
export const ALLOWED_ENV = [
  "PATCHGYM_BASE_URL",
  "PATCHGYM_MODEL",
  "PATCHGYM_API_KEY",
  "PATCHGYM_TASKS",
  "PATCHGYM_DENO",
  "OPENAI_BASE_URL",
  "OPENAI_API_KEY",
  "OPENAI_MODEL",
  "PATCHGYM_RAY_PYTHON",
  "PATCHGYM_TOKEN",
  "PATCHGYM_QUEUE_KEY",
  "PATCHGYM_ENV_CACHE",
  "HOME",
  // pip's and npm's configuration, passed on to the pip or npm that "env build" runs.
  "PIP_*",
  "NPM_CONFIG_REGISTRY",
  "npm_config_registry",
  "NODE_EXTRA_CA_CERTS",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  ...NETWORK_ENV,
  LAUNCHER_ENV,
  LAUNCHER_PATH_ENV,
  PROGRAMS_PATH_ENV,
  // Read by the TypeScript compiler that `synth` parses sources with.
  "TSC_*",
  "NODE_ENV",
  "NODE_INSPECTOR_IPC",
  "VSCODE_INSPECTOR_OPTIONS",
] as const;

/**
 * What the orchestrator starts children through when no compiled launcher was built (no C
 * compiler, or the compiled binary, whose flags are baked): `sh` with the launcher script, which
 * joins the sandbox's cgroups, then execs `setsid`/`setpriv`/`bwrap` and the program. A shell can
 * start any program, so with it `--allow-run` no longer bounds what the orchestrator could run;
 * `launch.ts` grants the compiled launcher's path instead whenever it could build one.
 */
export const FALLBACK_LAUNCHER = "sh";

/**
 * The system calls Deno guards that the orchestrator makes: a rollout pool's worker thread lowers
 * its own priority to its children's (`_pool_worker.ts`), and the workspace root is checked for
 * this process's user (`claimRoot`).
 */
export const SYS_FLAG = "--allow-sys=setPriority,uid,gid";

/** System paths read to derive the jail's mount plan (real paths of programs and libraries). */
export const SYSTEM_READ = [
  "/usr",
  "/bin",
  "/lib",
  "/lib64",
  "/etc/ld.so.cache",
  "/etc/nsswitch.conf",
] as const;

/** Where uid leases of sandboxes are kept when patchgym runs as root (see `users.ts`). */
export const LEASE_DIR = "/run/patchgym";

/**
 * The fixed flags of the compiled binary, which cannot compute its flags per command line (a
 * compiled binary bakes them): the bundled or `./tasks` task folder, `./runs` and the workspace
 * root, local model servers only.
 */
export const BINARY_FLAGS: readonly string[] = [
  "--no-prompt",
  `--allow-read=tasks,runs,${SHARED_WORK_ROOT},${LEASE_DIR},${SYSTEM_READ.join(",")}`,
  `--allow-write=runs,${SHARED_WORK_ROOT},${LEASE_DIR}`,
  `--allow-run=${FALLBACK_LAUNCHER}`,
  `--allow-env=${ALLOWED_ENV.join(",")}`,
  SYS_FLAG,
  "--allow-net=127.0.0.1,localhost",
];

/**
 * What worker threads (`rollout --workers`) read to load their modules: patchgym's own `src/`
 * (and nothing of the repository's configuration). A compiled binary's baked flags do not name its
 * embedded modules, so its runs stay on one thread (see `poolAvailable`).
 */
export const POOL_MODULE_READS: string[] = POOL_WORKER_MODULE.protocol === "file:"
  ? [fileURLToPath(new URL("../", POOL_WORKER_MODULE)).replace(/\/$/, "")]
  : [];

/** Flags that take a value, in any command (so values are not taken for positionals). */
export const VALUE_FLAGS = [
  "tasks",
  "policy",
  "base-url",
  "model",
  "temperature",
  "top-p",
  "seed",
  "script",
  "samples",
  "impossible-rate",
  "concurrency",
  "workers",
  "max-turns",
  "max-tokens",
  "max-total-tokens",
  "time-limit",
  "trainable",
  "on-drift",
  "out",
  "resume",
  "tasks-dir",
  "work-dir",
  "isolation",
  "task",
  "patch",
  "format",
  "episode",
  "api",
  "chat-template-kwargs",
  "extra-body",
  "sandbox-processes",
  "sandbox-memory-mb",
  "segments",
  "arguments",
  "max-line-bytes",
  "max-episodes",
  "max-pending-bytes",
  "idle-timeout",
  "search-timeout",
  "http",
  "repos",
  "per-seed",
  "multi",
  "queue",
  "queue-name",
  "max-attempts",
  "lease",
  "ray",
  "ray-replicas",
  "ray-cpus",
  "ray-python",
  "ray-command",
  "sandbox-uids",
  "sandbox-runs",
  "require-isolation",
  "token-file",
  "cert",
  "key",
  "header-timeout",
  "body-timeout",
  "keep-alive-timeout",
  "max-connections",
  "max-connections-per-peer",
  "queue-key",
  "env-cache",
  "lock",
  "range",
  "max-commits",
  "prefix",
  "repo",
  "curated",
  "max-per-failing-set",
  "k",
  "write",
] as const;

/** What a command line may touch. */
export interface PermissionPlan {
  read: string[];
  write: string[];
  net: string[];
  /**
   * Programs besides the launcher: the Python of the Ray driver (`--ray`), pip's Python
   * (`env build`), git.
   */
  run?: string[];
  /** The workspace root the command works under, if it has one (absolute). */
  workRoot?: string;
}

/** Where the command runs and what it sees. */
export interface PlanContext {
  /** The folder relative paths on the command line are relative to. */
  cwd: string;
  /** Environment variables (only the ones in {@linkcode ALLOWED_ENV} are looked at). */
  env: Record<string, string | undefined>;
  /** The tasks bundled beside the program. */
  bundledTasks: string;
  /** Who runs the command, for its default workspace root (default: this process's user). */
  uid?: number | null;
}

/**
 * What `args` (a patchgym command line) needs: the task folder and workspace root for commands
 * that run tasks, the files and folders its flags and positionals name (read, or read and write
 * for outputs), and the host of the model endpoint it names. Paths come back absolute.
 */
export function planPermissions(args: string[], context: PlanContext): PermissionPlan {
  const [command, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    options: Object.fromEntries(VALUE_FLAGS.map((f) => [f, { type: "string" as const }])),
    strict: false,
    allowPositionals: true,
  });
  const flag = (name: string) => {
    const v = values[name];
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  const abs = (p: string) => resolve(context.cwd, p);
  const plan: PermissionPlan = { read: [], write: [], net: [] };
  const read = (p: string | undefined) => p && p !== "-" && plan.read.push(abs(p));
  const readWrite = (p: string | undefined) => {
    if (!p || p === "-") return;
    plan.read.push(abs(p));
    plan.write.push(abs(p));
  };
  const host = (url: string | undefined) => {
    const h = hostOf(url);
    if (h) plan.net.push(h);
  };
  const environment = () => {
    const tasksDir = flag("tasks-dir") ??
      defaultTasksDirIn(context.cwd, context.env.PATCHGYM_TASKS, context.bundledTasks);
    plan.read.push(abs(tasksDir));
    // main.ts looks for ./tasks before the bundled ones; it may look, whatever it finds.
    plan.read.push(abs("tasks"));
    plan.workRoot = abs(flag("work-dir") ?? defaultWorkRoot(context.uid));
    readWrite(plan.workRoot);
    // main.ts works in the root's real path (a link on the way, such as a home under /data).
    const real = realPathAhead(plan.workRoot);
    if (real !== plan.workRoot) readWrite(real);
    readWrite(LEASE_DIR);
    plan.read.push(...SYSTEM_READ);
    // Built dependency environments: read to find them (the jail mounts them read-only).
    plan.read.push(abs(envCache()));
    // The spawner thread loads its modules (patchgym's own src/sandbox/).
    plan.read.push(...SPAWNER_MODULE_READS);
  };
  const envCache = () =>
    flag("env-cache") ?? context.env.PATCHGYM_ENV_CACHE ??
      join(context.env.HOME || "/tmp", ".cache", "patchgym", "env");
  const endpoint = () =>
    host(flag("base-url") ?? context.env.PATCHGYM_BASE_URL ?? context.env.OPENAI_BASE_URL);
  // `--queue redis://HOST:PORT`: that Redis; `--ray ADDRESS`: the driver's Python, which talks
  // to the cluster itself.
  const scaling = () => {
    const queue = redisHostOf(flag("queue"));
    if (queue) plan.net.push(queue);
    read(flag("queue-key"));
    if (flag("ray")) {
      run.push(flag("ray-python") ?? context.env.PATCHGYM_RAY_PYTHON ?? "python3");
    }
  };
  const run: string[] = [];
  switch (command) {
    case "rollout": {
      environment();
      read(flag("script"));
      const resume = flag("resume");
      if (resume) {
        readWrite(resume);
        const saved = savedRun(abs(resume));
        read(saved.script ?? undefined);
        host(saved.base_url ?? undefined);
      } else {
        readWrite(flag("out") ?? "runs");
        endpoint();
      }
      scaling();
      // Worker threads (--workers) load their modules: patchgym's own source.
      plan.read.push(...POOL_MODULE_READS);
      break;
    }
    case "worker":
      environment();
      endpoint();
      scaling();
      break;
    case "tasks":
      if (positionals[0] === "stats") {
        read(positionals[1]);
        readWrite(flag("write"));
        break;
      }
      plan.read.push(
        abs(
          flag("tasks-dir") ??
            defaultTasksDirIn(context.cwd, context.env.PATCHGYM_TASKS, context.bundledTasks),
        ),
        abs("tasks"),
      );
      break;
    case "validate":
      environment();
      break;
    case "serve": {
      environment();
      readWrite(flag("out"));
      // The address `--http` listens on; port 0 (any free port) needs the host as a whole.
      const address = /^\[?([^\]]+?)\]?:(\d+)$/.exec(flag("http") ?? "");
      if (address) plan.net.push(address[2] === "0" ? address[1] : `${address[1]}:${address[2]}`);
      if (address) {
        read(flag("cert"));
        read(flag("key"));
        // The tokens: the file given, else (no PATCHGYM_TOKEN, no --no-auth) the one made at
        // start and written to ~/.patchgym/token.
        const tokenFile = flag("token-file");
        if (tokenFile) read(tokenFile);
        else if (!context.env.PATCHGYM_TOKEN && !rest.includes("--no-auth") && context.env.HOME) {
          readWrite(join(context.env.HOME, ".patchgym"));
        }
      }
      break;
    }
    case "doctor":
      environment();
      endpoint();
      scaling();
      break;
    case "score":
      environment();
      read(flag("patch"));
      break;
    case "import":
      read(positionals[1]);
      read(flag("repos"));
      readWrite(flag("out"));
      // Real SWE-bench records: their commits are read from the clones with git.
      if (flag("repos")) run.push("git");
      if (values.validate) {
        // Build each task's environment, then validate it.
        environment();
        readWrite(envCache());
        run.push(jailPython());
      }
      break;
    case "synth":
      environment();
      readWrite(flag("out"));
      read(flag("repo"));
      read(flag("curated"));
      host(flag("base-url"));
      // A repository seed's declarations are read with the jail's python3 (parsing only).
      if (flag("repo")) run.push(jailPython());
      // The bundled tasks, whose reference fixes are kept out by default.
      plan.read.push(context.bundledTasks);
      break;
    case "env": {
      // Task folders, tasks folders or repositories: read, and the lock written beside them.
      for (const path of positionals.slice(1)) readWrite(path);
      readWrite(flag("lock"));
      readWrite(envCache());
      plan.read.push(...SYSTEM_READ);
      // The python3 the jail runs, for pip, and npm for Node projects (outside the jail:
      // installing needs the index); node only to read its version; deno for Deno projects.
      run.push(jailPython(), ...nodePrograms(), Deno.execPath());
      break;
    }
    case "mine": {
      // The clone (git reads it), the tasks written, the scratch root, environments built.
      read(positionals[0]);
      environment();
      readWrite(flag("out"));
      readWrite(envCache());
      endpoint();
      // git reads the history; environments as "env build" makes them (pip's python3, npm and
      // node for Node projects, deno for Deno projects).
      run.push("git", jailPython(), ...nodePrograms(), Deno.execPath());
      break;
    }
    case "export": {
      read(positionals[0]);
      const out = flag("out");
      if (out && out !== "-") plan.write.push(abs(out));
      break;
    }
    case "show":
      read(positionals[0]);
      break;
    case "report": {
      const run = positionals[0];
      if (run) {
        read(run);
        const dir = isDirectory(abs(run)) ? abs(run) : dirname(abs(run));
        plan.write.push(join(dir, "report.html"));
      }
      break;
    }
  }
  const out: PermissionPlan = {
    read: unique(plan.read),
    write: unique(plan.write),
    net: unique(plan.net),
  };
  if (run.length > 0) out.run = unique(run);
  if (plan.workRoot) out.workRoot = plan.workRoot;
  return out;
}

/**
 * The real path `path` has or will have once made: its nearest existing folder's real path, and
 * the rest as it is; `path` itself where that cannot be read.
 */
function realPathAhead(path: string): string {
  let rest = "";
  for (let at = path;; at = dirname(at)) {
    try {
      return join(Deno.realPathSync(at), rest);
    } catch {
      if (at === dirname(at)) return path;
      rest = join(basename(at), rest);
    }
  }
}

/** The interpreter `env build` installs for: the first `python3` on the children's PATH. */
function jailPython(): string {
  return findProgram("python3")?.path ?? "python3";
}

/** `npm` and `node` on the children's PATH, for `env build` of Node projects (when installed). */
function nodePrograms(): string[] {
  return ["npm", "node"].flatMap((name) => findProgram(name)?.path ?? []);
}

/**
 * The `deno run` permission flags of a plan; children start through `launcher` (the compiled
 * launcher's absolute path, see `src/sandbox/launcher.ts`), or `sh` when there is none. `programs`
 * is the prepared programs folder (`src/sandbox/program_folder.ts`), which the orchestrator reads,
 * with the cache folder above it, to check before it binds it into jails.
 */
export function permissionFlags(
  plan: PermissionPlan,
  options: { launcher?: string | null; programs?: string | null } = {},
): string[] {
  const flags = ["--no-prompt"];
  const read = options.programs ? [...plan.read, dirname(options.programs)] : plan.read;
  if (read.length) flags.push(`--allow-read=${read.join(",")}`);
  if (plan.write.length) flags.push(`--allow-write=${plan.write.join(",")}`);
  const launcher = options.launcher ?? FALLBACK_LAUNCHER;
  flags.push(`--allow-run=${[launcher, ...(plan.run ?? [])].join(",")}`);
  flags.push(`--allow-env=${ALLOWED_ENV.join(",")}`, SYS_FLAG);
  if (plan.net.length) flags.push(`--allow-net=${plan.net.join(",")}`);
  return flags;
}

/** `host` or `host:port` of an http(s) URL, or null for anything else. */
export function hostOf(url: string | undefined | null): string | null {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  try {
    const parsed = new URL(url);
    return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname;
  } catch {
    return null;
  }
}

/** `host:port` of a `redis://` or `rediss://` URL (port 6379 when absent), or null. */
export function redisHostOf(url: string | undefined): string | null {
  if (!url || !/^rediss?:\/\//i.test(url)) return null;
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || "6379"}`;
  } catch {
    return null;
  }
}

/** The default tasks folder (see `defaultTasksDir` in `_paths.ts`) as seen from `cwd`. */
function defaultTasksDirIn(cwd: string, envValue: string | undefined, bundled: string): string {
  if (envValue) return envValue;
  return existsSync(join(cwd, "tasks")) ? "tasks" : bundled;
}

/** The script and endpoint a run folder's run.json names; nothing when it cannot be read. */
function savedRun(dir: string): { script: string | null; base_url: string | null } {
  try {
    const config = JSON.parse(readFileSync(join(dir, "run.json"), "utf8"));
    const policy = config?.policy ?? {};
    return {
      script: typeof policy.script === "string" ? policy.script : null,
      base_url: typeof policy.base_url === "string" ? policy.base_url : null,
    };
  } catch {
    // main.ts reports a missing or broken run.json with the fix.
    return { script: null, base_url: null };
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
