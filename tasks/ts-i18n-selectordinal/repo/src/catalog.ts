/**
 * A message catalog: messages per locale, parsed once and cached, with fallback from a regional
 * locale to its base language and then to the default locale.
 */
import { type Message } from "./format/ast.ts";
import { formatMessage, type Values } from "./format/format.ts";
import { parseMessage } from "./format/parse.ts";
import { baseLanguage } from "./plurals/mod.ts";

/** Locale to message id to message source. */
export type Messages = Record<string, Record<string, string>>;

/** Formats messages by id. */
export class Catalog {
  #cache = new Map<string, Message>();

  constructor(readonly messages: Messages, readonly defaultLocale = "en") {}

  /** Formats message `id` in `locale`; throws when no locale in the fallback chain has it. */
  t(locale: string, id: string, values: Values = {}): string {
    for (const candidate of this.chain(locale)) {
      const source = this.messages[candidate]?.[id];
      if (source === undefined) continue;
      return formatMessage(this.#parsed(candidate, id, source), values, candidate);
    }
    throw new Error(`no message "${id}" for ${locale}`);
  }

  /** Locales tried for `locale`, most specific first, without duplicates. */
  chain(locale: string): string[] {
    return [...new Set([locale, baseLanguage(locale), this.defaultLocale])];
  }

  #parsed(locale: string, id: string, source: string): Message {
    const key = `${locale}\u0000${id}`;
    let message = this.#cache.get(key);
    if (!message) {
      message = parseMessage(source);
      this.#cache.set(key, message);
    }
    return message;
  }
}
