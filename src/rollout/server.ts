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
 * {"error":{"code","message"}} and the server keeps going.
 */
import { z } from "zod";
import { Episode } from "../agent/episode.ts";
import { PatchgymError, TaskError } from "../errors.ts";
import { assistantTurn } from "../policy/assistant_turn.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { Environment } from "./environment.ts";
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
  | "unknown_task"
  | "unknown_episode"
  | "episode_done"
  | "internal";

interface Session {
  episode: Episode;
  workspace: Workspace;
  /** Steps of one episode run one at a time. */
  queue: Promise<unknown>;
}

/** Holds the open episodes of one server. */
export class EpisodeServer {
  readonly #env: Environment;
  readonly #sessions = new Map<string, Session>();
  #counter = 0;

  constructor(env: Environment) {
    this.#env = env;
  }

  /** Number of open episodes. */
  get open(): number {
    return this.#sessions.size;
  }

  /** Answer one request line. Never throws. */
  async handle(line: string): Promise<Record<string, unknown>> {
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
      const session = this.#sessions.get(request.episode_id);
      if (!session) {
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
      const result = session.queue.then(() => this.#step(session, request.message));
      session.queue = result.catch(() => {});
      return { ...id, ...(await result) };
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
    const task = this.#env.task(request.task_id);
    const workspace = this.#env.newWorkspace(task);
    const episode = new Episode({ task, workspace, runner: this.#env.runner }, {
      limits: request.max_turns ? { max_turns: request.max_turns } : undefined,
      textToolCalls: request.text_tool_calls,
    });
    const episodeId = `${task.spec.id}-${++this.#counter}-${crypto.randomUUID().slice(0, 8)}`;
    this.#sessions.set(episodeId, { episode, workspace, queue: Promise.resolve() });
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
    const diff = workspace.diff();
    const reward = await scoreEpisode(this.#env, episode.ctx.task, episode, diff.patch);
    return {
      done: true,
      reward: reward.total,
      info: {
        stop_reason: episode.stopReason,
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
