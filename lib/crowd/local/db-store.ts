import "server-only";
import { randomUUID } from "node:crypto";
import { type Db, flavorOf, type Prisma } from "@/lib/db/client";
import { LocalProvider } from "@/lib/crowd/local-provider";
import { retryWithBackoff } from "@/lib/crowd/retry";
import type {
  LocalAssignmentRecord,
  LocalCrowdStore,
  LocalCrowdStoreTx,
  LocalHitRecord,
  LocalQualificationRecord,
  LocalQualificationTypeRecord,
} from "@/lib/crowd/local-store";
import { PROVIDER_ASSIGNMENT_STATUS, PROVIDER_KIND } from "@/lib/db/enums";

/**
 * The in-house crowd's state in Accord's database: the LocalCrowdStore contract (lib/crowd/local-store.ts) over
 * the LocalCrowdRecord table, one JSON record per (scope, key):
 *
 * | scope                     | key                        | parent          | data                          |
 * |---------------------------|----------------------------|-----------------|-------------------------------|
 * | hit                       | provider HIT id            | accordHitId     | LocalHitRecord − questionXml  |
 * | hit-accord                | accordHitId                | provider HIT id | { questionXml }               |
 * | assignment                | assignment id              | provider HIT id | LocalAssignmentRecord + _seq  |
 * | qualification-type        | type id                    | —               | LocalQualificationTypeRecord  |
 * | qualification-type-name   | type name                  | type id         | {} (unique name)              |
 * | qualification             | `<typeId>|<workerId>`      | type id         | LocalQualificationRecord      |
 * | block                     | worker id                  | —               | { reason, at }                |
 * | token                     | `<scope>|<token>`          | —               | { at }                        |
 * | notification, bonus       | random                     | — / worker id   | the record                    |
 *
 * The `hit-accord` record makes the Accord HIT id unique (one HIT per id, whatever the race) and keeps the HIT's
 * question (~50 KB) apart, so that lists of HITs read small records. Dates are stored as ISO strings and revived
 * on read. Transactions are database transactions:
 * - PostgreSQL: every read of a HIT, of its assignments or of an assignment first locks the HIT's row
 *   (SELECT … FOR UPDATE), always HIT first, so two annotators racing for the last slot are serialised, and so are
 *   the sync loop's decisions and an annotator's submission. Deadlocks, write conflicts and unique violations (two
 *   processes publishing the same Accord HIT, claiming the same token) roll the transaction back and run it again
 *   (it then sees the other's committed work).
 * - SQLite: the transaction starts with a no-op write so that it holds the database's write lock from its first
 *   statement (another process waits on the busy timeout instead of failing on a stale snapshot).
 */

type Tx = Prisma.TransactionClient;
type Client = Tx | Db;
type Row = { scope: string; key: string; parent: string | null; data: Prisma.JsonValue };
type Json = Record<string, unknown>;

export const LOCAL_SCOPES = {
  hit: "hit",
  hitByAccordId: "hit-accord",
  assignment: "assignment",
  qualificationType: "qualification-type",
  qualificationTypeName: "qualification-type-name",
  qualification: "qualification",
  block: "block",
  token: "token",
  notification: "notification",
  bonus: "bonus",
} as const;

const DATE_FIELDS: Record<string, readonly string[]> = {
  [LOCAL_SCOPES.hit]: ["createdAt", "expiresAt"],
  [LOCAL_SCOPES.assignment]: ["acceptedAt", "deadline", "submittedAt", "autoApprovalAt", "approvedAt", "rejectedAt"],
  [LOCAL_SCOPES.qualificationType]: ["createdAt"],
  [LOCAL_SCOPES.qualification]: ["grantedAt", "lastTestAt"],
  [LOCAL_SCOPES.block]: ["at"],
  [LOCAL_SCOPES.notification]: ["at"],
  [LOCAL_SCOPES.bonus]: ["at"],
};

/** A record as JSON: Dates become ISO strings (millisecond precision), undefined fields disappear. */
function toJson(value: object): Prisma.InputJsonObject {
  return JSON.parse(JSON.stringify(value)) as Prisma.InputJsonObject;
}

function revive<T>(scope: string, data: Prisma.JsonValue | string): T {
  const obj = { ...((typeof data === "string" ? JSON.parse(data) : data) as Json) };
  delete obj._seq;
  for (const f of DATE_FIELDS[scope] ?? []) {
    if (typeof obj[f] === "string") obj[f] = new Date(obj[f] as string);
  }
  return obj as T;
}

const TRANSIENT_PRISMA_CODES = new Set(["P2002", "P2034", "P1008"]);
const MAX_ATTEMPTS = 6;

function isTransient(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string" && TRANSIENT_PRISMA_CODES.has(code)) return true;
  const msg = err instanceof Error ? err.message : "";
  return /deadlock detected|could not serialize access|SQLITE_BUSY|database is locked/i.test(msg);
}

