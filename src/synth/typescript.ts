/**
 * TypeScript mutants from the TypeScript compiler's own parser (npm `typescript`): each mutation is
 * found on the syntax tree and kept only when the mutated file still parses without syntax errors
 * and prints differently (comments and formatting ignored). Parsing only; nothing is type-checked
 * or run.
 */
import ts from "typescript";
import type { Mutant, MutationOperator } from "./mutant.ts";

const SWAPS: Partial<Record<ts.SyntaxKind, [MutationOperator, string]>> = {
  [ts.SyntaxKind.PlusToken]: ["operator", "-"],
  [ts.SyntaxKind.MinusToken]: ["operator", "+"],
  [ts.SyntaxKind.AsteriskToken]: ["operator", "/"],
  [ts.SyntaxKind.SlashToken]: ["operator", "*"],
  [ts.SyntaxKind.PercentToken]: ["operator", "*"],
  [ts.SyntaxKind.AmpersandAmpersandToken]: ["operator", "||"],
  [ts.SyntaxKind.BarBarToken]: ["operator", "&&"],
  [ts.SyntaxKind.QuestionQuestionToken]: ["operator", "||"],
  [ts.SyntaxKind.PlusEqualsToken]: ["operator", "-="],
  [ts.SyntaxKind.MinusEqualsToken]: ["operator", "+="],
  [ts.SyntaxKind.LessThanToken]: ["comparison", "<="],
  [ts.SyntaxKind.LessThanEqualsToken]: ["comparison", "<"],
  [ts.SyntaxKind.GreaterThanToken]: ["comparison", ">="],
  [ts.SyntaxKind.GreaterThanEqualsToken]: ["comparison", ">"],
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: ["comparison", "!=="],
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: ["comparison", "==="],
  [ts.SyntaxKind.EqualsEqualsToken]: ["comparison", "!="],
  [ts.SyntaxKind.ExclamationEqualsToken]: ["comparison", "=="],
};

/** Comparison operators and the negation a person would write. */
const NEGATED: Partial<Record<ts.SyntaxKind, string>> = {
  [ts.SyntaxKind.LessThanToken]: ">=",
  [ts.SyntaxKind.LessThanEqualsToken]: ">",
  [ts.SyntaxKind.GreaterThanToken]: "<=",
  [ts.SyntaxKind.GreaterThanEqualsToken]: "<",
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: "!==",
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: "===",
};

/** Every mutant found in `files` (repository path to source). */
export async function typescriptMutants(files: Record<string, string>): Promise<Mutant[]> {
  const out: Mutant[] = [];
  for (const [path, text] of Object.entries(files)) out.push(...await fileMutants(path, text));
  return out;
}

async function fileMutants(path: string, text: string): Promise<Mutant[]> {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  if (parseErrors(source) > 0) return [];
  const original = normalized(source);
  const candidates: {
    start: number;
    end: number;
    replacement: string;
    operator: MutationOperator;
    node: ts.Node;
  }[] = [];
  const add = (
    start: number,
    end: number,
    replacement: string,
    operator: MutationOperator,
    node: ts.Node,
  ) => candidates.push({ start, end, replacement, operator, node });
  const span = (node: ts.Node) => [node.getStart(source), node.getEnd()] as const;
  const textOf = (node: ts.Node) => text.slice(node.getStart(source), node.getEnd());

  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isTypeNode(node)) return;
    if (ts.isBinaryExpression(node)) {
      const swap = SWAPS[node.operatorToken.kind];
      if (swap) add(...span(node.operatorToken), swap[1], swap[0], node);
    } else if (ts.isNumericLiteral(node) && /^\d+$/.test(node.text)) {
      const value = Number(node.text);
      add(...span(node), String(value + 1), "off_by_one", node);
      if (value > 0) add(...span(node), String(value - 1), "off_by_one", node);
    } else if (
      ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isConditionalExpression(node)
    ) {
      const test = ts.isConditionalExpression(node) ? node.condition : node.expression;
      if (ts.isPrefixUnaryExpression(test) && test.operator === ts.SyntaxKind.ExclamationToken) {
        add(...span(test), textOf(test.operand), "invert_condition", node);
      } else if (ts.isBinaryExpression(test) && NEGATED[test.operatorToken.kind]) {
        // The negation a person would write, not "!(...)" around the whole condition.
        const token = test.operatorToken;
        add(
          token.getStart(source),
          token.getEnd(),
          NEGATED[token.kind]!,
          "invert_condition",
          node,
        );
      } else if (
        ts.isIdentifier(test) || ts.isPropertyAccessExpression(test) || ts.isCallExpression(test)
      ) {
        add(...span(test), `!${textOf(test)}`, "invert_condition", node);
      }
    } else if (ts.isCallExpression(node) && node.arguments.length >= 2) {
      const [a, b] = node.arguments;
      if (!ts.isSpreadElement(a) && !ts.isSpreadElement(b) && textOf(a) !== textOf(b)) {
        const middle = text.slice(a.getEnd(), b.getStart(source));
        add(
          a.getStart(source),
          b.getEnd(),
          `${textOf(b)}${middle}${textOf(a)}`,
          "swap_arguments",
          node,
        );
      }
    } else if (ts.isParameter(node) && node.initializer) {
      const init = node.initializer;
      if (init.kind === ts.SyntaxKind.TrueKeyword) {
        add(...span(init), "false", "wrong_default", node);
      } else if (init.kind === ts.SyntaxKind.FalseKeyword) {
        add(...span(init), "true", "wrong_default", node);
      } else if (ts.isNumericLiteral(init)) {
        add(...span(init), String(Number(init.text) + 1), "wrong_default", node);
      } else if (ts.isStringLiteral(init) && init.text !== "") {
        add(...span(init), '""', "wrong_default", node);
      }
      return; // the initializer's own literal is mutated above, not again as off-by-one
    }
    if (ts.isBlock(node) && node.statements.length >= 2) {
      for (const statement of node.statements) {
        if (
          !ts.isExpressionStatement(statement) && !ts.isReturnStatement(statement) &&
          !ts.isVariableStatement(statement) && !ts.isThrowStatement(statement)
        ) continue;
        const start = statement.getStart(source);
        const { line } = source.getLineAndCharacterOfPosition(start);
        const { line: endLine } = source.getLineAndCharacterOfPosition(statement.getEnd());
        if (line !== endLine) continue;
        add(start, statement.getEnd(), "", "drop_statement", statement);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);

  const out: Mutant[] = [];
  for (const c of candidates) {
    const mutated = text.slice(0, c.start) + c.replacement + text.slice(c.end);
    const tree = ts.createSourceFile(path, mutated, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    if (parseErrors(tree) > 0) continue;
    const printed = normalized(tree);
    if (printed === original) continue;
    out.push({
      file: path,
      start: byteOffset(text, c.start),
      end: byteOffset(text, c.end),
      replacement: c.replacement,
      operator: c.operator,
      line: source.getLineAndCharacterOfPosition(c.node.getStart(source)).line + 1,
      hash: await sha1(printed),
    });
  }
  return out;
}

function parseErrors(source: ts.SourceFile): number {
  return (source as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length;
}

const printer = ts.createPrinter({ removeComments: true });

function normalized(source: ts.SourceFile): string {
  return printer.printFile(source);
}

function byteOffset(text: string, index: number): number {
  return new TextEncoder().encode(text.slice(0, index)).length;
}

async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
