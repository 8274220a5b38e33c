/**
 * Trainer-driven mode, the protocol core behind `serve --stdio` and `serve --http`. The trainer
 * samples the model itself and sends each assistant message; patchgym advances the episode with
 * the same `step` and ends it with the same `finish` as the batch loop, so a trainer-driven
 * episode ends with the same graded trajectory record (written to the output folder when one is
 * given).
 *
 *   {"op":"reset","task_id":ID | "seed":N, "limits":{...}, "tool_calls":"native"|"text"}
 *        -> {"episode_id","task","messages","tools","limits"}
 *   {"op":"step","episode_id":E,"message":{...},"tokens":{...},"usage":{...}}
 *        -> {"observation":[...],"reward","done","terminated","truncated","stop_reason","info"}
 *           (+ "record" when done)
 *   {"op":"finish","episode_id":E}   grade now -> the final step answer (again if already done)
 *   {"op":"close","episode_id":E}    -> {"closed":true}; idempotent
 *   {"op":"state","episode_id":E}    -> {"episode_id","task_id","step_count","done",...}
 *   {"op":"tasks"}                   -> {"tasks":[{id,title,language,difficulty,kind,max_turns}]}
 *
 * A request may carry an "id", echoed in its answer (also in error answers when it can be read).
 * Errors answer {"error":{"code","message"}} and the server keeps going. The client cannot
 * exhaust the server: nesting is checked before parsing, open episodes are capped, and episodes
 * left idle are closed (line length is bounded by the reader, see `readLines`).
 */
import { Episode } from "../agent/episode.ts";
import { finish } from "../agent/finish.ts";
import { step } from "../agent/step.ts";
import { PatchgymError, TaskError } from "../errors.ts";
import { assistantTurn } from "../policy/assistant_turn.ts";
import type { TaskSpec } from "../task/spec.ts";
import type { SampleIdentity, TrajectoryRecord } from "../trajectory/record.ts";
import type { JsonlWriter } from "../trajectory/writer.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { Environment } from "../agent/environment.ts";
import { scanLine } from "./_json_depth.ts";
import type { LineEvent } from "../lines.ts";
import {
  type AssistantMessageInput,
  failure,
  firstIssue,
  OPS,
  type Request,
  RequestSchema,
  type ResetOptions,
  type ServeError,
} from "./protocol.ts";
import { parseJson } from "../well_formed.ts";
import { admitReset, type Principal } from "./auth.ts";

/**
 * Who sends a request, on an authenticated transport: its episodes are its own (another caller's
 * are unknown to it), and its quotas apply. Without one (stdio, tests), episodes have no owner.
 */
export type Caller = Principal;

/** What the OpenEnv and MCP framings need of a server, for one caller (see `EpisodeServer.as`). */
export interface Episodes {
  readonly limits: ServerLimits;
  request(data: unknown): Promise<Record<string, unknown>>;
  reset(options: ResetOptions): ResetAnswer | ServeError;
  tasks(): ReturnType<EpisodeServer["tasks"]>;
  stepEpisode(
    episodeId: string,
    message: AssistantMessageInput,
    generation?: Pick<Request & { op: "step" }, "tokens" | "usage" | "finish_reason">,
  ): Promise<StepAnswer | ServeError>;
  finishEpisode(episodeId: string): Promise<StepAnswer | ServeError>;
  stateOf(episodeId: string): Promise<Record<string, unknown> | ServeError>;
}

/** Bounds of one server. */
export interface ServerLimits {
  /** Episodes open at once; a reset beyond it is refused. */
  maxEpisodes: number;
  /** An episode with no request for this long is closed (0: never). */
  idleTimeoutMs: number;
  /** Deepest nesting of arrays and objects in a request line. */
  maxDepth: number;
}

/** Default {@linkcode ServerLimits}. */
export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  maxEpisodes: 256,
  idleTimeoutMs: 15 * 60_000,
  maxDepth: 64,
};

/** Options of an {@linkcode EpisodeServer}. */
export interface ServerOptions extends Partial<ServerLimits> {
  /** Clock in ms for idleness and episode limits; tests swap it. */
  now?: () => number;
  /** Where finished episodes' records are appended (one JSON line each). */
  writer?: JsonlWriter;
  /** `run_id` of the records (default `serve-<time>`). */
  runId?: string;
}

