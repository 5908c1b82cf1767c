/**
 * Substring search that takes `%`, `_` and `\` literally. Prisma's `contains` becomes SQL LIKE without escaping them:
 * on PostgreSQL they are escaped with a backslash (LIKE's default escape character); SQLite's LIKE has no escape
 * character unless the query says ESCAPE, which Prisma does not, so a search holding one of them runs a raw instr()
 * query there instead (LITERAL_SEARCH_CAP matches at most).
 */
export const LITERAL_SEARCH_CAP = 5000;

export function hasLikeWildcards(q: string): boolean {
  return /[\\%_]/.test(q);
}

export function escapeLike(q: string): string {
  return q.replace(/[\\%_]/g, (c) => `\\${c}`);
}
