import {
  ASSIGNMENT_STATUS,
  BATCH_STATUS,
  COST_KIND,
  DECISION,
  HIT_STATUS,
  IMPORT_KIND,
  IMPORT_STATUS,
  JOB_STATE,
  PROVIDER_ASSIGNMENT_STATUS,
  PROVIDER_KIND,
  QUALIFICATION_STATUS,
  TWEET_ROLE,
  TWEET_STATUS,
} from "./enums";

/**
 * Finds bare enum values of the schema in source text (`status === "published"`, `role: "gold"`, SQL
 * `"status" = 'approved'`, `state: { in: ["queued", ...] }`...): code names them through lib/db/enums.ts.
 * A line that must keep one (another API's vocabulary of the same word) says `enum-literal-ok` and why.
 */
const set = (...enums: Record<string, string>[]) => new Set(enums.flatMap((e) => Object.values(e)));
const STATUSES = set(TWEET_STATUS, HIT_STATUS, BATCH_STATUS, ASSIGNMENT_STATUS, IMPORT_STATUS, QUALIFICATION_STATUS, PROVIDER_ASSIGNMENT_STATUS);

/** The field names that hold an enum value, and the values each may hold. */
export const ENUM_FIELDS: Record<string, Set<string>> = {
  status: STATUSES,
  providerStatus: set(PROVIDER_ASSIGNMENT_STATUS),
  role: set(TWEET_ROLE),
  // Job.state, and the procedure's tweet and HIT decisions that become Tweet.status and Hit.status.
  state: set(JOB_STATE, TWEET_STATUS, HIT_STATUS),
  decision: set(DECISION),
  kind: set(COST_KIND, IMPORT_KIND, PROVIDER_KIND),
  provider: set(PROVIDER_KIND),
};

export type EnumLiteral = { line: number; field: string; value: string; text: string };

const KEY = `(${Object.keys(ENUM_FIELDS).join("|")})`;
const Q = `["'\`]`;
const VALUE = `${Q}([A-Za-z_]+)${Q}`;
// Each pattern captures the field name and the value, or the list of values, it names.
const PATTERNS: { re: RegExp; key: number; value: number }[] = [
  // status: "x" · status === "x" · status = "x" · status?: "x" | ... · "status" = 'x' (SQL) · status <> 'x'
  { re: new RegExp(`\\b${KEY}"?\\??\\s*(?:===|!==|==|!=|<>|:|=(?!>))\\s*\\(?\\s*${VALUE}`, "g"), key: 1, value: 2 },
  // "x" === a.status
  { re: new RegExp(`${VALUE}\\s*(?:===|!==|==|!=)\\s*[\\w.?]*\\b${KEY}\\b`, "g"), key: 2, value: 1 },
  // status: { not: "x" } · status: { in: ["x", "y"] } (every value of the list)
  { re: new RegExp(`\\b${KEY}\\s*:\\s*\\{\\s*(?:not|equals|in|notIn)\\s*:\\s*(\\[[^\\]]*\\]|${Q}\\w+${Q})`, "g"), key: 1, value: 2 },
  // SQL: "status" IN ('x', 'y') · "data"->>'status' IN (...) · json_extract("data", '$.status') IN (...)
  { re: new RegExp(`\\b${KEY}["')]*\\s+(?:NOT\\s+)?IN\\s*(\\([^)]*\\))`, "gi"), key: 1, value: 2 },
  // ["x", "y"].includes(a.status)
  { re: new RegExp(`(\\[[^\\]]*\\])\\.includes\\(\\s*[\\w.?]*\\b${KEY}\\s*\\)`, "g"), key: 2, value: 1 },
  // status: done ? "x" : "y" (every value of the conditional)
  { re: new RegExp(`\\b${KEY}\\s*(?::|=(?![=>]))\\s*[^,;{}?"'\`]+\\?([^,;{}]+)`, "g"), key: 1, value: 2 },
  // isOneOf(a.status, ["x", "y"])
  { re: new RegExp(`\\bisOneOf\\(\\s*[\\w.?]*\\b${KEY}\\s*,\\s*(\\[[^\\]]*\\])`, "g"), key: 1, value: 2 },
];
const QUOTED = new RegExp(`^${VALUE}$`);
const QUOTED_ALL = new RegExp(VALUE, "g");
/** The values a match names: one quoted word, or every quoted word of a list. */
const valuesOf = (s: string) => (QUOTED.test(s) ? [s.slice(1, -1)] : [...s.matchAll(QUOTED_ALL)].map((m) => m[1]));

/** The bare enum literals of one source text, by line (1-based); comment lines are skipped. */
export function findEnumLiterals(source: string): EnumLiteral[] {
  const found: EnumLiteral[] = [];
  source.split("\n").forEach((text, i) => {
    const t = text.trim();
    if (t.startsWith("//") || t.startsWith("*") || t.startsWith("/*") || text.includes("enum-literal-ok")) return;
    const onLine: (EnumLiteral & { at: number })[] = [];
    for (const { re, key, value } of PATTERNS) {
      for (const m of text.matchAll(re)) {
        const field = Object.keys(ENUM_FIELDS).find((k) => k.toLowerCase() === m[key].toLowerCase()) as string;
        const named = /^[A-Za-z_]+$/.test(m[value]) ? [m[value]] : valuesOf(m[value]);
        for (const v of named) if (ENUM_FIELDS[field].has(v)) onLine.push({ line: i + 1, field, value: v, text: t, at: m.index });
      }
    }
    found.push(...onLine.sort((a, b) => a.at - b.at).map(({ at: _at, ...l }) => l));
  });
  return found;
}
