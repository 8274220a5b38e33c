import semver from "semver";
import { versionsOf } from "./registry.js";

/** The highest published version to offer as "latest". */
export function latestOf(versions) {
  return semver.rsort([...versions])[0] ?? null;
}

/** How big the jump from `current` to `latest` is (`major`, `minor`, ...), or a status. */
export function updateType(current, latest) {
  if (current === null) return "missing";
  if (latest === null) return "unpublished";
  return semver.diff(current, latest) ?? "none";
}

/**
 * The outdated dependencies of `manifest` (a parsed package.json) given the `installed` versions
 * (`{ name: version }`) and a `registry` snapshot, sorted by name. Up-to-date ones are left out.
 */
export function outdated(manifest, installed, registry) {
  const dev = manifest.devDependencies ?? {};
  const declared = { ...(manifest.dependencies ?? {}), ...dev };
  const rows = [];
  for (const [name, range] of Object.entries(declared)) {
    const versions = versionsOf(registry, name);
    const current = installed[name] ?? null;
    const wanted = semver.maxSatisfying(versions, range);
    const latest = latestOf(versions);
    if (current !== null && current === wanted && current === latest) continue;
    rows.push({
      name,
      current,
      wanted,
      latest,
      type: updateType(current, latest),
      dev: Object.hasOwn(dev, name),
    });
  }
  return rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
