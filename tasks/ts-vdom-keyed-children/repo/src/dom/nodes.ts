/** In-memory DOM nodes with the subset of the browser API the reconciler uses. */

export type MockNode = MockElement | MockText;

export class MockText {
  readonly nodeType = 3;
  parent: MockElement | null = null;

  constructor(public data: string) {}

  toHTML(): string {
    return this.data.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  }
}

export class MockElement {
  readonly nodeType = 1;
  parent: MockElement | null = null;
  readonly attributes = new Map<string, string>();
  readonly childNodes: MockNode[] = [];

  constructor(readonly tagName: string, private readonly onInsert: () => void = () => {}) {}

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }

  removeAttribute(name: string): void {
    this.attributes.delete(name);
  }

  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }

  /** Appends `node`, first detaching it from wherever it is (like the browser). */
  appendChild(node: MockNode): MockNode {
    return this.insertBefore(node, null);
  }

  /** Inserts `node` before `ref` (at the end when `ref` is null), moving it if attached. */
  insertBefore(node: MockNode, ref: MockNode | null): MockNode {
    if (ref !== null && ref.parent !== this) throw new Error("insertBefore: ref is not a child");
    if (node.parent) node.parent.removeChild(node);
    const index = ref === null ? this.childNodes.length : this.childNodes.indexOf(ref);
    this.childNodes.splice(index, 0, node);
    node.parent = this;
    this.onInsert();
    return node;
  }

  removeChild(node: MockNode): MockNode {
    const index = this.childNodes.indexOf(node);
    if (index === -1) throw new Error("removeChild: not a child");
    this.childNodes.splice(index, 1);
    node.parent = null;
    return node;
  }

  replaceChild(node: MockNode, old: MockNode): MockNode {
    this.insertBefore(node, old);
    return this.removeChild(old);
  }

  get textContent(): string {
    return this.childNodes.map((c) => (c instanceof MockText ? c.data : c.textContent)).join("");
  }

  toHTML(): string {
    const attrs = [...this.attributes].map(([k, v]) => ` ${k}="${v.replace(/"/g, "&quot;")}"`).join("");
    return `<${this.tagName}${attrs}>${this.childNodes.map((c) => c.toHTML()).join("")}</${this.tagName}>`;
  }
}
