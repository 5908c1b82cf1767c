// The sync engine's public surface (lib/campaign/sync/*.ts: pass, steps, lease, follow-ups, loop).
export { ACTIVE_HIT_STATUSES } from "@/lib/db/enums";
export { flushSyncFollowUps, runSyncFollowUps } from "./follow-ups";
export { claimDueHits, releaseHit, SYNC_LEASE_MS } from "./lease";
export { startSyncLoop, SYNC_PASS_HITS, syncDueHits } from "./loop";
export { syncHit, syncHits } from "./pass";
export type { HitSyncOutcome, SyncFollowUps, SyncHitResult } from "./types";
