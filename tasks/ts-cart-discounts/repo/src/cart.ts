/** A shopping cart holding line items priced in integer cents. */

export interface LineItem {
  sku: string;
  name: string;
  /** Unit price in cents. */
  unitPrice: number;
  qty: number;
}

export class Cart {
  #lines = new Map<string, LineItem>();

  /** Add an item; adding an existing SKU increases its quantity. */
  add(item: LineItem): this {
    if (item.qty <= 0 || !Number.isInteger(item.qty)) {
      throw new RangeError(`invalid quantity for ${item.sku}: ${item.qty}`);
    }
    const existing = this.#lines.get(item.sku);
    if (existing) {
      existing.qty += item.qty;
    } else {
      this.#lines.set(item.sku, { ...item });
    }
    return this;
  }

  /** Remove `qty` units of a SKU (all of them when qty is omitted). */
  remove(sku: string, qty?: number): this {
    const line = this.#lines.get(sku);
    if (!line) return this;
    if (qty === undefined || qty >= line.qty) {
      this.#lines.delete(sku);
    } else {
      line.qty -= qty;
    }
    return this;
  }

  /** Copies of the current lines, in insertion order. */
  lines(): LineItem[] {
    return [...this.#lines.values()].map((l) => ({ ...l }));
  }

  /** Quantity of one SKU (0 when absent). */
  quantityOf(sku: string): number {
    return this.#lines.get(sku)?.qty ?? 0;
  }

  /** Sum of unitPrice * qty over all lines, in cents. */
  subtotal(): number {
    let total = 0;
    for (const line of this.#lines.values()) total += line.unitPrice * line.qty;
    return total;
  }
}
