/** Who this process runs as. */

const ids = new Map<"u" | "g", number | null>();

/**
 * This process's uid (`u`) or gid (`g`): `Deno.uid()` or `Deno.gid()` (`--allow-sys=uid,gid`),
 * else from `id -u` or `id -g` (launch.ts, which may run programs); null when neither answers.
 */
export function ownId(kind: "u" | "g"): number | null {
  const known = ids.get(kind);
  if (known !== undefined) return known;
  let id: number | null;
  try {
    id = kind === "u" ? Deno.uid() : Deno.gid();
  } catch {
    try {
      const out = new Deno.Command("id", { args: [`-${kind}`], stderr: "null" }).outputSync();
      const text = new TextDecoder().decode(out.stdout).trim();
      id = out.success && /^\d+$/.test(text) ? Number(text) : null;
    } catch {
      id = null;
    }
  }
  ids.set(kind, id);
  return id;
}
