/**
 * Trainer-driven mode: a JSON-lines protocol for trainers that keep token-level control. The
 * trainer samples the model itself and sends each assistant message; patchgym executes its tool
 * call through the same {@linkcode Episode} the batch loop uses and answers with the observation.
 *
 *   {"op":"reset","task_id":ID,"seed":N}          -> {"episode_id","messages","tools"}
 *   {"op":"step","episode_id":E,"message":{...}}  -> {"observation":[...],"done","reward","info"}
 *   {"op":"close","episode_id":E}                 -> {"closed":true}
 *
 * A request may carry an "id", echoed in its answer. A bad line answers
 * {"error":{"code","message"}} and the server keeps going. The client cannot exhaust the server:
 * nesting is checked before parsing, open episodes are capped, and episodes left idle are closed
 * (line length is bounded by the reader, see `readLines`).
 */
import { z } from "zod";
import { Episode } from "../agent/episode.ts";
import { PatchgymError, TaskError } from "../errors.ts";
import { assistantTurn } from "../policy/assistant_turn.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { Environment } from "./environment.ts";
import { scanLine } from "./_json_depth.ts";
import type { LineEvent } from "./lines.ts";
import { scoreEpisode } from "./sample.ts";

const ToolCallSchema = z.object({
  id: z.string().optional(),
  type: z.literal("function").optional(),
  function: z.object({
    name: z.string(),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  }),
});

const RequestSchema = z.discriminatedUnion("op", [
  z.object({
    op: z.literal("reset"),
    id: z.unknown().optional(),
    task_id: z.string(),
    seed: z.number().int().optional(),
    max_turns: z.number().int().min(1).optional(),
    text_tool_calls: z.boolean().optional(),
  }),
  z.object({
    op: z.literal("step"),
    id: z.unknown().optional(),
    episode_id: z.string(),
    message: z.object({
      role: z.literal("assistant").default("assistant"),
      content: z.string().nullish(),
      tool_calls: z.array(ToolCallSchema).nullish(),
      reasoning_content: z.string().nullish(),
    }),
  }),
  z.object({ op: z.literal("close"), id: z.unknown().optional(), episode_id: z.string() }),
]);

/** Error codes of the protocol. */
export type ServeErrorCode =
  | "bad_json"
  | "bad_request"
  | "line_too_long"
  | "too_deep"
  | "too_many_episodes"
  | "unknown_task"
  | "unknown_episode"
  | "episode_expired"
  | "episode_done"
  | "internal";

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
  /** Clock in ms; tests swap it. */
  now?: () => number;
}

interface Session {
  episode: Episode;
  workspace: Workspace;
  /** Steps of one episode run one at a time. */
  queue: Promise<unknown>;
  /** When its last request started or ended (ms of the server's clock). */
  lastActive: number;
  /** Requests of this episode being handled now: a busy episode is never idle. */
  busy: number;
}

/** Ids of idle-closed episodes remembered, to answer `episode_expired` rather than unknown. */
const EXPIRED_REMEMBERED = 10_000;

/** Holds the open episodes of one server. */
export class EpisodeServer {
  readonly #env: Environment;
  readonly #sessions = new Map<string, Session>();
  readonly #expired = new Set<string>();
  readonly limits: ServerLimits;
  readonly #now: () => number;
  #counter = 0;

