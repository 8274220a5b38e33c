/** A tiny method + path router. */
import { normalizeTarget, pathSegments } from "./path.ts";
import { compilePattern, CompiledPattern, matchPattern } from "./pattern.ts";
import { parseQuery, Query } from "./query.ts";

export interface Match<H> {
  handler: H;
  params: Record<string, string>;
  query: Query;
  /** The pattern that matched, as registered. */
  pattern: string;
}

interface Route<H> {
  method: string;
  pattern: CompiledPattern;
  handler: H;
}

export class Router<H> {
  #routes: Route<H>[] = [];

  /** Register a handler; the most specific matching pattern wins. */
  add(method: string, pattern: string, handler: H): this {
    this.#routes.push({ method: method.toUpperCase(), pattern: compilePattern(pattern), handler });
    this.#routes.sort((a, b) => b.pattern.score - a.pattern.score);
    return this;
  }

  /** Find the route for a request target like "/users/42?tab=posts". */
  match(method: string, target: string): Match<H> | null {
    const { path, query } = normalizeTarget(target);
    const segments = pathSegments(path);
    for (const route of this.#routes) {
      if (route.method !== method.toUpperCase() && route.method !== "*") continue;
      const params = matchPattern(route.pattern, segments);
      if (params) {
        return { handler: route.handler, params, query: parseQuery(query), pattern: route.pattern.source };
      }
    }
    return null;
  }

  /** Methods that have a route for this target (for 405 responses). */
  allowedMethods(target: string): string[] {
    const segments = pathSegments(normalizeTarget(target).path);
    const methods = new Set<string>();
    for (const route of this.#routes) {
      if (matchPattern(route.pattern, segments)) methods.add(route.method);
    }
    return [...methods].sort();
  }
}
