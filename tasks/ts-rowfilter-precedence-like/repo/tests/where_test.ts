import assert from "node:assert/strict";
import { where } from "../src/mod.ts";
import { ids, people } from "./fixtures.ts";

Deno.test("comparisons on numbers and strings", () => {
  assert.deepEqual(ids(where(people, "age >= 34")), [1, 3, 5]);
  assert.deepEqual(ids(where(people, "city <> 'Paris'")), [2, 3, 5]);
});

Deno.test("AND binds tighter than OR", () => {
  assert.deepEqual(ids(where(people, "city = 'Lyon' OR city = 'Paris' AND age > 30")), [1, 2]);
});

Deno.test("parentheses override precedence", () => {
  assert.deepEqual(ids(where(people, "(city = 'Lyon' OR city = 'Paris') AND age > 30")), [1]);
});

Deno.test("IN, BETWEEN and IS NULL", () => {
  assert.deepEqual(ids(where(people, "city IN ('Nice', 'Lille')")), [3, 5]);
  assert.deepEqual(ids(where(people, "age BETWEEN 20 AND 40")), [1, 2]);
  assert.deepEqual(ids(where(people, "manager IS NULL")), [1]);
});

Deno.test("LIKE with % and _", () => {
  assert.deepEqual(ids(where(people, "name LIKE '_o%'")), [2]);
  assert.deepEqual(ids(where(people, "email LIKE '%@example.com'")), [1, 2, 5]);
});

Deno.test("LIKE treats regex characters literally", () => {
  assert.deepEqual(ids(where(people, "email LIKE 'eve+news@%'")), [5]);
});

Deno.test("NOT and nested fields", () => {
  assert.deepEqual(ids(where(people, "NOT city = 'Paris'")), [2, 3, 5]);
  assert.deepEqual(ids(where(people, "address.zip = '59000'")), [5]);
});
