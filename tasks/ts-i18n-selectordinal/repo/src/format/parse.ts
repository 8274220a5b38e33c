/**
 * Parser for the message syntax described in `ast.ts`. Apostrophes quote literal braces the ICU
 * way: `'{'` is a literal `{`, and `''` is one apostrophe.
 */
import type { Branches, Message, Part } from "./ast.ts";

/** A syntax error with the offset where it was found. */
export class MessageSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = "MessageSyntaxError";
  }
}

/** Parses a message. */
export function parseMessage(source: string): Message {
  const parser = new Parser(source);
  const parts = parser.parts(false, false);
  if (parser.pos < source.length) throw new MessageSyntaxError("unexpected '}'", parser.pos);
  return parts;
}

class Parser {
  pos = 0;
  constructor(readonly src: string) {}

  /** Parts up to the end or a closing brace; `#` is special only inside plural branches. */
  parts(nested: boolean, inPlural: boolean): Part[] {
    const out: Part[] = [];
    let text = "";
    const flush = () => {
      if (text) out.push({ type: "text", value: text });
      text = "";
    };
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === "}") {
        if (!nested) break;
        flush();
        return out;
      }
      if (c === "{") {
        flush();
        out.push(this.argument());
      } else if (c === "#" && inPlural) {
        flush();
        out.push({ type: "pound" });
        this.pos++;
      } else if (c === "'") {
        text += this.quoted();
      } else {
        text += c;
        this.pos++;
      }
    }
    if (nested) throw new MessageSyntaxError("unclosed branch", this.pos);
    flush();
    return out;
  }

  quoted(): string {
    const next = this.src[this.pos + 1];
    if (next === "'") {
      this.pos += 2;
      return "'";
    }
    if (next !== "{" && next !== "}" && next !== "#") {
      this.pos++;
      return "'";
    }
    const end = this.src.indexOf("'", this.pos + 1);
    if (end === -1) throw new MessageSyntaxError("unclosed quote", this.pos);
    const literal = this.src.slice(this.pos + 1, end);
    this.pos = end + 1;
    return literal;
  }

  argument(): Part {
    const start = this.pos;
    this.pos++; // {
    const name = this.word();
    if (!name) throw new MessageSyntaxError("expected an argument name", this.pos);
    this.space();
    if (this.src[this.pos] === "}") {
      this.pos++;
      return { type: "arg", name };
    }
    this.expect(",");
    this.space();
    const kind = this.word();
    this.space();
    this.expect(",");
    if (kind === "plural") return { type: "plural", name, branches: this.branches(true, start) };
    if (kind === "select") return { type: "select", name, branches: this.branches(false, start) };
    throw new MessageSyntaxError(`unknown argument type "${kind}"`, start);
  }

  branches(inPlural: boolean, start: number): Branches {
    const branches: Branches = {};
    for (;;) {
      this.space();
      if (this.src[this.pos] === "}") {
        this.pos++;
        break;
      }
      const key = this.src[this.pos] === "=" ? "=" + (this.pos++, this.word()) : this.word();
      if (!key || key === "=") throw new MessageSyntaxError("expected a branch key", this.pos);
      this.space();
      this.expect("{");
      branches[key] = this.parts(true, inPlural);
      this.pos++; // }
    }
    if (!("other" in branches)) throw new MessageSyntaxError("missing 'other' branch", start);
    return branches;
  }

  word(): string {
    const match = /^[A-Za-z0-9_]+/.exec(this.src.slice(this.pos));
    if (!match) return "";
    this.pos += match[0].length;
    return match[0];
  }

  space(): void {
    while (/\s/.test(this.src[this.pos] ?? "")) this.pos++;
  }

  expect(char: string): void {
    if (this.src[this.pos] !== char) throw new MessageSyntaxError(`expected '${char}'`, this.pos);
    this.pos++;
  }
}
