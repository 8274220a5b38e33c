export { slug } from "./slug.js";
export { headings, plainText } from "./headings.js";
export { entries, toc } from "./toc.js";
