#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { formatTable, loadRegistry, outdated } from "./index.js";

const [manifestPath, installedPath, registryPath] = process.argv.slice(2);
if (!registryPath) {
  console.error("usage: depcheck-lite PACKAGE_JSON INSTALLED_JSON REGISTRY_JSON");
  process.exit(2);
}
const rows = outdated(
  JSON.parse(readFileSync(manifestPath, "utf8")),
  JSON.parse(readFileSync(installedPath, "utf8")),
  loadRegistry(registryPath),
);
console.log(formatTable(rows));
process.exitCode = rows.length > 0 ? 1 : 0;