/** A task as listed and as described on reset. */
export interface TaskInfo {
  id: string;
  title: string;
  language: TaskSpec["language"];
  difficulty: TaskSpec["difficulty"];
  kind: TaskSpec["kind"];
  max_turns: number;
}

/** The answer to a reset. */
export interface ResetAnswer {
  episode_id: string;
  task: TaskInfo;
  messages: unknown[];
  tools: unknown[];
  seed: number | null;
  limits: {
    max_turns: number;
    max_total_tokens: number;
    max_tokens_per_turn: number;
    max_env_s: number;
  };
  tool_calls: "native" | "text";
}

/** The answer to a step, and to `finish`. */
export interface StepAnswer {
  observation: unknown[];
  /** 0 before the end; the graded total at the end (0 when grading failed, see `info.error`). */
  reward: number;
  done: boolean;
  /** The agent ended the episode (submitted). */
  terminated: boolean;
  /** A limit, an error or the trainer cut the episode off. */
  truncated: boolean;
  stop_reason: string | null;
  info: Record<string, unknown>;
  record?: TrajectoryRecord;
}

interface Session {
  id: string;
  /**
   * Its key in the server's maps: the id within its owner's own namespace, so that one caller can
   * neither learn that another's id is open (or was closed) nor take an id another will choose.
   */
  key: string;
  /** The caller that opened it (its name); undefined on a transport without callers. */
  owner: string | undefined;
  episode: Episode;
  workspace: Workspace;
  /** Requests of one episode run one at a time. */
  queue: Promise<unknown>;
  /** When its last request started or ended (ms of the server's clock). */
  lastActive: number;
  /** Requests of this episode being handled now: a busy episode is never idle. */
  busy: number;
  identity: SampleIdentity;
  startedAt: Date;
  /** The final answer, once finished. */
  final: StepAnswer | null;
  /** Aborted when the episode is closed: its runs still waiting for their turn never start. */
  stop: AbortController;
}

/** The shape of a task id: one folder name of the task store. */
const TASK_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** An episode id's key in a server's maps: within its caller's namespace (none: the id). */
function scopedKey(episodeId: string, caller: Caller | undefined): string {
  return caller ? `${caller.name}\u0000${episodeId}` : episodeId;
}

/** Ids of closed and idle-closed episodes remembered, to answer precisely. */
const REMEMBERED = 10_000;

/** Holds the open episodes of one server. */
export class EpisodeServer {
  readonly #env: Environment;
  readonly #sessions = new Map<string, Session>();
  readonly #expired = new Set<string>();
  /** Removals of expired episodes still running, by key. */
  readonly #expiring = new Map<string, Promise<void>>();
  readonly #closed = new Set<string>();
  readonly #samples = new Map<string, number>();
  readonly limits: ServerLimits;
  readonly #now: () => number;
  readonly #writer: JsonlWriter | undefined;
  readonly runId: string;
  #counter = 0;

