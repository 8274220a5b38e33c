/** File bytes as text: the one place that decides what counts as a text file. */

const decoder = new TextDecoder("utf-8", { fatal: true });
const bomKeepingDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Options of {@linkcode decodeText}. */
export interface DecodeOptions {
  /** Keep a leading byte-order mark in the text (default: dropped), e.g. to write the file back. */
  keepBom?: boolean;
}

/** Decode UTF-8 text, or null for binary content (a NUL byte or invalid UTF-8). */
export function decodeText(bytes: Uint8Array, options: DecodeOptions = {}): string | null {
  if (bytes.includes(0)) return null;
  try {
    return (options.keepBom ? bomKeepingDecoder : decoder).decode(bytes);
  } catch {
    return null;
  }
}
