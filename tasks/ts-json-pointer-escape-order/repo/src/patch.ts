/**
 * JSON Patch (RFC 6902) for the operations add, remove, replace, move, copy and test.
 * `applyPatch` works on a copy: the input document is never modified, and a failing
 * operation leaves nothing half-applied.
 */
import { PatchError } from "./errors.ts";
import { clone, deepEqual, isObject, type Json } from "./json.ts";
import { getAt, parseIndex, parsePointer } from "./pointer.ts";

/** One patch operation. */
export type Operation =
  | { op: "add"; path: string; value: Json }
  | { op: "remove"; path: string }
  | { op: "replace"; path: string; value: Json }
  | { op: "move"; from: string; path: string }
  | { op: "copy"; from: string; path: string }
  | { op: "test"; path: string; value: Json };

/** The parent container of `pointer` and the last reference token. */
function locate(doc: Json, pointer: string): { parent: Json; key: string } {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) {
    throw new PatchError("invalid_operation", "the root has no parent");
  }
  const key = tokens[tokens.length - 1];
  const parentPointer = pointer.slice(0, pointer.lastIndexOf("/"));
  return { parent: getAt(doc, parentPointer), key };
}

function addValue(doc: Json, path: string, value: Json): Json {
  if (path === "") return value;
  const { parent, key } = locate(doc, path);
  if (Array.isArray(parent)) {
    parent.splice(parseIndex(key, parent.length, true), 0, value);
  } else if (isObject(parent)) {
    parent[key] = value;
  } else {
    throw new PatchError("path_not_found", `cannot add below a scalar at "${path}"`);
  }
  return doc;
}

function removeValue(doc: Json, path: string): Json {
  const { parent, key } = locate(doc, path);
  if (Array.isArray(parent)) {
    parent.splice(parseIndex(key, parent.length, false), 1);
  } else if (isObject(parent) && Object.hasOwn(parent, key)) {
    delete parent[key];
  } else {
    throw new PatchError("path_not_found", `no value to remove at "${path}"`);
  }
  return doc;
}

function applyOne(doc: Json, op: Operation): Json {
  switch (op.op) {
    case "add":
      return addValue(doc, op.path, clone(op.value));
    case "remove":
      return removeValue(doc, op.path);
    case "replace":
      getAt(doc, op.path);
      if (op.path === "") return clone(op.value);
      return addValue(removeValue(doc, op.path), op.path, clone(op.value));
    case "move": {
      if (op.path.startsWith(op.from + "/")) {
        throw new PatchError("invalid_operation", `cannot move "${op.from}" into itself`);
      }
      const value = getAt(doc, op.from);
      return addValue(removeValue(doc, op.from), op.path, value);
    }
    case "copy":
      return addValue(doc, op.path, clone(getAt(doc, op.from)));
    case "test":
      if (!deepEqual(getAt(doc, op.path), op.value)) {
        throw new PatchError("test_failed", `value at "${op.path}" differs from the test value`);
      }
      return doc;
    default:
      throw new PatchError("invalid_operation", `unknown op ${JSON.stringify(op)}`);
  }
}

/** Applies `ops` in order to a copy of `doc` and returns the result. */
export function applyPatch(doc: Json, ops: readonly Operation[]): Json {
  let result = clone(doc);
  for (const op of ops) result = applyOne(result, op);
  return result;
}
