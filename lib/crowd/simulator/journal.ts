import { closeSync, existsSync, fsyncSync, openSync, readFileSync, truncateSync, writeSync } from "node:fs";
import type { SimStateData } from "./state";

/**
 * The simulator's write-ahead journal: a create call (a HIT, a HIT type, a qualification type, more assignments)
 * is appended and fsync'd BEFORE the simulator answers, so a kill -9 right after never loses what the app was told
 * exists. The state file (written a moment later, as before) replaces the journal, which is then emptied; loading
 * replays what the journal holds beyond the state file.
 */
export const JOURNALED_OPERATIONS = new Set(["CreateHIT", "CreateHITWithHITType", "CreateHITType", "CreateQualificationType", "CreateAdditionalAssignmentsForHIT"]);

type Counters = Pick<SimStateData, "idCounter" | "eventSeq" | "balanceCents" | "onHoldCents">;
/** What a create call changed: new or changed entries of the keyed tables, HITs appended in order, counters. */
export type JournalEntry = Counters & {
  hits: SimStateData["hits"];
  hitOrder: string[];
  hitTypes: SimStateData["hitTypes"];
  qualificationTypes: SimStateData["qualificationTypes"];
  tokens: SimStateData["tokens"];
};

/** Remembers what a create call may change, to journal the difference after it (cheap: key counts and counters). */
export function beforeCreate(state: SimStateData) {
  return { hitOrder: state.hitOrder.length, hitTypes: new Set(Object.keys(state.hitTypes)), qualificationTypes: new Set(Object.keys(state.qualificationTypes)), tokens: new Set(Object.keys(state.tokens)) };
}

/** The entry of a create call (pure): what is new since `before`, plus the HIT the call names (more assignments). */
export function journalEntry(state: SimStateData, before: ReturnType<typeof beforeCreate>, hitId?: string): JournalEntry {
  const fresh = <T>(table: Record<string, T>, old: Set<string>) => Object.fromEntries(Object.entries(table).filter(([k]) => !old.has(k)));
  const appended = state.hitOrder.slice(before.hitOrder);
  const hits = Object.fromEntries([...appended, ...(hitId && state.hits[hitId] ? [hitId] : [])].map((id) => [id, state.hits[id]]));
  return {
    hits,
    hitOrder: appended,
    hitTypes: fresh(state.hitTypes, before.hitTypes),
    qualificationTypes: fresh(state.qualificationTypes, before.qualificationTypes),
    tokens: fresh(state.tokens, before.tokens),
    idCounter: state.idCounter,
    eventSeq: state.eventSeq,
    balanceCents: state.balanceCents,
    onHoldCents: state.onHoldCents,
  };
}

/** Applies journal entries over a loaded state (idempotent: an entry the state file already holds changes nothing). */
export function replayJournal(state: SimStateData, entries: readonly JournalEntry[]): void {
  for (const e of entries) {
    Object.assign(state.hits, e.hits);
    for (const id of e.hitOrder) if (!state.hitOrder.includes(id)) state.hitOrder.push(id);
    Object.assign(state.hitTypes, e.hitTypes);
    Object.assign(state.qualificationTypes, e.qualificationTypes);
    Object.assign(state.tokens, e.tokens);
    state.idCounter = Math.max(state.idCounter, e.idCounter);
    state.eventSeq = Math.max(state.eventSeq, e.eventSeq);
    state.balanceCents = e.balanceCents;
    state.onHoldCents = e.onHoldCents;
  }
}

export const journalPath = (stateFile: string) => `${stateFile}.journal`;

/** Appends one entry and waits for the disk (fsync). */
export function appendJournal(stateFile: string, entry: JournalEntry): void {
  const fd = openSync(/*turbopackIgnore: true*/ journalPath(stateFile), "a", 0o600);
  try {
    writeSync(fd, JSON.stringify(entry) + "\n");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The journal's complete lines (a line cut short by a crash was never acknowledged, so it is dropped). */
export function readJournal(stateFile: string): JournalEntry[] {
  const file = journalPath(stateFile);
  if (!existsSync(/*turbopackIgnore: true*/ file)) return [];
  return readFileSync(/*turbopackIgnore: true*/ file, "utf8")
    .split("\n")
    .filter((line) => line.endsWith("}"))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as JournalEntry];
      } catch {
        return [];
      }
    });
}

/** Empties the journal once the state file holds everything in it. */
export function clearJournal(stateFile: string): void {
  if (existsSync(/*turbopackIgnore: true*/ journalPath(stateFile))) truncateSync(/*turbopackIgnore: true*/ journalPath(stateFile), 0);
}
