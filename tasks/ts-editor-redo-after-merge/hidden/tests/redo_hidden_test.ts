import assert from "node:assert/strict";
import { TextBuffer } from "../src/buffer.ts";
import { InsertText } from "../src/commands.ts";
import { History } from "../src/history.ts";
import { Editor } from "../src/editor.ts";

function typed(): Editor {
  const editor = new Editor();
  for (const ch of "hello wor") editor.type(ch);
  editor.undo();
  editor.type("!");
  return editor;
}

Deno.test("typing after undo that merges clears redo", () => {
  assert.equal(typed().history.canRedo, false);
});

Deno.test("redo after a merged edit changes nothing", () => {
  const editor = typed();
  editor.redo();
  assert.equal(editor.text, "hello!");
});

Deno.test("undo after a merged edit never leaves stale text", () => {
  const editor = typed();
  editor.redo();
  editor.undo();
  editor.undo();
  assert.equal(editor.text, "");
});

Deno.test("History clears redo when an insert merges", () => {
  const buffer = new TextBuffer();
  const history = new History(buffer);
  history.execute(new InsertText(0, "ab"));
  history.execute(new InsertText(2, " cd"));
  history.undo();
  history.execute(new InsertText(2, "x"));
  assert.equal(history.redo(), false);
  assert.equal(buffer.text, "abx");
});

Deno.test("redo still works when nothing new was typed", () => {
  const editor = new Editor();
  for (const ch of "hi there") editor.type(ch);
  editor.undo();
  editor.redo();
  assert.equal(editor.text, "hi there");
});
