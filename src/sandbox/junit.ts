/**
 * A small JUnit XML reader: just the testcases and whether each passed, failed, errored or was
 * skipped. Reports come from the runner process (deno test, pytest), never from test output text.
 */

/** Outcome of one test. */
export type TestOutcome = "passed" | "failed" | "error" | "skipped";

/** One `<testcase>` from a report. */
export interface JunitCase {
  classname: string;
  name: string;
  outcome: TestOutcome;
  /** Failure or error message, if any (first 2,000 characters). */
  message?: string;
}

/** Parse the testcases of a JUnit XML document. */
export function parseJunit(xml: string): JunitCase[] {
  const cases: JunitCase[] = [];
  const pattern = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  for (const match of xml.matchAll(pattern)) {
    const attrs = parseAttributes(match[1]);
    const body = match[3] ?? "";
    let outcome: TestOutcome = "passed";
    if (/<skipped\b/.test(body)) outcome = "skipped";
    else if (/<error\b/.test(body)) outcome = "error";
    else if (/<failure\b/.test(body)) outcome = "failed";
    const messageMatch = /<(?:failure|error)\b[^>]*?message="([^"]*)"/.exec(body);
    cases.push({
      classname: attrs.classname ?? "",
      name: attrs.name ?? "",
      outcome,
      ...(messageMatch ? { message: unescapeXml(messageMatch[1]).slice(0, 2000) } : {}),
    });
  }
  return cases;
}

function parseAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const match of text.matchAll(/([\w:-]+)="([^"]*)"/g)) {
    attrs[match[1]] = unescapeXml(match[2]);
  }
  return attrs;
}

/** Replace XML entities with their characters. */
export function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, entity: string) => {
    switch (entity) {
      case "amp":
        return "&";
      case "lt":
        return "<";
      case "gt":
        return ">";
      case "quot":
        return '"';
      case "apos":
        return "'";
      default:
        return String.fromCodePoint(
          entity[1] === "x" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10),
        );
    }
  });
}
