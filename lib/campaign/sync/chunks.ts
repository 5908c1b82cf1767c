/** Prisma does not split an IN (…) list longer than SQLite's 999 bound parameters: lists of ids go in slices. */
const IN_CHUNK = 500;

export async function inChunks<T>(ids: readonly string[], fn: (chunk: string[]) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += IN_CHUNK) out.push(await fn(ids.slice(i, i + IN_CHUNK)));
  return out;
}

/** Runs `fn` over `items`, at most `limit` at a time. */
export async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}
