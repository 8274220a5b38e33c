export { loadRegistry, parseRegistry, versionsOf } from "./registry.js";
export { latestOf, outdated, updateType } from "./outdated.js";
export { formatTable } from "./format.js";
