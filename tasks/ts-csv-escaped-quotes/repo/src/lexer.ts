/**
 * RFC 4180 style CSV lexer: turns text into rows of raw field strings.
 *
 * - fields may be quoted with `"`; inside quotes a doubled quote `""` stands
 *   for one literal quote, and delimiters and newlines are literal;
 * - rows end at `\n` or `\r\n`; a final line ending does not start a new row;
 * - a leading byte-order mark is ignored.
 */

export class CsvError extends Error {
  constructor(message: string, readonly line: number, readonly column: number) {
    super(`${message} (line ${line}, column ${column})`);
    this.name = "CsvError";
  }
}

type State = "fieldStart" | "unquoted" | "quoted" | "afterQuote";

export function lex(text: string, delimiter = ","): string[][] {
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === "\n" || delimiter === "\r") {
    throw new RangeError(`invalid delimiter ${JSON.stringify(delimiter)}`);
  }
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let state: State = "fieldStart";
  let line = 1;
  let column = 0;

  const endField = () => {
    row.push(field);
    field = "";
    state = "fieldStart";
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };

  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    column++;
    if (state === "quoted") {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
        } else {
          state = "afterQuote";
        }
      } else {
        if (ch === "\n") {
          line++;
          column = 0;
        }
        field += ch;
      }
      continue;
    }
    if (ch === delimiter) {
      endField();
    } else if (ch === "\n" || (ch === "\r" && text[i + 1] === "\n")) {
      if (ch === "\r") i++;
      endRow();
      line++;
      column = 0;
    } else if (state === "afterQuote") {
      throw new CsvError(`unexpected ${JSON.stringify(ch)} after closing quote`, line, column);
    } else if (ch === '"' && state === "fieldStart") {
      state = "quoted";
    } else if (ch === '"') {
      throw new CsvError("quote inside an unquoted field", line, column);
    } else {
      field += ch;
      state = "unquoted";
    }
  }
  if (state === "quoted") throw new CsvError("unterminated quoted field", line, column);
  if (field !== "" || row.length > 0 || state === "afterQuote") endRow();
  return rows;
}