  constructor(env: Environment, options: ServerOptions = {}) {
    this.#env = env;
    const { now, writer, runId, ...limits } = options;
    this.limits = {
      ...DEFAULT_SERVER_LIMITS,
      ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
    };
    this.#now = now ?? (() => performance.now());
    this.#writer = writer;
    this.runId = runId ?? `serve-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  }

  /** Number of open episodes. */
  get open(): number {
    return this.#sessions.size;
  }

  /** Answer one event of the line reader: a line, or one over the size cap. Never throws. */
  handleEvent(event: LineEvent): Promise<Record<string, unknown>> {
    if (event.kind === "line") return this.handle(event.text);
    const { id } = scanLine(event.head, this.limits.maxDepth);
    return Promise.resolve({
      ...(id === undefined ? {} : { id }),
      ...failure(
        "line_too_long",
        `Request line of ${event.bytes} bytes is over the limit (--max-line-bytes); send smaller requests`,
      ),
    });
  }

  /** Answer one request line. Never throws. */
  handle(line: string): Promise<Record<string, unknown>> {
    // Before JSON.parse: a deeply nested value parses, then overflows the stack when echoed.
    const scan = scanLine(line, this.limits.maxDepth);
    const scannedId = scan.id === undefined ? {} : { id: scan.id };
    if (scan.tooDeep) {
      return Promise.resolve({
        ...scannedId,
        ...failure(
          "too_deep",
          `Request nests arrays and objects deeper than ${this.limits.maxDepth} levels; flatten it`,
        ),
      });
    }
    let data: unknown;
    try {
      data = parseJson(line);
    } catch (error) {
      return Promise.resolve({
        ...scannedId,
        ...failure("bad_json", `Line is not valid JSON: ${(error as Error).message}`),
      });
    }
    return this.request(data);
  }

  /** This server as `caller` sees it: its own episodes, its quotas. */
  as(caller: Caller | undefined): Episodes {
    return {
      limits: this.limits,
      request: (data) => this.request(data, caller),
      reset: (options) => this.reset(options, caller),
      tasks: () => this.tasks(),
      stepEpisode: (id, message, generation) => this.stepEpisode(id, message, generation, caller),
      finishEpisode: (id) => this.finishEpisode(id, caller),
      stateOf: (id) => this.stateOf(id, caller),
    };
  }

  /** Episodes open now by the caller named `owner`. */
  openBy(owner: string): number {
    let n = 0;
    for (const session of this.#sessions.values()) if (session.owner === owner) n++;
    return n;
  }

  /** Answer one parsed request. Never throws. */
  async request(data: unknown, caller?: Caller): Promise<Record<string, unknown>> {
    const parsed = RequestSchema.safeParse(data);
    const rawId = typeof data === "object" && data !== null && "id" in data
      ? (data as { id: unknown }).id
      : undefined;
    const id = typeof rawId === "string" || typeof rawId === "number" ? { id: rawId } : {};
    if (!parsed.success) {
      return {
        ...id,
        ...failure("bad_request", `${firstIssue(parsed.error, data)}; ops are ${OPS}`),
      };
    }
    try {
      return { ...id, ...(await this.#dispatch(parsed.data, caller)) };
    } catch (error) {
      if (error instanceof TaskError) {
        return { ...id, ...failure("unknown_task", error.problems.join("; ")) };
      }
      if (error instanceof PatchgymError) return { ...id, ...failure("internal", error.message) };
      return {
        ...id,
        ...failure("internal", error instanceof Error ? error.message : String(error)),
      };
    }
  }

  async #dispatch(request: Request, caller: Caller | undefined): Promise<object> {
    if (request.op === "reset") return this.reset(request, caller);
    if (request.op === "tasks") return this.tasks();
    const found = await this.#session(request.episode_id, caller, request.op === "state");
    if ("error" in found) {
      if (request.op === "close" && this.#closed.has(scopedKey(request.episode_id, caller))) {
        return { closed: true };
      }
      return found;
    }
    const session = found;
    if (request.op === "close") {
      await this.#remove(session);
      this.#remember(this.#closed, session.key);
      return { closed: true };
    }
    if (request.op === "state") return this.#state(session);
    return await this.#queued(session, () => {
      if (request.op === "finish") return this.#finishNow(session);
      return this.#step(session, request.message, request);
    });
  }

  /**
   * The session of an open episode, or the error that says why there is none. Another caller's
   * episode is unknown (an observer may read any: `read`); an observer may act on none.
   */
  async #session(
    episodeId: string,
    caller: Caller | undefined,
    read = false,
  ): Promise<Session | ServeError> {
    if (caller?.role === "observe" && !read) return observerRefused();
    // An observer may read any caller's episode: the first open one of that id.
    const observer = read && caller?.role === "observe";
    let session = observer
      ? [...this.#sessions.values()].find((s) => s.id === episodeId)
      : this.#sessions.get(scopedKey(episodeId, caller));
    if (session && session.owner !== caller?.name && !observer) {
      // Never tell another caller that the id exists.
      return failure("unknown_episode", `No open episode "${episodeId}"; call reset first`);
    }
    // Checked here too, so that an expired episode never takes a step whatever the sweep timer.
    if (session && this.#isIdle(session)) {
      await this.#expire(session);
      session = undefined;
    } else if (session) return session;
    if (this.#expired.has(scopedKey(episodeId, caller))) {
      // The sweep timer may still be removing it: answer once its workspace is gone.
      await this.#expiring.get(scopedKey(episodeId, caller));
      return failure(
        "episode_expired",
        `Episode "${episodeId}" was closed after ${
          this.limits.idleTimeoutMs / 1000
        } s without a request (--idle-timeout); reset a new one`,
      );
    }
    return failure("unknown_episode", `No open episode "${episodeId}"; call reset first`);
  }

  /** Run `fn` after the episode's earlier requests, keeping it busy (never idle) meanwhile. */
  async #queued<T>(session: Session, fn: () => Promise<T>): Promise<T> {
    session.busy++;
    session.lastActive = this.#now();
    const result = session.queue.then(fn);
    session.queue = result.catch(() => {});
    try {
      return await result;
    } finally {
      session.busy--;
      session.lastActive = this.#now();
    }
  }

  /**
   * Open an episode: the task by id, or picked by `seed` from the sorted task list (a random seed
   * when neither is given). Answers the episode id, the task, the first messages, the tool
   * schemas, the seed and the limits in force.
   */
  reset(options: ResetOptions, caller?: Caller): ResetAnswer | ServeError {
    if (caller?.role === "observe") return observerRefused();
    if (caller && this.openBy(caller.name) >= caller.limits.sessions) {
      return failure(
        "over_quota",
        `Cannot open another episode: this token has ${
          this.openBy(caller.name)
        } open, its limit (sessions= in the token file); close finished episodes first`,
        1,
      );
    }
    if (this.#sessions.size >= this.limits.maxEpisodes) {
      return failure(
        "too_many_episodes",
        `Cannot open another episode: ${this.#sessions.size} are open, the limit (--max-episodes); close finished episodes first`,
      );
    }
    let taskId = options.task_id;
    let seed = options.seed;
    if (taskId === undefined) {
      // Neither a task nor a seed (OpenEnv's `reset()` with no arguments): a random seed, answered.
      seed ??= crypto.getRandomValues(new Uint32Array(1))[0];
      const ids = this.#env.taskIds();
      if (ids.length === 0) return failure("unknown_task", "The task folder has no tasks");
      taskId = ids[seed % ids.length];
    }
    // The id is what lets a request act on the episode: unguessable (a full random UUID).
    const episodeId = options.episode_id ?? `${taskId}-${++this.#counter}-${crypto.randomUUID()}`;
    const key = scopedKey(episodeId, caller);
    if (this.#sessions.has(key)) {
      return failure(
        "episode_exists",
        `Episode "${episodeId}" is open; choose another episode_id or close it first`,
      );
    }
    if (!TASK_ID_RE.test(taskId)) {
      // A task is named by its id in the task folder, never by a path (whose error would also
      // tell a caller where the server's folders are).
      return failure(
        "unknown_task",
        `No task ${
          JSON.stringify(taskId)
        }: a task id names a folder of the task store, not a path; GET /tasks lists them`,
      );
    }
    const task = this.#env.task(taskId);
    if (caller) {
      const wait = admitReset(caller, this.#now());
      if (wait !== null) {
        return failure(
          "over_quota",
          `Cannot reset: this token made ${caller.limits.resetsPerMinute} resets in the last minute, its limit (resets= in the token file); retry in ${wait} s`,
          wait,
        );
      }
    }
    const limits = options.limits ?? {};
    const environment = this.#env.environment(task);
    if (environment?.error) return failure("environment_error", environment.error);
    // A capped workspace is written in the background; the episode waits for it before its first
    // tool call (see Environment.newWorkspace).
    const workspace = this.#env.newWorkspace(task);
    const stop = new AbortController();
    const episode = new Episode({
      task,
      workspace,
      sandbox: this.#env.sandbox,
      limits: this.#env.limits,
      ...(environment ? { environment } : {}),
      signal: stop.signal,
    }, {
      limits: {
        max_turns: limits.max_turns ?? options.max_turns,
        max_total_tokens: limits.max_total_tokens,
        max_tokens_per_turn: limits.max_tokens_per_turn,
        max_wall_s: limits.max_env_s,
      },
      textToolCalls: options.tool_calls ? options.tool_calls === "text" : options.text_tool_calls,
      // The trainer's generation time between steps must not count against the episode.
      clock: "environment",
      now: this.#now,
    });
    const sample = options.sample ?? this.#nextSample(task.spec.id);
    this.#closed.delete(key);
    this.#expired.delete(key);
    this.#sessions.set(key, {
      id: episodeId,
      key,
      owner: caller?.name,
      episode,
      workspace,
      queue: Promise.resolve(),
      lastActive: this.#now(),
      busy: 0,
      identity: {
        run_id: this.runId,
        episode_id: episodeId,
        task_id: task.spec.id,
        sample,
        group_id: options.group_id ?? `${this.runId}/${task.spec.id}`,
      },
      startedAt: new Date(),
      final: null,
      stop,
    });
    return {
      episode_id: episodeId,
      task: taskInfo(task.spec, episode.limits.max_turns),
      messages: episode.messages,
      tools: episode.schemas,
      seed: seed ?? null,
      limits: {
        max_turns: episode.limits.max_turns,
        max_total_tokens: episode.limits.max_total_tokens,
        max_tokens_per_turn: episode.limits.max_tokens_per_turn,
        max_env_s: episode.limits.max_wall_s,
      },
      tool_calls: options.tool_calls ?? (options.text_tool_calls ? "text" : "native"),
    };
  }

  /** Every task of the task folder with its metadata; tasks that do not load are listed apart. */
  tasks(): { tasks: TaskInfo[]; invalid: { id: string; message: string }[] } {
    const tasks: TaskInfo[] = [];
    const invalid: { id: string; message: string }[] = [];
    for (const id of this.#env.taskIds()) {
      try {
        const { spec } = this.#env.task(id);
        tasks.push(taskInfo(spec, spec.limits.max_turns));
      } catch (error) {
        if (!(error instanceof TaskError)) throw error;
        invalid.push({ id, message: error.problems.join("; ") });
      }
    }
    return { tasks, invalid };
  }

  /** Take one step of an open episode (also used by the OpenEnv framing). */
  async stepEpisode(
    episodeId: string,
    message: AssistantMessageInput,
    generation: Pick<Request & { op: "step" }, "tokens" | "usage" | "finish_reason"> = {},
    caller?: Caller,
  ): Promise<StepAnswer | ServeError> {
    const found = await this.#session(episodeId, caller);
    if ("error" in found) return found;
    return this.#queued(found, () => this.#step(found, message, generation));
  }

  /** Grade an open episode now (also used by the OpenEnv framing). */
  async finishEpisode(episodeId: string, caller?: Caller): Promise<StepAnswer | ServeError> {
    const found = await this.#session(episodeId, caller);
    if ("error" in found) return found;
    return this.#queued(found, () => this.#finishNow(found));
  }

  /** The state of an open episode (also used by the OpenEnv framing). */
  async stateOf(
    episodeId: string,
    caller?: Caller,
  ): Promise<Record<string, unknown> | ServeError> {
    const found = await this.#session(episodeId, caller, true);
    return "error" in found ? found : this.#state(found);
  }

  /**
   * Close the episodes idle for at least the idle timeout (none while a request of theirs runs)
   * and remove their workspaces. Returns their ids. A timer calls it; tests call it directly.
   */
  async reapIdle(): Promise<string[]> {
    const reaped: string[] = [];
    for (const session of [...this.#sessions.values()]) {
      if (!this.#isIdle(session)) continue;
      try {
        await this.#expire(session);
      } catch (error) {
        // A timer calls this without waiting: a removal that throws must neither end the process
        // (an unhandled rejection) nor keep the other idle episodes open.
        console.error(`patchgym serve: removing idle episode ${session.id} failed: ${error}`);
        continue;
      }
      reaped.push(session.id);
    }
    return reaped;
  }

  /** Close every open episode and remove its workspace. */
  async closeAll(): Promise<void> {
    for (const session of [...this.#sessions.values()]) await this.#remove(session);
  }

  #isIdle(session: Session): boolean {
    return this.limits.idleTimeoutMs > 0 && session.busy === 0 &&
      this.#now() - session.lastActive >= this.limits.idleTimeoutMs;
  }

  async #expire(session: Session): Promise<void> {
    if (this.#sessions.get(session.key) !== session) return;
    this.#remember(this.#expired, session.key);
    const removal = this.#remove(session);
    this.#expiring.set(session.key, removal.catch(() => {}));
    try {
      await removal;
    } finally {
      this.#expiring.delete(session.key);
    }
  }

  async #remove(session: Session): Promise<void> {
    if (this.#sessions.get(session.key) === session) this.#sessions.delete(session.key);
    // A step whose run still waits for its turn answers `interrupted` instead of running it.
    session.stop.abort();
    await session.queue.catch(() => {});
    await session.workspace.remove();
  }

  #remember(set: Set<string>, id: string): void {
    set.add(id);
    if (set.size > REMEMBERED) set.delete(set.values().next().value!);
  }

  #nextSample(taskId: string): number {
    const n = this.#samples.get(taskId) ?? 0;
    this.#samples.set(taskId, n + 1);
    return n;
  }

  #state(session: Session): Record<string, unknown> {
    const { episode } = session;
    return {
      episode_id: session.id,
      task_id: session.identity.task_id,
      step_count: episode.turns.length,
      done: episode.done,
      stop_reason: episode.stopReason,
      context_tokens: episode.contextTokens,
      env_s: episode.envMs / 1000,
      max_turns: episode.limits.max_turns,
    };
  }

  async #step(
    session: Session,
    message: AssistantMessageInput,
    generation: Pick<Request & { op: "step" }, "tokens" | "usage" | "finish_reason">,
  ): Promise<StepAnswer | ServeError> {
    const { episode } = session;
    if (episode.done) {
      return failure(
        "episode_done",
        `Episode already ended (${episode.stopReason}); close it and reset`,
      );
    }
    const tokens = generation.tokens;
    const observation = await step(
      episode,
      assistantTurn(
        {
          content: textOf(message.content),
          tool_calls: message.tool_calls,
          reasoning: message.reasoning_content ?? message.reasoning,
        },
        episode.turns.length,
        {
          tokens: tokens
            ? {
              prompt_ids: tokens.prompt_ids ?? null,
              completion_ids: tokens.completion_ids ?? null,
              logprobs: tokens.logprobs ?? null,
            }
            : null,
          usage: generation.usage ?? null,
          finish_reason: generation.finish_reason ?? null,
          latency_ms: 0,
        },
      ),
    );
    if (!episode.done) {
      return {
        observation,
        reward: 0,
        done: false,
        terminated: false,
        truncated: false,
        stop_reason: null,
        info: this.#info(session, null),
      };
    }
    return { ...(await this.#finish(session)), observation };
  }

  async #finishNow(session: Session): Promise<StepAnswer> {
    session.episode.stop("finished");
    return await this.#finish(session);
  }

  /** Grade once and remember the answer: a later `finish` gets the same one. */
  async #finish(session: Session): Promise<StepAnswer> {
    if (session.final) return session.final;
    const { record } = await finish(session.episode, session.workspace, this.#env, {
      identity: session.identity,
      policy: { name: "trainer", model: null, sampling: {} },
      startedAt: session.startedAt,
    });
    await this.#writer?.write(record);
    const stop = record.stop_reason;
    session.final = {
      observation: [],
      reward: record.reward?.total ?? 0,
      done: true,
      terminated: stop === "submitted",
      truncated: stop !== "submitted",
      stop_reason: stop,
      info: this.#info(session, record),
      record,
    };
    return session.final;
  }

  /** The same keys before and at the end; the end's facts are null before it. */
  #info(session: Session, record: TrajectoryRecord | null): Record<string, unknown> {
    const { episode } = session;
    const last = episode.turns.at(-1);
    return {
      turn: last?.index ?? null,
      turns: episode.turns.length,
      tool: last?.tool
        ? {
          name: last.tool.name,
          ok: last.tool.ok,
          code: last.tool.code,
          output: last.tool.output,
          truncated: last.tool.truncated,
        }
        : null,
      context_tokens: episode.contextTokens,
      stop_reason: episode.stopReason,
      error: episode.error,
      resolved: record ? record.reward?.resolved ?? false : null,
      components: record?.reward?.components ?? null,
      tests: record?.reward?.tests ?? null,
      submission: episode.submission,
      final_diff: record ? record.final_diff : null,
    };
  }
}

function observerRefused(): ServeError {
  return failure(
    "forbidden",
    "This token may only observe (role=observe): it cannot open or act on episodes",
  );
}

function taskInfo(spec: TaskSpec, maxTurns: number): TaskInfo {
  return {
    id: spec.id,
    title: spec.title,
    language: spec.language,
    difficulty: spec.difficulty,
    kind: spec.kind,
    max_turns: maxTurns,
  };
}

/** A message's content as text: a string as is, the text parts of a list joined. */
function textOf(content: AssistantMessageInput["content"]): string | null {
  if (content === null || content === undefined || typeof content === "string") {
    return content ?? null;
  }
  const texts = content.filter((part) => typeof part.text === "string").map((part) => part.text);
  return texts.length > 0 ? texts.join("") : null;
}
