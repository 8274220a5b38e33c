/**
 * chroma-lite: parse, convert and adjust CSS colors.
 *
 * ```ts
 * rgbToHex(lighten(parseColor("hsl(210, 60%, 40%)"), 0.1));
 * ```
 */
export type { Hsl, Rgb } from "./types.ts";
export { hslToRgb, rgbToHex, rgbToHsl } from "./convert.ts";
export { ColorParseError, parseColor } from "./parse.ts";
export { contrastRatio, darken, lighten, luminance, mix } from "./manipulate.ts";
