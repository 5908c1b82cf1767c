import ts from "typescript";

/**
 * Finds what makes a test depend on the machine's speed (the house rule: no test asserts a duration or sleeps a
 * fixed time): Playwright's waitForTimeout, a fixed sleep (a promise resolved by a timer) outside a polling loop,
 * and a comparison asserted on a measured time (elapsed ms, percentiles, event-loop delay or utilisation).
 * A line carrying (or following) `// timing-ok: <reason>` is reported as marked, for the rare justified case.
 */
export type TimedRule = "wait-for-timeout" | "sleep" | "elapsed-assertion";
export type TimedFinding = { line: number; rule: TimedRule; text: string; marked: string | null };

const COMPARISONS = new Set(["toBeLessThan", "toBeLessThanOrEqual", "toBeGreaterThan", "toBeGreaterThanOrEqual", "toBeCloseTo"]);
/** Code that measures time: clocks read for a difference, high-resolution timers, event-loop statistics. */
const MEASURES_TIME = /performance\.now\(|process\.hrtime|hrtime\.bigint|eventLoopUtilization|monitorEventLoopDelay|\.percentile\(|Date\.now\(\)\s*-(?!\s*[\d_]+\s*(?:[),;\]]|$))/;
/** Variables named for a measured time. */
const NAMED_FOR_TIME = /^(?:(?:elapsed|duration|latency|latencies|took)(?:Ms|Ns|S|Seconds)?|p(?:50|9\d)(?:Ms)?)$/i;
const MARKER = /\/\/\s*timing-ok:\s*(.+)$/;
const TIMERS_PROMISES = new Set(["timers/promises", "node:timers/promises"]);

export function findTimedTestCode(source: string, fileName = "file.test.ts"): TimedFinding[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lines = source.split("\n");
  const initializers = new Map<string, ts.Expression[]>();
  const promiseTimers = new Set<string>();
  const schedulers = new Set<string>();
  const findings: TimedFinding[] = [];

  const collect = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      initializers.set(node.name.text, [...(initializers.get(node.name.text) ?? []), node.initializer]);
    }
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && TIMERS_PROMISES.has(node.moduleSpecifier.text)) {
      const named = node.importClause?.namedBindings;
      if (named && ts.isNamedImports(named)) {
        for (const el of named.elements) {
          const imported = (el.propertyName ?? el.name).text;
          if (imported === "setTimeout") promiseTimers.add(el.name.text);
          if (imported === "scheduler") schedulers.add(el.name.text);
        }
      }
    }
    ts.forEachChild(node, collect);
  };
  collect(sf);

  const report = (node: ts.Node, rule: TimedRule) => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
    const mark = MARKER.exec(lines[line] ?? "") ?? MARKER.exec(lines[line - 1] ?? "");
    findings.push({ line: line + 1, rule, text: (lines[line] ?? "").trim(), marked: mark ? mark[1]!.trim() : null });
  };

  walk(sf);
  return findings;

  function walk(node: ts.Node): void {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === "waitForTimeout") report(node, "wait-for-timeout");
      else if (ts.isIdentifier(callee) && callee.text === "setTimeout" && isPromiseSleep(node) && !inLoop(enclosingPromise(node) ?? node)) report(node, "sleep");
      else if (((ts.isIdentifier(callee) && promiseTimers.has(callee.text)) || (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && schedulers.has(callee.expression.text) && callee.name.text === "wait")) && !inLoop(node)) report(node, "sleep");
      else if (isExpectCall(node) && comparedAfter(node) && measuresTime(node.arguments[0], 0)) report(node, "elapsed-assertion");
    }
    ts.forEachChild(node, walk);
  }

  /** `setTimeout(resolve, ms)` or `setTimeout(() => resolve(), ms)` inside `new Promise((resolve) => …)`. */
  function isPromiseSleep(call: ts.CallExpression): boolean {
    const promise = enclosingPromise(call);
    const executor = promise?.arguments?.[0];
    if (!executor || !(ts.isArrowFunction(executor) || ts.isFunctionExpression(executor))) return false;
    const resolve = executor.parameters[0]?.name;
    if (!resolve || !ts.isIdentifier(resolve)) return false;
    const cb = call.arguments[0];
    if (!cb) return false;
    if (ts.isIdentifier(cb)) return cb.text === resolve.text;
    if (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb)) {
      const body = ts.isBlock(cb.body) ? (cb.body.statements.length === 1 && ts.isExpressionStatement(cb.body.statements[0]!) ? cb.body.statements[0].expression : null) : cb.body;
      return !!body && ts.isCallExpression(body) && ts.isIdentifier(body.expression) && body.expression.text === resolve.text;
    }
    return false;
  }

  function enclosingPromise(node: ts.Node): ts.NewExpression | null {
    for (let n = node.parent; n; n = n.parent) {
      if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "Promise") return n;
    }
    return null;
  }

  /** Inside a loop of the function that runs it: a polling interval, not a fixed wait. */
  function inLoop(node: ts.Node): boolean {
    for (let n = node.parent; n && !ts.isSourceFile(n); n = n.parent) {
      if (ts.isIterationStatement(n, false)) return true;
      if (ts.isFunctionLike(n)) return false;
    }
    return false;
  }

  function isExpectCall(call: ts.CallExpression): boolean {
    const c = call.expression;
    return (ts.isIdentifier(c) && c.text === "expect") || (ts.isPropertyAccessExpression(c) && ts.isIdentifier(c.expression) && c.expression.text === "expect" && c.name.text === "soft");
  }

  /** expect(x)[.not].toBeLessThan(…) and the other comparisons. */
  function comparedAfter(call: ts.CallExpression): boolean {
    let n: ts.Node = call;
    while (ts.isPropertyAccessExpression(n.parent) && n.parent.expression === n) {
      if (COMPARISONS.has(n.parent.name.text)) return true;
      if (n.parent.name.text !== "not") return false;
      n = n.parent;
    }
    return false;
  }

  /** Whether an expression (following variables to their initialisers, a few steps deep) is a measured time. */
  function measuresTime(expr: ts.Node | undefined, depth: number): boolean {
    if (!expr || depth > 3) return false;
    if (MEASURES_TIME.test(expr.getText(sf))) return true;
    let found = false;
    const visit = (n: ts.Node): void => {
      if (found) return;
      if (ts.isIdentifier(n) && !(ts.isPropertyAccessExpression(n.parent) && n.parent.name === n)) {
        if (NAMED_FOR_TIME.test(n.text) || (initializers.get(n.text) ?? []).some((init) => init !== expr && measuresTime(init, depth + 1))) found = true;
      }
      ts.forEachChild(n, visit);
    };
    visit(expr);
    return found;
  }
}
