/**
 * `sft` rows as a Parquet file, the input of verl's `MultiTurnSFTDataset` and of TRL's
 * `SFTTrainer` (through `datasets`). `messages` is a list of structs with one fixed field set
 * (role, content, tool_calls, tool_call_id, name); a field a message lacks reads back as null.
 * `tools` is the JSON text of the row's tool schemas: as a struct column, Parquet would give every
 * schema the union of all schemas' properties, null where a tool lacks one, and the chat template
 * would show the model tools it never saw. Tool-call arguments stay JSON text for the same reason.
 *
 * Checked against verl `verl/utils/dataset/multiturn_sft_dataset.py` (reads with pandas and
 * `dtype_backend="pyarrow"`) and TRL 1.13 `SFTTrainer` (decodes a `tools` string with `json.loads`).
 */
import { parquetWriteBuffer } from "hyparquet-writer";
import type { SftRow } from "./export.ts";

type SchemaElement = NonNullable<Parameters<typeof parquetWriteBuffer>[0]["schema"]>[number];

/** The fields of a message struct, in column order. */
export const MESSAGE_FIELDS = ["role", "content", "tool_calls", "tool_call_id", "name"] as const;

/** The rows as the bytes of one Parquet file (columns `messages` and `tools`). */
export function sftParquet(rows: SftRow[]): Uint8Array {
  const messages = rows.map((row) => row.messages.map(checkedMessage));
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: "messages", data: messages },
      { name: "tools", data: rows.map((row) => JSON.stringify(row.tools)) },
    ],
    schema: SCHEMA,
    createdBy: "patchgym",
  });
  return new Uint8Array(buffer);
}

/**
 * The message, refused when it holds something the schema would silently drop: a field outside
 * {@linkcode MESSAGE_FIELDS} or tool-call arguments that are not JSON text.
 */
function checkedMessage(message: SftRow["messages"][number]): SftRow["messages"][number] {
  const extra = Object.keys(message).filter((key) =>
    !(MESSAGE_FIELDS as readonly string[]).includes(key)
  );
  if (extra.length > 0) {
    throw new Error(`A ${message.role} message has fields Parquet has no column for: ${extra}`);
  }
  if (message.role === "assistant") {
    for (const call of message.tool_calls ?? []) {
      if (typeof call.function.arguments !== "string") {
        throw new Error(
          "Tool-call arguments must be JSON text in Parquet: as objects, every call would carry every tool's argument names",
        );
      }
    }
  }
  return message;
}

/** A nullable UTF-8 string field (a one-element subtree, like the others). */
function text(name: string): SchemaElement[] {
  return [{ name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" }];
}

function struct(name: string, fields: SchemaElement[][]): SchemaElement[] {
  return [
    { name, repetition_type: "OPTIONAL", num_children: fields.length },
    ...fields.flat(),
  ];
}

/** A three-level LIST of structs, as pyarrow writes and reads it. */
function listOf(name: string, fields: SchemaElement[][]): SchemaElement[] {
  return [
    { name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
    { name: "list", repetition_type: "REPEATED", num_children: 1 },
    ...struct("element", fields),
  ];
}

const TOOL_CALLS = listOf("tool_calls", [
  text("id"),
  text("type"),
  struct("function", [text("name"), text("arguments")]),
]);
const SCHEMA: SchemaElement[] = [
  { name: "root", num_children: 2 },
  ...listOf("messages", MESSAGE_FIELDS.map((f) => f === "tool_calls" ? TOOL_CALLS : text(f))),
  ...text("tools"),
];
