import { sendNotification } from "./ops-notifications";
import { runReviewPolicies } from "./ops-review";
import type { MturkSimulatorService } from "./service";
import type { SimAssignmentStatus } from "./state";

type HitSnapshot = { status: string; max: number; expiration: number; expired: boolean; assignments: Map<string, SimAssignmentStatus> };
type Snapshot = { hitCount: number; hits: Map<string, HitSnapshot> };

const snapshots = new WeakMap<MturkSimulatorService, Snapshot>();
const running = new WeakSet<MturkSimulatorService>();

const ASSIGNMENT_EVENT: Record<SimAssignmentStatus, string> = {
  Accepted: "AssignmentAccepted",
  Submitted: "AssignmentSubmitted",
  Approved: "AssignmentApproved",
  Rejected: "AssignmentRejected",
  Returned: "AssignmentReturned",
  Abandoned: "AssignmentAbandoned",
};

function snapshotOf(svc: MturkSimulatorService, hitId: string): HitSnapshot {
  const hit = svc.state.hits[hitId];
  return {
    status: svc.hitStatus(hit),
    max: hit.MaxAssignments,
    expiration: hit.expiration,
    expired: svc.time >= hit.expiration,
    assignments: new Map(hit.assignmentIds.map((id) => [id, svc.state.assignments[id].status])),
  };
}

/** The events between two looks at a HIT (an assignment seen for the first time was accepted first). */
function eventsBetween(before: HitSnapshot, after: HitSnapshot): string[][] {
  const events: string[][] = [];
  for (const [id, status] of after.assignments) {
    const was = before.assignments.get(id);
    if (was === status) continue;
    if (was === undefined) events.push(["AssignmentAccepted", id]);
    if (status !== "Accepted") events.push([ASSIGNMENT_EVENT[status], id]);
  }
  if (after.max > before.max || after.expiration > before.expiration) events.push(["HITExtended"]);
  if (after.expired && !before.expired) events.push(["HITExpired"]);
  if (after.status !== before.status && after.status === "Reviewable") events.push(["HITReviewable"]);
  if (after.status !== before.status && after.status === "Disposed") events.push(["HITDisposed"]);
  return events;
}

/**
 * Runs after every state change: due review policies, then the notifications of HIT types whose settings are active
 * (found by comparing each watched HIT with how it looked at the previous change). Costs nothing when neither is used.
 */
export function watchChanges(svc: MturkSimulatorService): void {
  const extra = svc.state.extra;
  if (!extra || running.has(svc)) return;
  running.add(svc);
  try {
    runReviewPolicies(svc);
    const active = Object.entries(extra.notificationSettings).filter(([, s]) => s.active);
    const order = svc.state.hitOrder;
    let snap = snapshots.get(svc);
    if (!snap) {
      snap = { hitCount: order.length, hits: new Map() };
      snapshots.set(svc, snap);
    }
    if (active.length === 0) {
      snap.hitCount = order.length;
      snap.hits.clear();
      return;
    }
    const watched = new Map(active.map(([typeId, s]) => [typeId, s.spec]));
    for (let k = 0; k < order.length; k++) {
      const hit = svc.state.hits[order[k]];
      const spec = watched.get(hit.HITTypeId);
      if (!spec) {
        snap.hits.delete(hit.HITId);
        continue;
      }
      const after = snapshotOf(svc, hit.HITId);
      const before = snap.hits.get(hit.HITId);
      snap.hits.set(hit.HITId, after);
      // A HIT seen for the first time is new only if it was created since the last look (else its type just became watched).
      const events = before ? eventsBetween(before, after) : k >= snap.hitCount ? [["HITCreated"], ...eventsBetween({ ...after, assignments: new Map(), max: after.max, expiration: after.expiration, status: "Assignable", expired: false }, after)] : [];
      const wanted = events.filter(([type]) => spec.EventTypes.includes(type));
      if (wanted.length) sendNotification(svc, spec, wanted.map(([EventType, AssignmentId]) => ({ EventType, HITTypeId: hit.HITTypeId, HITId: hit.HITId, AssignmentId })));
    }
    snap.hitCount = order.length;
  } finally {
    running.delete(svc);
  }
}
