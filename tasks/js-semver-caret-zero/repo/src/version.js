/** A parsed semantic version: numbers plus optional prerelease identifiers. */
export class Version {
  constructor(major, minor, patch, prerelease = []) {
    this.major = major;
    this.minor = minor;
    this.patch = patch;
    this.prerelease = prerelease;
  }

  toString() {
    const core = `${this.major}.${this.minor}.${this.patch}`;
    return this.prerelease.length > 0 ? `${core}-${this.prerelease.join(".")}` : core;
  }
}

const VERSION = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Parse "1.2.3", "v1.2.3-beta.1" or "1.2.3+build"; throws on anything else. */
export function parseVersion(text) {
  const match = VERSION.exec(String(text).trim());
  if (match === null) throw new TypeError(`Invalid version: "${text}"`);
  const prerelease = match[4] === undefined
    ? []
    : match[4].split(".").map((id) => (/^\d+$/.test(id) ? Number(id) : id));
  return new Version(Number(match[1]), Number(match[2]), Number(match[3]), prerelease);
}
