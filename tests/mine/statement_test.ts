import assert from "node:assert/strict";
import { templateStatement, writeModelStatement } from "../../src/mine/statement.ts";
import { startFakeOpenAI } from "../_fake_openai.ts";

const INPUT = {
  subject: "Count the first shelf in total()",
  body: "The total left out the first shelf.\n\nSigned-off-by: A Person <a@example.com>",
  failing: ["tests/test_inventory.py::test_total"],
  failures: new Map([[
    "tests/test_inventory.py::test_total",
    "Traceback (most recent call last):\n  ...\nAssertionError: assert 5 == 7",
  ]]),
};

Deno.test("templateStatement() reads the commit message and the failing tests' symptoms, not trailers", () => {
  const text = templateStatement(INPUT);
  assert.match(text, /^Count the first shelf in total\(\)\n\nThe total left out the first shelf\./);
  assert.match(text, /- total \(tests\/test_inventory\.py\): AssertionError: assert 5 == 7/);
  assert.ok(!text.includes("Signed-off-by"));
});

Deno.test("writeModelStatement() asks the endpoint without the fix, and gives null when it fails", async () => {
  const fake = startFakeOpenAI([
    { content: "Totals are short: the first shelf is never counted.", token_ids: false },
    { status: 500, body: { error: { message: "down" } } },
  ]);
  try {
    const endpoint = { baseUrl: fake.baseUrl, model: "m" };
    assert.equal(
      await writeModelStatement(endpoint, INPUT),
      "Totals are short: the first shelf is never counted.",
    );
    const prompt = JSON.stringify(fake.requests[0].body);
    assert.match(prompt, /assert 5 == 7/);
    assert.ok(!prompt.includes("diff --git"));
    assert.equal(await writeModelStatement(endpoint, INPUT), null);
  } finally {
    await fake.close();
  }
});

Deno.test("templateStatement() gives the values of node's and jest's assertion failures", () => {
  const text = templateStatement({
    subject: "Count the first item",
    body: "",
    failing: ["test/a.test.js::sum > adds every count", "test/b.test.js::fits > exactly"],
    failures: new Map([
      [
        "test/a.test.js::sum > adds every count",
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n5 !== 7\n\n    at ...",
      ],
      [
        "test/b.test.js::fits > exactly",
        "Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 1\nReceived: 2\n    at ...",
      ],
    ]),
  });
  assert.match(text, /- sum > adds every count \(test\/a\.test\.js\): .*strictly equal: 5 !== 7/);
  assert.match(
    text,
    /- fits > exactly \(test\/b\.test\.js\): .*equality \(Expected: 1, Received: 2\)/,
  );
});