/**
 * The record operations. With `locking` (inside a transaction) reads of a HIT, its assignments or an assignment
 * lock the HIT on PostgreSQL first; without it (the task page's read-only views) nothing is locked.
 */
function recordOps(client: Client, { postgres, locking }: { postgres: boolean; locking: boolean }) {
  const locked = new Set<string>();

  async function lockHit(hitId: string): Promise<void> {
    if (!postgres || !locking || locked.has(hitId)) return;
    await client.$queryRaw`SELECT "key" FROM "LocalCrowdRecord" WHERE "scope" = ${LOCAL_SCOPES.hit} AND "key" = ${hitId} FOR UPDATE`;
    locked.add(hitId);
  }

  async function lockRow(scope: string, key: string): Promise<void> {
    if (!postgres || !locking) return;
    await client.$queryRaw`SELECT "key" FROM "LocalCrowdRecord" WHERE "scope" = ${scope} AND "key" = ${key} FOR UPDATE`;
  }

  async function find(scope: string, key: string): Promise<Row | null> {
    return client.localCrowdRecord.findUnique({ where: { scope_key: { scope, key } } });
  }

  async function get<T>(scope: string, key: string): Promise<T | null> {
    const row = await find(scope, key);
    return row ? revive<T>(scope, row.data) : null;
  }

  async function insert(scope: string, key: string, parent: string | null, data: object): Promise<void> {
    await client.localCrowdRecord.create({ data: { scope, key, parent, data: toJson(data) } });
  }

  async function patch(scope: string, key: string, p: object): Promise<void> {
    const row = await find(scope, key);
    if (!row) throw new Error(`${scope} record ${key} does not exist`);
    const merged = { ...(row.data as Json), ...toJson({ ...p }) };
    // A patch field set to undefined clears it (as the memory store's spread does).
    for (const [k, v] of Object.entries(p)) if (v === undefined) delete merged[k];
    await client.localCrowdRecord.update({ where: { scope_key: { scope, key } }, data: { data: merged as Prisma.InputJsonObject } });
  }

  async function assignmentParent(id: string): Promise<string | null> {
    const row = await client.localCrowdRecord.findUnique({
      where: { scope_key: { scope: LOCAL_SCOPES.assignment, key: id } },
      select: { parent: true },
    });
    return row?.parent ?? null;
  }

  const tx: LocalCrowdStoreTx = {
    async insertQualificationType(rec) {
      await insert(LOCAL_SCOPES.qualificationTypeName, rec.name, rec.id, {});
      await insert(LOCAL_SCOPES.qualificationType, rec.id, null, rec);
    },
    async getQualificationType(id) {
      // Serialises the tests of one type (a retake cannot slip past the retry delay).
      await lockRow(LOCAL_SCOPES.qualificationType, id);
      return get<LocalQualificationTypeRecord>(LOCAL_SCOPES.qualificationType, id);
    },
    async findQualificationTypeByName(name) {
      const idx = await find(LOCAL_SCOPES.qualificationTypeName, name);
      return idx?.parent ? get<LocalQualificationTypeRecord>(LOCAL_SCOPES.qualificationType, idx.parent) : null;
    },

    async insertHit(rec) {
      const { questionXml, ...hit } = rec;
      await insert(LOCAL_SCOPES.hitByAccordId, rec.accordHitId, rec.id, { questionXml });
      await insert(LOCAL_SCOPES.hit, rec.id, rec.accordHitId, hit);
      locked.add(rec.id);
    },
    async getHit(id) {
      await lockHit(id);
      const row = await find(LOCAL_SCOPES.hit, id);
      if (!row?.parent) return null;
      const question = await find(LOCAL_SCOPES.hitByAccordId, row.parent);
      return { ...revive<LocalHitSummary>(LOCAL_SCOPES.hit, row.data), questionXml: String((question?.data as Json | undefined)?.questionXml ?? "") };
    },
    async findHitByAccordId(accordHitId) {
      const idx = await find(LOCAL_SCOPES.hitByAccordId, accordHitId);
      return idx?.parent ? tx.getHit(idx.parent) : null;
    },
    async updateHit(id, p) {
      await lockHit(id);
      const { questionXml, ...rest } = p;
      await patch(LOCAL_SCOPES.hit, id, rest);
      if (questionXml !== undefined) {
        const row = await find(LOCAL_SCOPES.hit, id);
        await patch(LOCAL_SCOPES.hitByAccordId, row?.parent ?? "", { questionXml });
      }
    },

    async insertAssignment(rec) {
      await lockHit(rec.hitId);
      const seq = await client.localCrowdRecord.count({ where: { scope: LOCAL_SCOPES.assignment, parent: rec.hitId } });
      await insert(LOCAL_SCOPES.assignment, rec.id, rec.hitId, { ...rec, _seq: seq + 1 });
    },
    async getAssignment(id) {
      const hitId = await assignmentParent(id);
      if (hitId === null) return null;
      await lockHit(hitId);
      return get<LocalAssignmentRecord>(LOCAL_SCOPES.assignment, id);
    },
    async updateAssignment(id, p) {
      const hitId = await assignmentParent(id);
      if (hitId === null) throw new Error(`assignment record ${id} does not exist`);
      await lockHit(hitId);
      await patch(LOCAL_SCOPES.assignment, id, p);
    },
    async listAssignments(hitId) {
      await lockHit(hitId);
      const rows = await client.localCrowdRecord.findMany({ where: { scope: LOCAL_SCOPES.assignment, parent: hitId } });
      return rows
        .map((r) => ({ seq: Number((r.data as Json)._seq ?? 0), rec: revive<LocalAssignmentRecord>(LOCAL_SCOPES.assignment, r.data) }))
        .sort((a, b) => a.seq - b.seq || a.rec.acceptedAt.getTime() - b.rec.acceptedAt.getTime())
        .map((x) => x.rec);
    },

    async getQualification(typeId, workerId) {
      return get<LocalQualificationRecord>(LOCAL_SCOPES.qualification, `${typeId}|${workerId}`);
    },
    async upsertQualification(rec) {
      const key = `${rec.typeId}|${rec.workerId}`;
      await client.localCrowdRecord.upsert({
        where: { scope_key: { scope: LOCAL_SCOPES.qualification, key } },
        create: { scope: LOCAL_SCOPES.qualification, key, parent: rec.typeId, data: toJson(rec) },
        update: { data: toJson(rec) },
      });
    },

    async setBlock(workerId, block) {
      if (block) {
        await client.localCrowdRecord.upsert({
          where: { scope_key: { scope: LOCAL_SCOPES.block, key: workerId } },
          create: { scope: LOCAL_SCOPES.block, key: workerId, data: toJson(block) },
          update: { data: toJson(block) },
        });
      } else {
        await client.localCrowdRecord.deleteMany({ where: { scope: LOCAL_SCOPES.block, key: workerId } });
      }
    },
    async getBlock(workerId) {
      return get<{ reason: string; at: Date }>(LOCAL_SCOPES.block, workerId);
    },

    async claimToken(scope, token, at) {
      const key = `${scope}|${token}`;
      if (await find(LOCAL_SCOPES.token, key)) return false;
      // A concurrent claim of the same token fails on the primary key; the transaction then runs again and sees it.
      await insert(LOCAL_SCOPES.token, key, null, { at });
      return true;
    },

    async insertNotification(rec) {
      await insert(LOCAL_SCOPES.notification, randomUUID(), null, rec);
    },
    async insertBonus(rec) {
      await insert(LOCAL_SCOPES.bonus, randomUUID(), rec.workerId, rec);
    },
    async hasDecidedWork(workerId) {
      const rows = postgres
        ? await client.$queryRaw<Array<{ key: string }>>`SELECT "key" FROM "LocalCrowdRecord"
            WHERE "scope" = ${LOCAL_SCOPES.assignment} AND "data"->>'workerId' = ${workerId}
              AND "data"->>'status' IN (${PROVIDER_ASSIGNMENT_STATUS.Approved}, ${PROVIDER_ASSIGNMENT_STATUS.Rejected}) LIMIT 1`
        : await client.$queryRaw<Array<{ key: string }>>`SELECT "key" FROM "LocalCrowdRecord"
            WHERE "scope" = ${LOCAL_SCOPES.assignment} AND json_extract("data", '$.workerId') = ${workerId}
              AND json_extract("data", '$.status') IN (${PROVIDER_ASSIGNMENT_STATUS.Approved}, ${PROVIDER_ASSIGNMENT_STATUS.Rejected}) LIMIT 1`;
      return rows.length > 0;
    },
  };
  return tx;
}

