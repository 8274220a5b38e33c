/** Creates nodes and counts DOM operations, so tests can assert how much work a patch did. */
import { MockElement, MockText } from "./nodes.ts";

export interface DomStats {
  /** Elements and text nodes created. */
  created: number;
  /** Calls to appendChild / insertBefore (including moves). */
  inserted: number;
}

export class MockDocument {
  readonly stats: DomStats = { created: 0, inserted: 0 };

  createElement(tagName: string): MockElement {
    this.stats.created++;
    return new MockElement(tagName, () => this.stats.inserted++);
  }

  createTextNode(data: string): MockText {
    this.stats.created++;
    return new MockText(data);
  }

  /** Resets the counters (e.g. after the first render). */
  resetStats(): void {
    this.stats.created = 0;
    this.stats.inserted = 0;
  }
}
