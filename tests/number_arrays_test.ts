import assert from "node:assert/strict";
import { z } from "zod";
import { integerArray, NUMBER_ARRAYS_JSON_SCHEMA, numberArray } from "../src/number_arrays.ts";

Deno.test("integerArray() takes safe integers in its range and nothing else, as zod's would", () => {
  const ids = integerArray("token ids", { min: 0 });
  const zods = z.array(z.number().int().min(0));
  const cases: unknown[] = [
    [],
    [0, 1, 151_000],
    [1, -1],
    [1, 2.5],
    [1, "2"],
    [Number.MAX_SAFE_INTEGER + 1],
    [NaN],
    [null],
    "1 2",
    { 0: 1, length: 1 },
    null,
  ];
  for (const value of cases) {
    assert.equal(
      ids.safeParse(value).success,
      zods.safeParse(value).success,
      JSON.stringify(value),
    );
  }
  const mask = integerArray("0s and 1s", { min: 0, max: 1 });
  assert.equal(mask.safeParse([0, 1, 1]).success, true);
  assert.equal(mask.safeParse([0, 2]).success, false);
  const error = ids.safeParse([1, 2.5]).error!;
  assert.equal(error.issues[0].message, "expected an array of token ids");
});

Deno.test("numberArray() takes finite numbers, and nulls only when nullable", () => {
  const plain = numberArray("log-probabilities");
  const nullable = numberArray("log-probabilities", { nullable: true });
  assert.equal(plain.safeParse([-0.5, 0]).success, true);
  assert.equal(plain.safeParse([-0.5, null]).success, false);
  assert.equal(plain.safeParse([Infinity]).success, false);
  assert.equal(plain.safeParse(["-0.5"]).success, false);
  assert.equal(nullable.safeParse([-0.5, null]).success, true);
  assert.equal(nullable.safeParse([undefined]).success, false);
});

Deno.test("NUMBER_ARRAYS_JSON_SCHEMA writes the arrays as zod's would, and refuses other custom types", () => {
  const ids = z.object({ ids: integerArray("ids", { min: 0 }).nullish() });
  assert.deepEqual(
    z.toJSONSchema(ids, NUMBER_ARRAYS_JSON_SCHEMA),
    z.toJSONSchema(z.object({ ids: z.array(z.number().int().min(0)).nullish() })),
  );
  const logprobs = z.object({ l: numberArray("l", { nullable: true }) });
  assert.deepEqual(
    z.toJSONSchema(logprobs, NUMBER_ARRAYS_JSON_SCHEMA).properties,
    { l: { type: "array", items: { type: ["number", "null"] } } },
  );
  assert.throws(
    () => z.toJSONSchema(z.object({ x: z.custom<string>(() => true) }), NUMBER_ARRAYS_JSON_SCHEMA),
    /Custom types cannot be represented/,
  );
});
