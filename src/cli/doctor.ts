/**
 * `doctor`: what this machine gives patchgym: Deno version, isolation level (bwrap, rlimits,
 * cgroups) and what holds for children, the jail's mount plan, the test runners as children see
 * them, the Deno permissions in force, and whether the configured model endpoint answers.
 */
import { exitOnSignal } from "../workspace/root.ts";
import { removeTree } from "../workspace/remove.ts";
import { describeMounts } from "../sandbox/mounts.ts";
import { guarantees, missingGuarantees, sandboxSummary } from "../sandbox/sandbox.ts";
import { WAIT_GUARD } from "../sandbox/run_clock.ts";
import { DEFAULT_QUEUE_NAME, JobQueue } from "../rollout/queue.ts";
import { checkScheme, fetchProblem } from "../policy/probe.ts";
import { VERSION } from "../version.ts";
import { env, parseFlags, printJson } from "./_args.ts";
import { ENVIRONMENT_FLAGS, openEnvironment } from "./_environment.ts";

const HELP = `patchgym doctor: report the environment patchgym runs in

Usage: patchgym doctor [--json] [--base-url URL] [--isolation auto|bwrap|none]
                      [--queue redis://HOST:PORT] [--ray ADDRESS [--ray-python PATH]]

  --queue URL        check the Redis queue of "rollout --queue" / "worker --queue": version,
                     round trip, jobs waiting and running, workers
  --ray ADDRESS      check the Ray cluster of "rollout --ray" through "PYTHON -m patchgym.ray
                     check": Ray version, nodes alive, CPUs (needs --allow-run for that Python)
`;

