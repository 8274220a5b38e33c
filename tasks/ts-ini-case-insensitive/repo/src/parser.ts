/**
 * INI documents.
 *
 * Section and key names are case-insensitive: `[Server]` and `[server]` are
 * the same section, `Port` and `port` the same key. Names are stored in lower
 * case. Keys before the first section belong to the global section "".
 * When a key repeats, the last value wins.
 */
import { tokenize } from "./lexer.ts";

export type IniDocument = Map<string, Map<string, string>>;

export function parseIni(text: string): IniDocument {
  const doc: IniDocument = new Map([["", new Map()]]);
  let current = doc.get("")!;
  for (const token of tokenize(text)) {
    if (token.type === "section") {
      const name = token.name;
      if (!doc.has(name)) doc.set(name, new Map());
      current = doc.get(name)!;
    } else {
      current.set(token.key, token.value);
    }
  }
  return doc;
}
