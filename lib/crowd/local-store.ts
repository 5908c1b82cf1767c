import type { QualificationRequirement } from "./provider";
import { PROVIDER_ASSIGNMENT_STATUS } from "@/lib/db/enums";

/**
 * Persistence contract of the in-house crowd provider (lib/crowd/local-provider.ts). The provider holds every rule
 * (states, counters, idempotency, grading); a store only keeps records. The campaign engine implements it over
 * Accord's database (Prisma); `createMemoryLocalCrowdStore` below is the reference implementation used in tests.
 *
 * What a store must do:
 * - `transaction(fn)`: run fn atomically and serialised with other transactions touching the same HIT (a database
 *   transaction; on PostgreSQL lock the HIT row, e.g. SELECT … FOR UPDATE, so two annotators cannot take the last
 *   slot). Everything the provider reads and writes for one call happens inside one transaction.
 * - get* / find* return null when absent; update* apply a shallow patch and fail if the record is absent.
 * - `claimToken(scope, token, at)`: insert (scope, token) if absent and return true; return false if it already
 *   exists (a unique index on scope+token). Tokens need to be kept for at least 24 hours.
 * - `listAssignments(hitId)`: every assignment of the HIT, in acceptance order.
 * - Dates are stored with millisecond precision; records are returned as plain objects (copies).
 */
export interface LocalHitRecord {
  id: string;
  accordHitId: string;
  title: string;
  description: string;
  keywords?: string;
  rewardCents: number;
  maxAssignments: number;
  createdAt: Date;
  expiresAt: Date;
  assignmentDurationSeconds: number;
  autoApprovalDelaySeconds: number;
  questionXml: string;
  qualificationRequirements: QualificationRequirement[];
  requesterAnnotation?: string;
  disposed: boolean;
}

export type LocalAssignmentStatus = "Accepted" | "Submitted" | "Approved" | "Rejected" | "Returned" | "Abandoned";

export interface LocalAssignmentRecord {
  id: string;
  hitId: string;
  workerId: string;
  status: LocalAssignmentStatus;
  acceptedAt: Date;
  deadline: Date;
  submittedAt?: Date;
  autoApprovalAt?: Date;
  approvedAt?: Date;
  rejectedAt?: Date;
  answerXml?: string;
  feedback?: string;
}

export interface LocalQualificationTypeRecord {
  id: string;
  name: string;
  description: string;
  keywords?: string;
  testXml: string;
  answerKeyXml: string;
  testDurationSeconds: number;
  retryDelaySeconds?: number;
  createdAt: Date;
}

export interface LocalQualificationRecord {
  typeId: string;
  workerId: string;
  value: number;
  status: "Granted" | "Revoked";
  grantedAt: Date;
  /** Last time the worker took the type's test (for the retry delay). */
  lastTestAt?: Date;
}

export interface LocalCrowdStoreTx {
  insertQualificationType(rec: LocalQualificationTypeRecord): Promise<void>;
  getQualificationType(id: string): Promise<LocalQualificationTypeRecord | null>;
  findQualificationTypeByName(name: string): Promise<LocalQualificationTypeRecord | null>;

  insertHit(rec: LocalHitRecord): Promise<void>;
  getHit(id: string): Promise<LocalHitRecord | null>;
  findHitByAccordId(accordHitId: string): Promise<LocalHitRecord | null>;
  updateHit(id: string, patch: Partial<LocalHitRecord>): Promise<void>;

  insertAssignment(rec: LocalAssignmentRecord): Promise<void>;
  getAssignment(id: string): Promise<LocalAssignmentRecord | null>;
  updateAssignment(id: string, patch: Partial<LocalAssignmentRecord>): Promise<void>;
  listAssignments(hitId: string): Promise<LocalAssignmentRecord[]>;

  getQualification(typeId: string, workerId: string): Promise<LocalQualificationRecord | null>;
  upsertQualification(rec: LocalQualificationRecord): Promise<void>;

  setBlock(workerId: string, block: { reason: string; at: Date } | null): Promise<void>;
  getBlock(workerId: string): Promise<{ reason: string; at: Date } | null>;

  claimToken(scope: string, token: string, at: Date): Promise<boolean>;

  insertNotification(rec: { workerIds: string[]; subject: string; message: string; at: Date }): Promise<void>;
  insertBonus(rec: { workerId: string; assignmentId: string; amountCents: number; reason: string; at: Date }): Promise<void>;
  /** Workers with at least one approved or rejected assignment (NotifyWorkers semantics). */
  hasDecidedWork(workerId: string): Promise<boolean>;
}

