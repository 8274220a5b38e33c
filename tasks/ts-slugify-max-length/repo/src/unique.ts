/** Hand out unique slugs by appending "-2", "-3", ... to repeats. */
import { slugify, SlugOptions } from "./slugify.ts";

export class SlugRegistry {
  #taken = new Set<string>();

  constructor(private readonly options: SlugOptions = {}) {}

  /** Mark an existing slug as used. */
  reserve(slug: string): void {
    this.#taken.add(slug);
  }

  /** A slug for `title` not handed out before. */
  next(title: string): string {
    const base = slugify(title, this.options) || "untitled";
    const sep = this.options.separator ?? "-";
    let slug = base;
    for (let n = 2; this.#taken.has(slug); n++) slug = `${base}${sep}${n}`;
    this.#taken.add(slug);
    return slug;
  }
}
