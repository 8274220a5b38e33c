import assert from "node:assert/strict";
import { TextBuffer } from "../src/buffer.ts";
import { DeleteText, InsertText } from "../src/commands.ts";
import { History } from "../src/history.ts";

Deno.test("undo and redo a single insert", () => {
  const buffer = new TextBuffer("ac");
  const history = new History(buffer);
  history.execute(new InsertText(1, "b"));
  assert.equal(buffer.text, "abc");
  assert.equal(history.undo(), true);
  assert.equal(buffer.text, "ac");
  assert.equal(history.redo(), true);
  assert.equal(buffer.text, "abc");
  assert.equal(history.redo(), false);
});

Deno.test("consecutive typing merges into one step", () => {
  const buffer = new TextBuffer();
  const history = new History(buffer);
  history.execute(new InsertText(0, "h"));
  history.execute(new InsertText(1, "i"));
  history.undo();
  assert.equal(buffer.text, "");
  assert.equal(history.canUndo, false);
});

Deno.test("a new unmergeable edit clears redo", () => {
  const buffer = new TextBuffer("abc");
  const history = new History(buffer);
  history.execute(new DeleteText(2, 1));
  history.undo();
  history.execute(new DeleteText(0, 1));
  assert.equal(history.canRedo, false);
  assert.equal(buffer.text, "bc");
});

Deno.test("the limit drops the oldest steps", () => {
  const buffer = new TextBuffer("abcd");
  const history = new History(buffer, { limit: 2 });
  for (let i = 0; i < 3; i++) history.execute(new DeleteText(0, 1));
  assert.equal(history.undo(), true);
  assert.equal(history.undo(), true);
  assert.equal(history.undo(), false);
  assert.equal(buffer.text, "bcd");
});
