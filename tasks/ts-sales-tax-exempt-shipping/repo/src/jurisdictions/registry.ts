/** Resolving an address to the chain of jurisdictions that tax it. */
import type { Address, Jurisdiction } from "./types.ts";

/** Thrown for addresses naming a jurisdiction we do not know. */
export class UnknownJurisdictionError extends Error {
  constructor(readonly code: string) {
    super(`unknown jurisdiction "${code}"`);
    this.name = "UnknownJurisdictionError";
  }
}

export class JurisdictionRegistry {
  readonly #byCode = new Map<string, Jurisdiction>();

  constructor(jurisdictions: Iterable<Jurisdiction>) {
    for (const j of jurisdictions) this.#byCode.set(j.code, j);
  }

  get(code: string): Jurisdiction {
    const j = this.#byCode.get(code);
    if (!j) throw new UnknownJurisdictionError(code);
    return j;
  }

  /**
   * The jurisdictions taxing `address`, state first. County and city codes are built from
   * their parents: state "NS", county "LAKE" -> "NS-LAKE"; a city without a county hangs
   * directly off the state ("SS-PORT").
   */
  chain(address: Address): Jurisdiction[] {
    const chain = [this.get(address.state)];
    let prefix = address.state;
    if (address.county) {
      prefix = `${prefix}-${address.county}`;
      chain.push(this.get(prefix));
    }
    if (address.city) chain.push(this.get(`${prefix}-${address.city}`));
    return chain;
  }
}
