/** Typed, case-insensitive access to a parsed INI document. */
import { IniDocument, parseIni } from "./parser.ts";

const TRUE = new Set(["1", "true", "yes", "on"]);
const FALSE = new Set(["0", "false", "no", "off"]);

export class Config {
  constructor(private readonly doc: IniDocument) {}

  static parse(text: string): Config {
    return new Config(parseIni(text));
  }

  /** Section names (lower case), without the global section. */
  sections(): string[] {
    return [...this.doc.keys()].filter((s) => s !== "");
  }

  /** Key names (lower case) of a section; [] when the section is missing. */
  keys(section: string): string[] {
    return [...(this.doc.get(section)?.keys() ?? [])];
  }

  has(section: string, key: string): boolean {
    return this.get(section, key) !== undefined;
  }

  /** Raw string value, or `fallback` when missing. Names are case-insensitive. */
  get(section: string, key: string, fallback?: string): string | undefined {
    return this.doc.get(section)?.get(key) ?? fallback;
  }

  /** Numeric value; throws when present but not a number. */
  getNumber(section: string, key: string, fallback?: number): number | undefined {
    const raw = this.get(section, key);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (raw.trim() === "" || Number.isNaN(n)) throw new TypeError(`${section}.${key} is not a number: ${raw}`);
    return n;
  }

  /** Boolean value (true/false, yes/no, on/off, 1/0); throws on anything else. */
  getBoolean(section: string, key: string, fallback?: boolean): boolean | undefined {
    const raw = this.get(section, key);
    if (raw === undefined) return fallback;
    const v = raw.toLowerCase();
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
    throw new TypeError(`${section}.${key} is not a boolean: ${raw}`);
  }
}
