/** The task rule for protected paths: files and folders the agent must not edit. */

/**
 * Whether `path` (relative, normalized) is one of `protectedPaths` or under one: an entry ending in
 * `/` is a folder prefix (`tests/` covers `tests` and everything in it), any other a file or folder.
 */
export function isProtected(protectedPaths: readonly string[], path: string): boolean {
  return protectedPaths.some((p) =>
    p.endsWith("/")
      ? path.startsWith(p) || `${path}/` === p
      : path === p || path.startsWith(`${p}/`)
  );
}
