/**
 * What the Prolific provider keeps on Accord's side, one JSON record per (scope, key): the answers a participant
 * posted on Accord's page (Prolific never sees them), the intents recorded before a create or a payment (so a
 * retry looks up instead of creating twice), the block-list group and the qualification groups with their keys.
 * `insert` is create-if-absent (false when the key exists); `put` overwrites.
 */
export interface ProlificProviderStore {
  get(scope: ProlificScope, key: string): Promise<Record<string, unknown> | null>;
  insert(scope: ProlificScope, key: string, data: Record<string, unknown>): Promise<boolean>;
  put(scope: ProlificScope, key: string, data: Record<string, unknown>): Promise<void>;
  /** Every record of the scope whose key starts with `prefix`, in key order. */
  list(scope: ProlificScope, prefix: string): Promise<Array<{ key: string; data: Record<string, unknown> }>>;
}

export const PROLIFIC_SCOPES = {
  /** submission id → { answerXml, hitId }: written by Accord's task page when the participant submits. */
  answer: "prolific-answer",
  /** Accord batch id → { internalName, code, studyId?, testStudyId? }: the batch study's intent and completion code, written before the study is created. */
  study: "prolific-study",
  /** `<study id>|<hit id>` → { batchKey, position, places, expiresAt }: a HIT queued in its batch's study, written before its places are added. */
  hit: "prolific-hit",
  /** `<study id>|<hit id>|<n>` → { sessionId, participantId, released? }: the n-th place of a HIT given to a session (insert = compare-and-set). */
  claim: "prolific-claim",
  /** submission (session) id → { hitId, claim }: the HIT a participant's session was given. */
  session: "prolific-session",
  /** `<study id>:<hit id>` (a HIT) → { at }: disposed by Accord. */
  disposed: "prolific-disposed",
  /** `<study id>|<hit id>|<token>` → { count }: places added to a HIT, written before the study's PATCH. */
  places: "prolific-places",
  /** bonus token → { bulkId, fees, paid }: step one's id is kept before step two pays it. */
  bonus: "prolific-bonus",
  /** "blocklist" → { groupId }. */
  group: "prolific-group",
  /** group id → { name, testXml, answerKeyXml, screeningStudyId, passCode, failCode } (the codes random, Accord's own). */
  qualification: "prolific-qualification",
  /** qualification name → { internalName, passCode, failCode, groupId?, testStudyId? }: a test-mode screening's intent, written before the group. */
  screening: "prolific-screening",
  /** `<group id>|participant|<id>` and `<group id>|session|<id>` → { participantId, sessionId, at, passed?, score? }: the one screening attempt of each. */
  screened: "prolific-screened",
} as const;
export type ProlificScope = (typeof PROLIFIC_SCOPES)[keyof typeof PROLIFIC_SCOPES];

/** The store in memory (tests, `accord simulate`); Accord's database one is lib/campaign/prolific-store.ts. */
export class MemoryProlificStore implements ProlificProviderStore {
  private readonly records = new Map<string, Record<string, unknown>>();

  async get(scope: ProlificScope, key: string) {
    const r = this.records.get(`${scope}\u0000${key}`);
    return r ? structuredClone(r) : null;
  }

  async insert(scope: ProlificScope, key: string, data: Record<string, unknown>) {
    const k = `${scope}\u0000${key}`;
    if (this.records.has(k)) return false;
    this.records.set(k, structuredClone(data));
    return true;
  }

  async put(scope: ProlificScope, key: string, data: Record<string, unknown>) {
    this.records.set(`${scope}\u0000${key}`, structuredClone(data));
  }

  async list(scope: ProlificScope, prefix: string) {
    const head = `${scope}\u0000${prefix}`;
    return [...this.records.entries()]
      .filter(([k]) => k.startsWith(head))
      .map(([k, data]) => ({ key: k.slice(scope.length + 1), data: structuredClone(data) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}