/** Run the `doctor` command; exits 1 when something needed is missing. */
export async function doctorCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("doctor", args, {
    json: { type: "boolean" },
    "base-url": { type: "string" },
    queue: { type: "string" },
    "queue-name": { type: "string" },
    ray: { type: "string" },
    "ray-python": { type: "string" },
    ...ENVIRONMENT_FLAGS,
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  // Ctrl-C exits at once, through the exit hook that removes this process's workspace folder.
  exitOnSignal("SIGINT");
  const environment = await openEnvironment(values);
  const scratch = await Deno.makeTempDir({ dir: environment.workRoot, prefix: "doctor-" });
  const probe = async (argv: string[]) => {
    try {
      const r = await environment.sandbox.run({ argv, cwd: scratch, timeoutMs: 10_000 });
      return r.exitCode === 0 ? (r.stdout || r.stderr).trim().split("\n")[0] : null;
    } catch {
      return null;
    }
  };
  // A real run, as a test run starts: whether it was forked from the warm interpreter, and if not why.
  const pythonRuns = async (): Promise<{ warm: boolean; detail: string }> => {
    const eligible = environment.isolation.level === "bwrap" &&
      environment.isolation.users !== null &&
      !!environment.isolation.launcher;
    let warm = false;
    try {
      const r = await environment.sandbox.run({
        argv: ["python3", "-I", "-B", "-u", "-c", "import unittest"],
        cwd: scratch,
        timeoutMs: 10_000,
        warm: true,
      });
      warm = r.warm && r.exitCode === 0;
    } catch {
      // Said below.
    }
    if (warm) {
      return {
        warm,
        detail:
          "forked from the warm interpreter (root, bwrap, the compiled launcher); --cold-python starts them in their jails",
      };
    }
    return {
      warm,
      detail: values["cold-python"]
        ? "started in their jails (--cold-python)"
        : eligible
        ? "started in their jails: the warm interpreter could not start one here (see docs/sandbox.md, Warm Python runs)"
        : "started in their jails (a warm interpreter needs root, bwrap and the compiled launcher)",
    };
  };
  // Two commands, as an episode runs them: whether the second one's jail was made ahead.
  const commandJails = async (): Promise<{ ahead: boolean; detail: string }> => {
    const cleanups: (() => Promise<void>)[] = [];
    const owner = { onRemove: (cleanup: () => Promise<void>) => void cleanups.push(cleanup) };
    let ahead = false;
    try {
      for (let i = 0; i < 2; i++) {
        const r = await environment.sandbox.run({
          argv: ["true"],
          cwd: scratch,
          timeoutMs: 10_000,
          ahead: owner,
        });
        ahead = r.ahead && r.exitCode === 0;
        await environment.sandbox.aheadReady();
      }
    } catch {
      // Said below.
    } finally {
      await Promise.all(cleanups.map((cleanup) => cleanup()));
    }
    const eligible = environment.isolation.level === "bwrap" && !!environment.isolation.launcher;
    return {
      ahead,
      detail: ahead
        ? "each made ahead, while the model answers (bwrap, the compiled launcher); --on-demand-jails makes each when it comes"
        : values["on-demand-jails"]
        ? "each made when it comes (--on-demand-jails)"
        : eligible
        ? "each made when it comes: none made ahead could be used here (see docs/sandbox.md, Jails made ahead)"
        : "each made when it comes (made ahead needs bwrap and the compiled launcher)",
    };
  };
  // Real runs read what the launcher's `waited` reads: whether a run's waits for a CPU are known.
  const timeouts = async (): Promise<{ own_time: boolean; detail: string }> => {
    const schedstat = await probe(["cat", "/proc/self/schedstat"]);
    const tasks = schedstat !== null && /^\d+ \d+ \d+$/.test(schedstat);
    const machine = (await probe(["cat", "/proc/stat"]))?.startsWith("cpu ") ?? false;
    const counted = !!environment.isolation.cgroup?.cpu;
    const given =
      `in each run's own time: its waits for a CPU are given back, up to ${WAIT_GUARD}x the timeout`;
    return {
      own_time: counted && (tasks || machine),
      detail: !counted
        ? "wall-clock time: no cgroup counts a run's CPU time here (see docs/sandbox.md, A run's own time), so a busy machine can time out honest runs"
        : tasks && machine
        ? given
        : tasks
        ? `${given} (without /proc/stat here, the waits of threads and children that ended are lost)`
        : machine
        ? `${given}, from the machine's idle time only (/proc/PID/schedstat is missing: a kernel without CONFIG_SCHED_INFO)`
        : "wall-clock time: neither /proc/PID/schedstat nor /proc/stat can be read here, so a busy machine can time out honest runs",
    };
  };
  const report = {
    patchgym: VERSION,
    deno: Deno.version.deno,
    compiled: Deno.build.standalone,
    isolation: environment.isolation.level,
    isolation_note: environment.isolation.reason ?? null,
    rlimits: environment.isolation.rlimits,
    sandbox: sandboxSummary(environment.isolation),
    guarantees: {
      ...guarantees(environment.isolation),
      missing: missingGuarantees(environment.isolation),
    },
    environment_errors: await environment.runnerProblems(safeIds(() => environment.taskIds())),
    cgroup: environment.isolation.cgroup
      ? `v${environment.isolation.cgroup.version}: pids ${environment.isolation.cgroup.pids}, memory ${
        environment.isolation.cgroup.memory ?? "none"
      }, CPU time ${environment.isolation.cgroup.cpu ?? "not counted"}`
      : null,
    cgroup_note: environment.isolation.cgroupReason ?? null,
    mounts: environment.isolation.mounts
      ? [
        ...describeMounts(environment.isolation.mounts),
        `ro   ${environment.sandbox.denoPath} (deno, for deno runs only)`,
      ]
      : null,
    missing_programs: environment.isolation.mounts?.missing ?? [],
    runners: {
      python3: await probe(["python3", "--version"]),
      unittest: await probe(["python3", "-c", "import unittest; print('unittest ok')"]),
      pytest: await probe([
        "python3",
        "-c",
        "import pytest; print('pytest ' + pytest.__version__)",
      ]),
      deno_test: await probe(["deno", "--version"]),
      node_test: await probe(["node", "--version"]),
      jest: "from each task's npm environment (jest 29, patchgym env build)",
    },
    python_runs: await pythonRuns(),
    command_jails: await commandJails(),
    timeouts: await timeouts(),
    network_in_sandbox: environment.isolation.level === "bwrap"
      ? "none (own network namespace)"
      : "host network (no bwrap)",
    permissions: await permissions(environment.workRoot),
    model_endpoint: await endpoint(
      values["base-url"] ?? env("PATCHGYM_BASE_URL") ?? env("OPENAI_BASE_URL"),
    ),
    tasks: safeCount(() => environment.taskIds().length),
    queue: values.queue ? await queueCheck(values.queue, values["queue-name"]) : null,
    ray: values.ray
      ? await rayCheck(values.ray, values["ray-python"] ?? env("PATCHGYM_RAY_PYTHON") ?? "python3")
      : null,
  };
  await removeTree(scratch);
  const problems: string[] = [];
  if (report.isolation !== "bwrap") {
    problems.push("no bwrap jail: agent code runs with your user's access (install bubblewrap)");
  }
  const warnings: string[] = [];
  problems.push(...report.environment_errors);
  if (!report.cgroup) {
    warnings.push(
      `no per-sandbox cgroups (${report.cgroup_note}): a fork bomb or memory hog is not contained${
        report.sandbox.process_cap === "rlimit" ? " beyond RLIMIT_NPROC for your user" : ""
      }`,
    );
  }
  if (!report.python_runs.warm && report.python_runs.detail.includes("could not start")) {
    warnings.push(`Python test runs ${report.python_runs.detail}`);
  }
  if (!report.command_jails.ahead && report.command_jails.detail.includes("could be used")) {
    warnings.push(`command jails: ${report.command_jails.detail}`);
  }
  if (!report.timeouts.own_time) warnings.push(`timeouts: ${report.timeouts.detail}`);
  if (!report.runners.python3) {
    problems.push("python3 not found for children: Python tasks cannot run");
  }
  if (!report.runners.deno_test) {
    problems.push("deno not found for children: TypeScript tasks cannot run (set PATCHGYM_DENO)");
  }
  if (report.model_endpoint.configured && !report.model_endpoint.reachable) {
    problems.push(`model endpoint not reachable: ${report.model_endpoint.detail}`);
  }
  if (report.queue && !report.queue.reachable) {
    problems.push(`queue not reachable: ${report.queue.detail}`);
  }
  if (report.ray && !report.ray.reachable) {
    problems.push(`Ray cluster not usable: ${report.ray.detail}`);
  }
  if (values.json) {
    printJson({ ...report, problems, warnings });
  } else {
    const r = report.runners;
    console.log([
      `patchgym ${report.patchgym} on Deno ${report.deno}${
        report.compiled ? " (compiled binary)" : ""
      }`,
      `isolation      ${report.isolation}${
        report.isolation_note ? ` (${report.isolation_note})` : ""
      }; rlimits ${
        report.rlimits ? "on" : "off"
      }; network in sandbox: ${report.network_in_sandbox}`,
      `children       files ${report.sandbox.filesystem}; uid ${report.sandbox.uid}; processes capped by ${report.sandbox.process_cap}; memory capped by ${report.sandbox.memory_cap}; kill takes down the ${
        report.sandbox.kill === "sandbox" ? "whole sandbox" : "process group"
      }`,
      `cgroups        ${report.cgroup ?? `none (${report.cgroup_note})`}`,
      `mode           ${report.guarantees.mode}`,
      ...report.guarantees.holds.map((h) => `  holds         ${h}`),
      ...report.guarantees.missing.map((m) => `  DOES NOT hold ${m}`),
      ...(report.mounts
        ? [
          "mount plan     (plus the workspace rw, fresh /tmp, /dev, /proc, /etc/passwd and /etc/group)",
          ...report.mounts.map((m) => `  ${m}`),
        ]
        : []),
      `python3        ${r.python3 ?? "NOT FOUND"}`,
      `unittest       ${r.unittest ?? "NOT FOUND"}`,
      `pytest         ${r.pytest ?? "not installed (pytest tasks unavailable)"}`,
      `python runs    ${report.python_runs.detail}`,
      `command jails  ${report.command_jails.detail}`,
      `timeouts       ${report.timeouts.detail}`,
      `deno (tests)   ${r.deno_test ?? "NOT FOUND"}`,
      `node (tests)   ${r.node_test ?? "not installed (JavaScript tasks unavailable)"}`,
      `jest           ${r.node_test ? r.jest : "needs node (jest tasks unavailable)"}`,
      `permissions    ${Object.entries(report.permissions).map(([k, v]) => `${k}=${v}`).join(" ")}`,
      `model endpoint ${
        report.model_endpoint.configured
          ? `${report.model_endpoint.url}: ${
            report.model_endpoint.reachable ? "reachable" : "NOT reachable"
          } (${report.model_endpoint.detail})${
            report.model_endpoint.reachable
              ? `; --api ${
                report.model_endpoint.apis.join(", ")
              } (${report.model_endpoint.api_note})`
              : ""
          }`
          : "not configured (rollout uses the reference policy)"
      }`,
      `tasks          ${report.tasks}`,
      ...(report.queue
        ? [
          `queue          ${report.queue.url}: ${
            report.queue.reachable ? "" : "NOT reachable: "
          }${report.queue.detail}`,
        ]
        : []),
      ...(report.ray
        ? [
          `ray            ${report.ray.address}: ${
            report.ray.reachable ? "" : "NOT usable: "
          }${report.ray.detail}`,
        ]
        : []),
      ...warnings.map((w) => `warning: ${w}`),
      ...problems.map((p) => `problem: ${p}`),
    ].join("\n"));
  }
  return problems.some((p) => !p.startsWith("no bwrap")) ? 1 : 0;
}

/**
 * Each permission as `all`, `scoped` (granted for the targets patchgym needs, not in general) or
 * `none`. Deno answers "prompt" for a partly granted permission, so specific targets are asked too.
 */
async function permissions(workRoot: string): Promise<Record<string, string>> {
  const targeted: Record<string, Deno.PermissionDescriptor> = {
    read: { name: "read", path: workRoot },
    write: { name: "write", path: workRoot },
    run: { name: "run", command: "sh" },
    env: { name: "env", variable: "PATCHGYM_BASE_URL" },
    net: { name: "net", host: "127.0.0.1" },
  };
  const out: Record<string, string> = {};
  for (const name of ["read", "write", "run", "env", "net", "ffi", "sys"] as const) {
    if ((await Deno.permissions.query({ name })).state === "granted") out[name] = "all";
    else if (targeted[name] && (await Deno.permissions.query(targeted[name])).state === "granted") {
      out[name] = "scoped";
    } else out[name] = "none";
  }
  return out;
}

async function endpoint(url: string | undefined) {
  if (!url) {
    return { configured: false, url: null, reachable: false, detail: "", apis: [], api_note: "" };
  }
  const base = url.replace(/\/+$/, "");
  const scheme = checkScheme(base);
  if (scheme) {
    return {
      configured: true,
      url: base,
      reachable: false,
      detail: scheme,
      apis: [],
      api_note: "",
    };
  }
  try {
    const response = await fetch(`${base}/models`, { signal: AbortSignal.timeout(5000) });
    const text = await response.text().catch(() => "");
    const listed = modelIds(text);
    const tokens = response.ok ? await tokenizesMessages(base) : { ok: false, note: "" };
    const detail = response.ok && listed
      ? `GET ${base}/models -> HTTP ${response.status}, models: ${listed}`
      : response.ok
      ? `GET ${base}/models -> HTTP ${response.status}, but not an OpenAI model list ("${
        text.replace(/\s+/g, " ").trim().slice(0, 60)
      }"); point --base-url at the OpenAI-compatible prefix (usually ending in /v1)`
      : `GET ${base}/models -> HTTP ${response.status}${
        text ? ` "${text.replace(/\s+/g, " ").trim().slice(0, 60)}"` : ""
      }; point --base-url at the OpenAI-compatible prefix (usually ending in /v1)`;
    return {
      configured: true,
      url: base,
      reachable: response.ok && listed !== null,
      detail,
      apis: response.ok && listed !== null ? (tokens.ok ? ["chat", "tokens"] : ["chat"]) : [],
      api_note: tokens.note,
    };
  } catch (error) {
    return {
      configured: true,
      url: base,
      reachable: false,
      detail: `GET ${base}/models: ${fetchProblem(error, new URL(base), 5000)}`,
      apis: [],
      api_note: "",
    };
  }
}

/** The model ids of an OpenAI `GET /models` answer, comma-separated; null if it is not one. */
function modelIds(text: string): string | null {
  try {
    const data = JSON.parse(text)?.data;
    if (!Array.isArray(data)) return null;
    const ids = data.map((m) => String(m?.id ?? "?"));
    return ids.length ? ids.slice(0, 5).join(", ") + (ids.length > 5 ? ", ..." : "") : "(none)";
  } catch {
    return null;
  }
}

/**
 * Whether `--api tokens` can work: the server's `/tokenize` (at the root, beside `/v1`) must
 * render chat messages with the template, as vLLM's does (SGLang's takes text only).
 */
async function tokenizesMessages(base: string): Promise<{ ok: boolean; note: string }> {
  const url = `${base.replace(/\/v1$/, "")}/tokenize`;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
      signal: AbortSignal.timeout(5000),
    });
    const body = await response.json().catch(() => null);
    const ok = response.ok && Array.isArray(body?.tokens);
    return {
      ok,
      note: ok
        ? "POST /tokenize renders chat messages"
        : `POST /tokenize with chat messages -> HTTP ${response.status}`,
    };
  } catch (error) {
    return { ok: false, note: `POST /tokenize: ${(error as Error).message}` };
  }
}

