import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as mdtoc from "../src/index.js";

const { entries, toc } = mdtoc;

const anchors = (markdown, options) => entries(markdown, options).map((e) => e.anchor);

describe("duplicate headings", () => {
  it("number repeated anchors from 1", () => {
    assert.deepEqual(anchors("## Usage\n## Usage\n## Usage\n"), ["usage", "usage-1", "usage-2"]);
  });

  it("move past a suffixed anchor that a heading already took", () => {
    assert.deepEqual(anchors("# Intro\n# Intro\n# Intro 1\n# Intro-1\n"), [
      "intro",
      "intro-1",
      "intro-1-1",
      "intro-1-2",
    ]);
  });

  it("count headings of every level, also those the options leave out", () => {
    const doc = "# Setup\n## Setup\n### Setup\n";
    assert.deepEqual(anchors(doc), ["setup", "setup-1", "setup-2"]);
    assert.deepEqual(anchors(doc, { minLevel: 2 }), ["setup-1", "setup-2"]);
  });

  it("link the numbered anchors in the table of contents", () => {
    assert.equal(toc("# API\n## Errors\n# CLI\n## Errors\n"), [
      "- [API](#api)",
      "  - [Errors](#errors)",
      "- [CLI](#cli)",
      "  - [Errors](#errors-1)",
      "",
    ].join("\n"));
  });
});

describe("Slugger", () => {
  it("remembers the anchors it gave", () => {
    const slugger = new mdtoc.Slugger();
    assert.deepEqual(["A b", "A b", "a-b-1", "Other"].map((t) => slugger.slug(t)), [
      "a-b",
      "a-b-1",
      "a-b-1-1",
      "other",
    ]);
  });

  it("starts over after reset", () => {
    const slugger = new mdtoc.Slugger();
    slugger.slug("Notes");
    slugger.reset();
    assert.equal(slugger.slug("Notes"), "notes");
  });
});

describe("anchors that were already right", () => {
  it("each document starts fresh", () => {
    assert.deepEqual(anchors("# Notes\n"), ["notes"]);
    assert.deepEqual(anchors("# Notes\n"), ["notes"]);
  });

  it("distinct headings keep their plain anchors", () => {
    assert.deepEqual(anchors("# One\n## Two\n### Three\n"), ["one", "two", "three"]);
  });
});
