import assert from "node:assert/strict";
import { and, createMachine, MachineEvent, not, or } from "../src/machine.ts";

interface Ctx {
  locked: boolean;
  attempts: number;
  log: string[];
}

function door() {
  return createMachine<Ctx, MachineEvent>({
    initial: "closed",
    context: { locked: false, attempts: 0, log: [] },
    states: {
      closed: {
        on: {
          OPEN: [
            { target: "open", guard: not("isLocked") },
            { target: "alarm", guard: and("isLocked", (c) => c.attempts >= 2) },
            { target: "closed", actions: [(c) => void c.attempts++] },
          ],
          LOCK: { target: "closed", actions: [(c) => void (c.locked = true)] },
          UNLOCK: { target: "closed", guard: or("isLocked", (_c, e) => e.force === true), actions: [(c) => void (c.locked = false)] },
        },
      },
      open: { on: { CLOSE: "closed" }, entry: [(c) => void c.log.push("opened")], exit: [(c) => void c.log.push("leaving open")] },
      alarm: { final: true },
    },
    guards: { isLocked: (c) => c.locked },
  });
}

Deno.test("transitions when unlocked", () => {
  const m = door();
  assert.equal(m.send("OPEN"), true);
  assert.equal(m.state, "open");
  m.send("CLOSE");
  assert.deepEqual(m.context.log, ["opened", "leaving open"]);
  assert.deepEqual(m.history, ["closed", "open", "closed"]);
});

Deno.test("first passing candidate wins", () => {
  const m = door();
  m.send("LOCK");
  m.send("OPEN");
  m.send("OPEN");
  assert.equal(m.state, "closed");
  assert.equal(m.context.attempts, 2);
  m.send("OPEN");
  assert.equal(m.state, "alarm");
  assert.equal(m.done, true);
  assert.equal(m.can("OPEN"), false);
});

Deno.test("or guard with event payload", () => {
  const m = door();
  assert.equal(m.can({ type: "UNLOCK" }), false);
  assert.equal(m.can({ type: "UNLOCK", force: true }), true);
});

Deno.test("unknown guards and targets are errors", () => {
  const m = createMachine({ initial: "a", context: {}, states: { a: { on: { GO: { target: "a", guard: "nope" } } } } });
  assert.throws(() => m.send("GO"), /unknown guard "nope"/);
  assert.throws(() => createMachine({ initial: "a", context: {}, states: { a: { on: { GO: "b" } } } }), /unknown state "b"/);
});