/** The in-house crowd's store over Accord's database (SQLite or PostgreSQL). */
export function createPrismaLocalCrowdStore(db: Db): LocalCrowdStore {
  const postgres = flavorOf(db) === "postgres";
  return {
    async transaction<T>(fn: (tx: LocalCrowdStoreTx) => Promise<T>): Promise<T> {
      const once = () =>
        db.$transaction(
          async (client) => {
            if (!postgres) await client.$executeRawUnsafe(`UPDATE "LocalCrowdRecord" SET "scope" = "scope" WHERE 0 = 1`);
            return fn(recordOps(client, { postgres, locking: true }));
          },
          { maxWait: 30_000, timeout: 120_000 },
        );
      // A conflicting transaction: again after a short, growing, random pause.
      return retryWithBackoff(once, { attempts: MAX_ATTEMPTS, retryable: isTransient, delayMs: (retry) => 5 * (retry + 1) + Math.floor(Math.random() * 10 * (retry + 1)) });
    },
  };
}

/** The in-house crowd provider on Accord's database (what the campaign engine and the task page use). */
export function getLocalCrowdProvider(db: Db, opts: { now?: () => Date } = {}): LocalProvider {
  return new LocalProvider({ store: createPrismaLocalCrowdStore(db), now: opts.now });
}

