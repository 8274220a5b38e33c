/**
 * Tokenizer for a Mustache-like template language:
 *
 *   {{name}}        escaped variable          {{{name}}} / {{& name}}  raw variable
 *   {{#name}}...{{/name}}  section           {{^name}}...{{/name}}    inverted section
 *   {{> name}}      partial                   {{! comment }}          ignored
 */

export type Token =
  | { type: "text"; value: string }
  | { type: "var"; name: string; escape: boolean; pos: number }
  | { type: "open"; name: string; inverted: boolean; pos: number }
  | { type: "close"; name: string; pos: number }
  | { type: "partial"; name: string; pos: number };

export class TemplateError extends Error {
  constructor(message: string, readonly pos: number) {
    super(`${message} at offset ${pos}`);
    this.name = "TemplateError";
  }
}

export function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < template.length) {
    const open = template.indexOf("{{", pos);
    if (open < 0) {
      tokens.push({ type: "text", value: template.slice(pos) });
      break;
    }
    if (open > pos) tokens.push({ type: "text", value: template.slice(pos, open) });
    const triple = template.startsWith("{{{", open);
    const closer = triple ? "}}}" : "}}";
    const end = template.indexOf(closer, open + (triple ? 3 : 2));
    if (end < 0) throw new TemplateError("unclosed tag", open);
    const inner = template.slice(open + (triple ? 3 : 2), end).trim();
    pos = end + closer.length;
    if (triple) {
      tokens.push({ type: "var", name: inner, escape: false, pos: open });
      continue;
    }
    const sigil = inner[0];
    const name = inner.slice(1).trim();
    switch (sigil) {
      case "!":
        break;
      case "#":
      case "^":
        tokens.push({ type: "open", name, inverted: sigil === "^", pos: open });
        break;
      case "/":
        tokens.push({ type: "close", name, pos: open });
        break;
      case ">":
        tokens.push({ type: "partial", name, pos: open });
        break;
      case "&":
        tokens.push({ type: "var", name, escape: false, pos: open });
        break;
      default:
        if (inner === "") throw new TemplateError("empty tag", open);
        tokens.push({ type: "var", name: inner, escape: true, pos: open });
    }
  }
  return tokens;
}
