"use strict";
const { parse } = require("./parse");
const { stringify } = require("./stringify");
const { toRecords, fromRecords } = require("./records");
const { CsvError } = require("./errors");

module.exports = { parse, stringify, toRecords, fromRecords, CsvError };
