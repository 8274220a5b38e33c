/**
 * Rendering. Variables: `null`/`undefined` render as "", every other value
 * through `String()` (so 0 renders as "0"). Sections render their body once
 * per array item, once for any other truthy value (pushed on the context),
 * and not at all for falsy values or empty arrays; inverted sections do the
 * opposite. Missing partials render as "".
 */
import { Context } from "./context.ts";
import { escapeHtml } from "./escape.ts";
import { Node, parse } from "./parser.ts";

const MAX_PARTIAL_DEPTH = 32;

function toText(value: unknown): string {
  if (!value) return "";
  return String(value);
}

function isEmpty(value: unknown): boolean {
  return !value || (Array.isArray(value) && value.length === 0);
}

function renderNodes(nodes: Node[], ctx: Context, partials: Record<string, string>, depth: number): string {
  let out = "";
  for (const node of nodes) {
    switch (node.type) {
      case "text":
        out += node.value;
        break;
      case "var": {
        const text = toText(ctx.lookup(node.name));
        out += node.escape ? escapeHtml(text) : text;
        break;
      }
      case "section": {
        const value = ctx.lookup(node.name);
        if (node.inverted) {
          if (isEmpty(value)) out += renderNodes(node.children, ctx, partials, depth);
        } else if (Array.isArray(value)) {
          for (const item of value) out += renderNodes(node.children, ctx.push(item), partials, depth);
        } else if (!isEmpty(value)) {
          out += renderNodes(node.children, ctx.push(value), partials, depth);
        }
        break;
      }
      case "partial": {
        const source = partials[node.name];
        if (source === undefined) break;
        if (depth >= MAX_PARTIAL_DEPTH) throw new Error(`partials nested deeper than ${MAX_PARTIAL_DEPTH}`);
        out += renderNodes(parse(source), ctx, partials, depth + 1);
        break;
      }
    }
  }
  return out;
}

/** Render `template` against `view`. */
export function render(template: string, view: unknown, partials: Record<string, string> = {}): string {
  return renderNodes(parse(template), Context.root(view), partials, 0);
}
