import { readFileSync } from "node:fs";

/** A registry snapshot: `{ "name": ["1.0.0", "1.1.0", ...], ... }`, read from a JSON file. */
export function loadRegistry(path) {
  return parseRegistry(readFileSync(path, "utf8"));
}

/** A registry snapshot from its JSON text. */
export function parseRegistry(text) {
  const data = JSON.parse(text);
  const registry = new Map();
  for (const [name, versions] of Object.entries(data)) {
    if (!Array.isArray(versions)) throw new TypeError(`Versions of "${name}" must be a list`);
    registry.set(name, versions.map(String));
  }
  return registry;
}

/** Every published version of `name`; throws when the snapshot does not know the package. */
export function versionsOf(registry, name) {
  const versions = registry.get(name);
  if (versions === undefined) throw new Error(`Unknown package "${name}" in the registry snapshot`);
  return versions;
}
