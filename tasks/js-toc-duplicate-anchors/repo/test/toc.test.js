import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { entries, headings, toc } from "../src/index.js";

const DOC = `# Guide

Intro text.

## Install

\`\`\`sh
# not a heading
npm install mdtoc
\`\`\`

## Use \`toc()\`

### Options ##
`;

describe("headings", () => {
  it("skips fenced code and strips closing hashes and inline code", () => {
    assert.deepEqual(headings(DOC), [
      { level: 1, text: "Guide" },
      { level: 2, text: "Install" },
      { level: 2, text: "Use toc()" },
      { level: 3, text: "Options" },
    ]);
  });
});

describe("toc", () => {
  it("nests entries by level", () => {
    assert.equal(
      toc(DOC),
      "- [Guide](#guide)\n  - [Install](#install)\n  - [Use toc()](#use-toc)\n    - [Options](#options)\n",
    );
  });

  it("limits levels", () => {
    assert.deepEqual(entries(DOC, { minLevel: 2, maxLevel: 2 }).map((e) => e.anchor), [
      "install",
      "use-toc",
    ]);
  });

  it("is empty without headings", () => {
    assert.equal(toc("just text\n"), "");
  });
});
