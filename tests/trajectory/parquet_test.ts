import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parquetMetadata, parquetReadObjects, parquetSchema, type SchemaTree } from "hyparquet";
import { exportTrajectories, type SftRow, toSft } from "../../src/trajectory/export.ts";
import { MESSAGE_FIELDS, sftParquet } from "../../src/trajectory/parquet.ts";
import { qwen3, renderQwen3, type TemplateMessage } from "../_qwen3_server.ts";
import { TRAINER_VENV, writeQwen3Tokenizer } from "../_venv.ts";
import { fakeRecord, qwen3Conversation } from "./_records.ts";

const RECORD = fakeRecord({ episode: "e1", group: "g1", sample: 0, resolved: true, tokens: [] });

/** The rows of a Parquet file as a reader sees them. */
async function readBack(bytes: Uint8Array): Promise<Record<string, unknown>[]> {
  return await parquetReadObjects({ file: bytes.slice().buffer });
}

/** The message as pyarrow reads it back: every field of the struct, null where it was absent. */
function withNulls(message: object): TemplateMessage {
  return Object.fromEntries(
    MESSAGE_FIELDS.map((f) => [f, (message as Record<string, unknown>)[f] ?? null]),
  );
}

Deno.test("sftParquet() keeps every message field and the tools as their JSON text", async () => {
  const unusual: SftRow = {
    messages: [
      { role: "user", content: "naïve – 中文 \u{1F600}" },
      { role: "assistant", content: "", tool_calls: [] },
      { role: "assistant", content: "" },
    ],
    tools: [],
  };
  const rows = [toSft(RECORD), unusual];
  const back = await readBack(sftParquet(rows));
  assert.equal(back.length, 2);
  for (const [i, row] of rows.entries()) {
    assert.deepEqual(Object.keys(back[i]), ["messages", "tools"]);
    assert.deepEqual((back[i].messages as object[]).map(withNulls), row.messages.map(withNulls));
    assert.equal(back[i].tools, JSON.stringify(row.tools));
  }
  // An empty tool-call list stays a list; a missing one is null.
  assert.deepEqual((back[1].messages as TemplateMessage[])[1].tool_calls, []);
  assert.equal((back[1].messages as TemplateMessage[])[2].tool_calls ?? null, null);
});

/** A schema node in pyarrow's notation: `list<struct<...>>`, `string`. */
function arrowType(node: SchemaTree): string {
  const { converted_type, type } = node.element;
  if (converted_type === "LIST") return `list<${arrowType(node.children[0].children[0])}>`;
  if (converted_type === "UTF8") return "string";
  if (node.children.length > 0) {
    return `struct<${node.children.map((c) => `${c.element.name}: ${arrowType(c)}`).join(", ")}>`;
  }
  return String(type);
}

Deno.test("sftParquet() writes the column types verl and TRL read: list<struct> and string", () => {
  const bytes = sftParquet([toSft(RECORD)]);
  const columns = parquetSchema(parquetMetadata(bytes.slice().buffer)).children;
  assert.deepEqual(columns.map((c) => `${c.element.name}: ${arrowType(c)}`), [
    "messages: list<struct<role: string, content: string, tool_calls: list<struct<id: string, type: string, function: struct<name: string, arguments: string>>>, tool_call_id: string, name: string>>",
    "tools: string",
  ]);
});

Deno.test("sftParquet() refuses object arguments and fields it has no column for", () => {
  const objects = toSft(RECORD, "object");
  assert.throws(() => sftParquet([objects]), /Tool-call arguments must be JSON text in Parquet/);
  const extra = {
    messages: [{ role: "user", content: "hi", weight: 1 }],
    tools: [],
  } as unknown as SftRow;
  assert.throws(
    () => sftParquet([extra]),
    /A user message has fields Parquet has no column for: weight/,
  );
});

Deno.test("sftParquet() rows read back render the generated tokens with the model's template", async () => {
  const { record, generated } = await qwen3Conversation(RECORD);
  const rows = exportTrajectories([record], "sft").rows as SftRow[];
  const [back] = await readBack(sftParquet(rows));
  const rendered = qwen3().encode(
    renderQwen3((back.messages as object[]).map(withNulls), {
      tools: JSON.parse(back.tools as string),
      generation: false,
    }),
  );
  assert.deepEqual(rendered.slice(0, generated.length), generated);
});

TRAINER_VENV.noteSkip("sft Parquet through verl's and TRL's readers");

Deno.test({
  name: "sftParquet() files read by verl's and TRL's loaders render like the JSONL export",
  ignore: TRAINER_VENV.skip !== null,
  async fn() {
    const dir = mkdtempSync(join(tmpdir(), "patchgym-sft-parquet-"));
    try {
      const { record } = await qwen3Conversation(RECORD);
      const rows = exportTrajectories([record, RECORD], "sft").rows as SftRow[];
      writeFileSync(join(dir, "sft.parquet"), sftParquet(rows));
      writeFileSync(join(dir, "sft.jsonl"), rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
      writeQwen3Tokenizer(dir);
      const script = fileURLToPath(new URL("_sft_parquet_readers.py", import.meta.url));
      const { code, stdout, stderr } = await new Deno.Command(TRAINER_VENV.python, {
        args: [script, join(dir, "sft.parquet"), join(dir, "sft.jsonl"), dir],
        env: {
          HF_HUB_OFFLINE: "1",
          HF_DATASETS_CACHE: join(dir, "cache"),
          PYTHONDONTWRITEBYTECODE: "1",
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const out = new TextDecoder().decode(stdout);
      assert.equal(code, 0, out + new TextDecoder().decode(stderr));
      assert.match(out, /^2 rows render the same$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
