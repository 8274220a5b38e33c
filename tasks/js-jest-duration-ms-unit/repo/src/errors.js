"use strict";

class DurationError extends Error {
  constructor(text, detail) {
    super(`Cannot read duration "${text}": ${detail}`);
    this.name = "DurationError";
    this.text = text;
  }
}

module.exports = { DurationError };
