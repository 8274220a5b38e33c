"use strict";
const { parse } = require("./parse");
const { format, humanize } = require("./format");
const { DurationError } = require("./errors");

module.exports = { parse, format, humanize, DurationError };
