import assert from "node:assert/strict";
import { Editor } from "../src/editor.ts";

Deno.test("typing undoes a word at a time", () => {
  const editor = new Editor();
  for (const ch of "hello world") editor.type(ch);
  editor.undo();
  assert.equal(editor.text, "hello");
  editor.undo();
  assert.equal(editor.text, "");
});

Deno.test("moving the cursor starts a new step", () => {
  const editor = new Editor();
  editor.type("ab");
  editor.moveTo(2);
  editor.type("c");
  editor.undo();
  assert.equal(editor.text, "ab");
});

Deno.test("backspace and redo", () => {
  const editor = new Editor("abc");
  editor.backspace();
  editor.backspace();
  assert.equal(editor.text, "a");
  editor.undo();
  editor.undo();
  assert.equal(editor.text, "abc");
  editor.redo();
  assert.equal(editor.text, "ab");
});

Deno.test("replaceAll is one undo step", () => {
  const editor = new Editor("a-b-c");
  assert.equal(editor.replaceAll("-", "+"), 2);
  assert.equal(editor.text, "a+b+c");
  assert.equal(editor.history.undoLabel, "Replace All");
  editor.undo();
  assert.equal(editor.text, "a-b-c");
});
