import assert from "node:assert/strict";
import * as machine from "../src/machine.ts";

// The new module is loaded lazily so the behaviour tests run even without it.
const guards = () => import("../src/guards.ts");

Deno.test("guards module evaluates named and inline guards", async () => {
  const { evaluateGuard } = await guards();
  const named = { big: (c: { n: number }) => c.n > 10 };
  assert.equal(evaluateGuard("big", { n: 11 }, { type: "X" }, named), true);
  assert.equal(evaluateGuard((c: { n: number }, e) => c.n === 1 && e.type === "X", { n: 1 }, { type: "X" }), true);
  assert.throws(() => evaluateGuard("missing", { n: 1 }, { type: "X" }, named), /unknown guard "missing"/);
});

Deno.test("guards module evaluates combinators", async () => {
  const { and, evaluateGuard, not, or } = await guards();
  const named = { t: () => true, f: () => false };
  const ev = { type: "E" };
  assert.equal(evaluateGuard(and("t", not("f")), {}, ev, named), true);
  assert.equal(evaluateGuard(or("f", and("t", "f")), {}, ev, named), false);
  assert.equal(evaluateGuard(not(or("f", "t")), {}, ev, named), false);
  assert.equal(evaluateGuard(and(), {}, ev), true);
  assert.equal(evaluateGuard(or(), {}, ev), false);
});

Deno.test("machine re-exports the guard helpers from the guards module", async () => {
  const g = await guards();
  assert.equal(machine.and, g.and);
  assert.equal(machine.or, g.or);
  assert.equal(machine.not, g.not);
});

Deno.test("machine delegates to the guards module", () => {
  const source = Deno.readTextFileSync(new URL("../src/machine.ts", import.meta.url));
  assert.match(source, /from\s+["']\.\/guards\.ts["']/);
  assert.doesNotMatch(source, /"and" in/);
});

Deno.test("machine behaviour with combined guards is unchanged", () => {
  const m = machine.createMachine<{ n: number }, machine.MachineEvent>({
    initial: "idle",
    context: { n: 0 },
    states: {
      idle: {
        on: {
          GO: [
            { target: "busy", guard: machine.and("positive", machine.not((c) => c.n > 5)) },
            { target: "idle", actions: [(c) => void c.n++] },
          ],
        },
      },
      busy: { final: true },
    },
    guards: { positive: (c) => c.n > 0 },
  });
  m.send("GO");
  assert.equal(m.state, "idle");
  m.send("GO");
  assert.equal(m.state, "busy");
});
