/**
 * JSON text read into well-formed Unicode. A `\ud800` escape with no partner decodes to a lone
 * surrogate, which JavaScript keeps but UTF-8 cannot encode: echoed into a tool's output or a
 * trajectory record, it makes Python's encoders (tokenizers, pyarrow) fail on the whole batch. Such
 * text comes from a client's JSON or the model's own argument text, so every JSON a request or a
 * tool call carries is read with {@linkcode parseJson}: each lone surrogate, in strings and keys,
 * becomes U+FFFD, as a UTF-8 decoder makes of invalid bytes.
 */

/** A `\u` escape of a surrogate; without one, JSON text decodes to well-formed strings only. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** `JSON.parse(text)`, with every lone surrogate replaced by U+FFFD. Throws as `JSON.parse`. */
export function parseJson(text: string): unknown {
  const value = JSON.parse(text);
  return SURROGATE_ESCAPE.test(text) ? wellFormed(value) : value;
}

/**
 * `value` with every string and key well-formed (lone surrogates replaced by U+FFFD); objects and
 * arrays with nothing to replace are kept. Walks without recursion, so any nesting is safe.
 */
export function wellFormed(value: unknown): unknown {
  if (typeof value === "string") return value.toWellFormed();
  if (typeof value !== "object" || value === null) return value;
  const root = { value };
  const stack: [Record<string, unknown>, string][] = [[root, "value"]];
  while (stack.length > 0) {
    const [holder, key] = stack.pop()!;
    const item = holder[key];
    if (typeof item === "string") {
      if (!item.isWellFormed()) holder[key] = item.toWellFormed();
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) stack.push([item as never, String(i)]);
    } else if (typeof item === "object" && item !== null) {
      const object = item as Record<string, unknown>;
      if (Object.keys(object).some((k) => !k.isWellFormed())) {
        // Rebuilt with defined properties, so a "__proto__" key stays a key.
        holder[key] = Object.fromEntries(
          Object.entries(object).map(([k, v]) => [k.toWellFormed(), v]),
        );
      }
      for (const k of Object.keys(holder[key] as object)) {
        stack.push([holder[key] as Record<string, unknown>, k]);
      }
    }
  }
  return root.value;
}