/** Whether the Redis queue at `url` answers, and what it holds. */
async function queueCheck(url: string, name = DEFAULT_QUEUE_NAME) {
  let queue: JobQueue | null = null;
  try {
    queue = await JobQueue.connect(url, name);
    const { version, ms } = await queue.ping();
    const { waiting, running } = await queue.counts();
    const workers = (await queue.consumers()).length;
    return {
      url,
      reachable: true,
      detail: `redis ${version}, round trip ${
        ms.toFixed(1)
      } ms; queue "${name}": ${waiting} job(s) waiting, ${running} running, ${workers} worker slot(s) known`,
    };
  } catch (error) {
    return { url, reachable: false, detail: (error as Error).message };
  } finally {
    await queue?.close();
  }
}

/** Whether `python -m patchgym.ray check` reaches the Ray cluster at `address`. */
async function rayCheck(address: string, python: string) {
  try {
    const { code, stdout, stderr } = await new Deno.Command(python, {
      args: ["-m", "patchgym.ray", "check", "--address", address],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(stdout).trim().split("\n").pop() ?? "";
    if (code !== 0) {
      const err = new TextDecoder().decode(stderr).trim().split("\n").pop();
      return { address, reachable: false, detail: `${python} -m patchgym.ray check: ${err}` };
    }
    const info = JSON.parse(text);
    return {
      address,
      reachable: true,
      detail:
        `Ray ${info.ray}, ${info.nodes} node(s) alive, ${info.cpus} CPU(s), ${info.free_cpus} free`,
    };
  } catch (error) {
    return {
      address,
      reachable: false,
      detail: `cannot run "${python} -m patchgym.ray": ${
        (error as Error).message
      }; install Ray and clients/python for it, pass --ray-python, and allow running it`,
    };
  }
}

function safeCount(fn: () => number): number | string {
  try {
    return fn();
  } catch (error) {
    return (error as Error).message;
  }
}

function safeIds(list: () => string[]): string[] {
  try {
    return list();
  } catch {
    return [];
  }
}