// ───────── read-only views for the task page (no transaction, no locks, no lazy transitions) ─────────

/** A HIT without its question XML (lists). */
export type LocalHitSummary = Omit<LocalHitRecord, "questionXml">;
/** An assignment without its answers (lists). */
export type LocalAssignmentSummary = Omit<LocalAssignmentRecord, "answerXml">;

/** Single records as stored (an Accepted assignment past its deadline is abandoned; callers check). */
export function createLocalCrowdReader(db: Db) {
  const ops = recordOps(db, { postgres: flavorOf(db) === "postgres", locking: false });
  return {
    getHit: (id: string) => ops.getHit(id),
    getAssignment: (id: string) => ops.getAssignment(id),
    getQualificationType: (id: string) => ops.getQualificationType(id),
    getQualification: (typeId: string, workerId: string) => ops.getQualification(typeId, workerId),
    getBlock: (workerId: string) => ops.getBlock(workerId),
  };
}

/** HITs not deleted and not expired at `now`, oldest first (publishing order). */
export async function listOpenLocalHits(db: Db, now: Date = new Date()): Promise<LocalHitSummary[]> {
  const iso = now.toISOString();
  const rows =
    flavorOf(db) === "postgres"
      ? await db.$queryRaw<Array<{ data: string }>>`SELECT "data"::text AS "data" FROM "LocalCrowdRecord"
          WHERE "scope" = ${LOCAL_SCOPES.hit} AND "data"->>'expiresAt' > ${iso} AND ("data"->>'disposed')::boolean = false
          ORDER BY "data"->>'createdAt' ASC, "key" ASC`
      : await db.$queryRaw<Array<{ data: string }>>`SELECT "data" FROM "LocalCrowdRecord"
          WHERE "scope" = ${LOCAL_SCOPES.hit} AND json_extract("data", '$.expiresAt') > ${iso} AND json_extract("data", '$.disposed') = 0
          ORDER BY json_extract("data", '$.createdAt') ASC, "key" ASC`;
  return rows.map((r) => revive<LocalHitSummary>(LOCAL_SCOPES.hit, r.data));
}

/** Every assignment the annotator took (any state), most recent first. */
export async function listLocalWorkerAssignments(db: Db, workerId: string): Promise<LocalAssignmentSummary[]> {
  const rows =
    flavorOf(db) === "postgres"
      ? await db.$queryRaw<Array<{ data: string }>>`SELECT ("data" - 'answerXml')::text AS "data" FROM "LocalCrowdRecord"
          WHERE "scope" = ${LOCAL_SCOPES.assignment} AND "data"->>'workerId' = ${workerId}
          ORDER BY "data"->>'acceptedAt' DESC, "key" ASC`
      : await db.$queryRaw<Array<{ data: string }>>`SELECT json_remove("data", '$.answerXml') AS "data" FROM "LocalCrowdRecord"
          WHERE "scope" = ${LOCAL_SCOPES.assignment} AND json_extract("data", '$.workerId') = ${workerId}
          ORDER BY json_extract("data", '$.acceptedAt') DESC, "key" ASC`;
  return rows.map((r) => revive<LocalAssignmentSummary>(LOCAL_SCOPES.assignment, r.data));
}

/**
 * The annotator's worker row for the in-house crowd (provider "local", externalId = the user's id, userId set),
 * created on first use. `workerId` is the annotator's id in the local provider (the assignments' workerId, what
 * blockWorker/grantQualification take): the row's externalId, as an MTurk WorkerId is for MTurk workers, so the
 * sync loop's upsert on (provider, externalId) finds this same row.
 */
export async function ensureLocalWorker(db: Db, userId: string): Promise<{ id: string; workerId: string; blocked: boolean; blockedReason: string | null }> {
  const select = { id: true, externalId: true, blocked: true, blockedReason: true } as const;
  const where = { provider_externalId: { provider: PROVIDER_KIND.local, externalId: userId } };
  let row;
  try {
    row = await db.worker.upsert({ where, create: { provider: PROVIDER_KIND.local, externalId: userId, userId }, update: { lastSeenAt: new Date() }, select });
  } catch (err) {
    // Two first visits at once: the other one created it.
    row = await db.worker.findUnique({ where, select });
    if (!row) throw err;
  }
  return { id: row.id, workerId: row.externalId, blocked: row.blocked, blockedReason: row.blockedReason };
}
