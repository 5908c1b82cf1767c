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
}

export const PROLIFIC_SCOPES = {
  /** submission id → { answerXml, hitId }: written by Accord's task page when the participant submits. */
  answer: "prolific-answer",
  /** Accord HIT id → { internalName, expiresAt }: the intent, written before the study is created. */
  study: "prolific-study",
  /** study id → { disposed: true }. */
  disposed: "prolific-disposed",
  /** `<study id>|<token>` → { places }: a place extension's target, written before the PATCH. */
  places: "prolific-places",
  /** bonus token → { bulkId, fees, paid }: step one's id is kept before step two pays it. */
  bonus: "prolific-bonus",
  /** "blocklist" → { groupId }. */
  group: "prolific-group",
  /** group id → { name, testXml, answerKeyXml, screeningStudyId, passCode, failCode }. */
  qualification: "prolific-qualification",
  /** qualification name → { internalName, groupId?, testStudyId? }: a test-mode screening's intent, written before the group. */
  screening: "prolific-screening",
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
}