  constructor(env: Environment, options: ServerOptions = {}) {
    this.#env = env;
    const { now, ...limits } = options;
    this.limits = {
      ...DEFAULT_SERVER_LIMITS,
      ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
    };
    this.#now = now ?? (() => performance.now());
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
  async handle(line: string): Promise<Record<string, unknown>> {
    // Before JSON.parse: a deeply nested value parses, then overflows the stack when echoed.
    const scan = scanLine(line, this.limits.maxDepth);
    if (scan.tooDeep) {
      return {
        ...(scan.id === undefined ? {} : { id: scan.id }),
        ...failure(
          "too_deep",
          `Request nests arrays and objects deeper than ${this.limits.maxDepth} levels; flatten it`,
        ),
      };
    }
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (error) {
      return failure("bad_json", `Line is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = RequestSchema.safeParse(data);
    const id = typeof data === "object" && data !== null && "id" in data
      ? { id: (data as { id: unknown }).id }
      : {};
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ...id,
        ...failure(
          "bad_request",
          `${issue.path.join(".") || "request"}: ${issue.message}; ops are reset, step and close`,
        ),
      };
    }
    try {
      const request = parsed.data;
      if (request.op === "reset") return { ...id, ...this.#reset(request) };
      let session = this.#sessions.get(request.episode_id);
      // Checked here too, so that an expired episode never takes a step whatever the sweep timer.
      if (session && this.#isIdle(session)) {
        await this.#expire(request.episode_id, session);
        session = undefined;
      }
      if (!session) {
        if (this.#expired.has(request.episode_id)) {
          return {
            ...id,
            ...failure(
              "episode_expired",
              `Episode "${request.episode_id}" was closed after ${
                this.limits.idleTimeoutMs / 1000
              } s without a request (--idle-timeout); reset a new one`,
            ),
          };
        }
        return {
          ...id,
          ...failure(
            "unknown_episode",
            `No open episode "${request.episode_id}"; call reset first`,
          ),
        };
      }
      if (request.op === "close") {
        this.#sessions.delete(request.episode_id);
        await session.queue.catch(() => {});
        await session.workspace.remove();
        return { ...id, closed: true };
      }
      const active = session;
      active.busy++;
      active.lastActive = this.#now();
      const result = active.queue.then(() => this.#step(active, request.message));
      active.queue = result.catch(() => {});
      try {
        return { ...id, ...(await result) };
      } finally {
        active.busy--;
        active.lastActive = this.#now();
      }
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

  /**
   * Close the episodes idle for at least the idle timeout (none while a request of theirs runs)
   * and remove their workspaces. Returns their ids. A timer calls it; tests call it directly.
   */
  async reapIdle(): Promise<string[]> {
    const reaped: string[] = [];
    for (const [key, session] of this.#sessions) {
      if (this.#isIdle(session)) {
        await this.#expire(key, session);
        reaped.push(key);
      }
    }
    return reaped;
  }

  #isIdle(session: Session): boolean {
    return this.limits.idleTimeoutMs > 0 && session.busy === 0 &&
      this.#now() - session.lastActive >= this.limits.idleTimeoutMs;
  }

  async #expire(key: string, session: Session): Promise<void> {
    if (this.#sessions.get(key) !== session) return;
    this.#sessions.delete(key);
    this.#expired.add(key);
    if (this.#expired.size > EXPIRED_REMEMBERED) {
      this.#expired.delete(this.#expired.values().next().value!);
    }
    await session.queue.catch(() => {});
    await session.workspace.remove();
  }

  /** Close every open episode and remove its workspace. */
  async closeAll(): Promise<void> {
    for (const [key, session] of this.#sessions) {
      this.#sessions.delete(key);
      await session.queue.catch(() => {});
      await session.workspace.remove();
    }
  }

  #reset(
    request: { task_id: string; seed?: number; max_turns?: number; text_tool_calls?: boolean },
  ) {
    if (this.#sessions.size >= this.limits.maxEpisodes) {
      return failure(
        "too_many_episodes",
        `Cannot open another episode: ${this.#sessions.size} are open, the limit (--max-episodes); close finished episodes first`,
      );
    }
    const task = this.#env.task(request.task_id);
    const workspace = this.#env.newWorkspace(task);
    const episode = new Episode({
      task,
      workspace,
      runner: this.#env.runner,
      limits: this.#env.limits,
    }, {
      limits: request.max_turns ? { max_turns: request.max_turns } : undefined,
      textToolCalls: request.text_tool_calls,
    });
    const episodeId = `${task.spec.id}-${++this.#counter}-${crypto.randomUUID().slice(0, 8)}`;
    this.#sessions.set(episodeId, {
      episode,
      workspace,
      queue: Promise.resolve(),
      lastActive: this.#now(),
      busy: 0,
    });
    return {
      episode_id: episodeId,
      messages: episode.messages,
      tools: episode.schemas,
      seed: request.seed ?? null,
    };
  }

  async #step(
    session: Session,
    message: z.infer<typeof RequestSchema> & { op: "step" } extends { message: infer M } ? M
      : never,
  ) {
    const { episode } = session;
    if (episode.done) {
      return failure(
        "episode_done",
        `Episode already ended (${episode.stopReason}); close it and reset`,
      );
    }
    const limit = episode.limitReached();
    if (limit) {
      episode.stop(limit);
      return { observation: [], ...(await this.#finish(session)) };
    }
    const observation = await episode.act(
      assistantTurn(
        {
          content: message.content,
          tool_calls: message.tool_calls,
          reasoning: message.reasoning_content,
        },
        episode.turns.length,
        { tokens: null, usage: null, finish_reason: null, latency_ms: 0 },
      ),
    );
    const after = episode.limitReached();
    if (!episode.done && after) episode.stop(after);
    if (!episode.done) {
      const last = episode.turns[episode.turns.length - 1];
      return {
        observation,
        done: false,
        reward: null,
        info: {
          turn: last.index,
          tool: last.tool && { name: last.tool.name, ok: last.tool.ok, code: last.tool.code },
        },
      };
    }
    return { observation, ...(await this.#finish(session)) };
  }

  async #finish(session: Session) {
    const { episode, workspace } = session;
    const diff = await workspace.diff({ maxBytes: this.#env.limits.maxDiffBytes });
    const reward = await scoreEpisode(this.#env, episode.ctx.task, episode, diff);
    return {
      done: true,
      reward: reward.total,
      info: {
        stop_reason: episode.stopReason,
        ...(episode.error ? { error: episode.error } : {}),
        turns: episode.turns.length,
        resolved: reward.resolved,
        components: reward.components,
        final_diff: diff.patch,
      },
    };
  }
}

function failure(code: ServeErrorCode, message: string) {
  return { error: { code, message } };
}