export interface LocalCrowdStore {
  transaction<T>(fn: (tx: LocalCrowdStoreTx) => Promise<T>): Promise<T>;
}

function copy<T>(x: T): T {
  return structuredClone(x);
}

/** The reference in-memory store (tests, demos). Transactions are serialised with a promise chain. */
export function createMemoryLocalCrowdStore(): LocalCrowdStore & {
  data: {
    hits: Map<string, LocalHitRecord>;
    assignments: Map<string, LocalAssignmentRecord>;
    qualificationTypes: Map<string, LocalQualificationTypeRecord>;
    qualifications: Map<string, LocalQualificationRecord>;
    blocks: Map<string, { reason: string; at: Date }>;
    tokens: Set<string>;
    notifications: Array<{ workerIds: string[]; subject: string; message: string; at: Date }>;
    bonuses: Array<{ workerId: string; assignmentId: string; amountCents: number; reason: string; at: Date }>;
  };
} {
  const data = {
    hits: new Map<string, LocalHitRecord>(),
    assignments: new Map<string, LocalAssignmentRecord>(),
    qualificationTypes: new Map<string, LocalQualificationTypeRecord>(),
    qualifications: new Map<string, LocalQualificationRecord>(),
    blocks: new Map<string, { reason: string; at: Date }>(),
    tokens: new Set<string>(),
    notifications: [] as Array<{ workerIds: string[]; subject: string; message: string; at: Date }>,
    bonuses: [] as Array<{ workerId: string; assignmentId: string; amountCents: number; reason: string; at: Date }>,
  };
  const patch = <T extends object>(map: Map<string, T>, id: string, p: Partial<T>): void => {
    const cur = map.get(id);
    if (!cur) throw new Error(`record ${id} does not exist`);
    map.set(id, { ...cur, ...copy(p) });
  };
  const tx: LocalCrowdStoreTx = {
    insertQualificationType: async (rec) => void data.qualificationTypes.set(rec.id, copy(rec)),
    getQualificationType: async (id) => copy(data.qualificationTypes.get(id) ?? null),
    findQualificationTypeByName: async (name) => copy([...data.qualificationTypes.values()].find((q) => q.name === name) ?? null),
    insertHit: async (rec) => void data.hits.set(rec.id, copy(rec)),
    getHit: async (id) => copy(data.hits.get(id) ?? null),
    findHitByAccordId: async (accordHitId) => copy([...data.hits.values()].find((h) => h.accordHitId === accordHitId) ?? null),
    updateHit: async (id, p) => patch(data.hits, id, p),
    insertAssignment: async (rec) => void data.assignments.set(rec.id, copy(rec)),
    getAssignment: async (id) => copy(data.assignments.get(id) ?? null),
    updateAssignment: async (id, p) => patch(data.assignments, id, p),
    listAssignments: async (hitId) => copy([...data.assignments.values()].filter((a) => a.hitId === hitId)),
    getQualification: async (typeId, workerId) => copy(data.qualifications.get(`${typeId}|${workerId}`) ?? null),
    upsertQualification: async (rec) => void data.qualifications.set(`${rec.typeId}|${rec.workerId}`, copy(rec)),
    setBlock: async (workerId, block) => {
      if (block) data.blocks.set(workerId, copy(block));
      else data.blocks.delete(workerId);
    },
    getBlock: async (workerId) => copy(data.blocks.get(workerId) ?? null),
    claimToken: async (scope, token) => {
      const key = `${scope}|${token}`;
      if (data.tokens.has(key)) return false;
      data.tokens.add(key);
      return true;
    },
    insertNotification: async (rec) => void data.notifications.push(copy(rec)),
    insertBonus: async (rec) => void data.bonuses.push(copy(rec)),
    hasDecidedWork: async (workerId) =>
      [...data.assignments.values()].some((a) => a.workerId === workerId && (a.status === PROVIDER_ASSIGNMENT_STATUS.Approved || a.status === PROVIDER_ASSIGNMENT_STATUS.Rejected)),
  };
  let chain: Promise<unknown> = Promise.resolve();
  return {
    data,
    transaction<T>(fn: (t: LocalCrowdStoreTx) => Promise<T>): Promise<T> {
      const run = chain.then(() => fn(tx));
      chain = run.catch(() => undefined);
      return run;
    },
  };
}
