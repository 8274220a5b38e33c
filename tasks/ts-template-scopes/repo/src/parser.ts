/** Builds a tree from template tokens, checking that sections are balanced. */
import { TemplateError, tokenize } from "./lexer.ts";

export type Node =
  | { type: "text"; value: string }
  | { type: "var"; name: string; escape: boolean }
  | { type: "section"; name: string; inverted: boolean; children: Node[] }
  | { type: "partial"; name: string };

export function parse(template: string): Node[] {
  const root: Node[] = [];
  const stack: { name: string; pos: number; children: Node[] }[] = [];
  let current = root;
  for (const token of tokenize(template)) {
    switch (token.type) {
      case "text":
        current.push({ type: "text", value: token.value });
        break;
      case "var":
        current.push({ type: "var", name: token.name, escape: token.escape });
        break;
      case "partial":
        current.push({ type: "partial", name: token.name });
        break;
      case "open": {
        const section: Node = { type: "section", name: token.name, inverted: token.inverted, children: [] };
        current.push(section);
        stack.push({ name: token.name, pos: token.pos, children: current });
        current = section.children;
        break;
      }
      case "close": {
        const top = stack.pop();
        if (!top) throw new TemplateError(`unexpected {{/${token.name}}}`, token.pos);
        if (top.name !== token.name) {
          throw new TemplateError(`{{/${token.name}}} does not close {{#${top.name}}}`, token.pos);
        }
        current = top.children;
        break;
      }
    }
  }
  const open = stack.pop();
  if (open) throw new TemplateError(`unclosed section ${open.name}`, open.pos);
  return root;
}
