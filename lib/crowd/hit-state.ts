import { PROVIDER_ASSIGNMENT_STATUS } from "@/lib/db/enums";
/**
 * MTurk's HIT and assignment state rules, shared by the MTurk simulator (lib/crowd/simulator/service.ts) and the
 * in-house crowd's local provider (lib/crowd/local-provider.ts). Pure functions of the records and the time.
 */
export type AssignmentState = "Accepted" | "Submitted" | "Approved" | "Rejected" | "Returned" | "Abandoned";
export type HitState = "Assignable" | "Unassignable" | "Reviewable" | "Reviewing" | "Disposed";
export type HitCounts = { pending: number; submitted: number; completed: number; available: number };

/** Pending = accepted and still within its deadline; submitted includes decided; completed = approved + rejected. */
export function hitCounts(assignments: Iterable<{ status: AssignmentState; deadline: number }>, maxAssignments: number, now: number): HitCounts {
  let pending = 0;
  let submitted = 0;
  let completed = 0;
  for (const a of assignments) {
    if (a.status === "Accepted" && a.deadline > now) pending++;
    else if (a.status === PROVIDER_ASSIGNMENT_STATUS.Submitted) submitted++;
    else if (a.status === PROVIDER_ASSIGNMENT_STATUS.Approved || a.status === PROVIDER_ASSIGNMENT_STATUS.Rejected) {
      submitted++;
      completed++;
    }
  }
  return { pending, submitted, completed, available: Math.max(0, maxAssignments - submitted - pending) };
}

/** A HIT's status: reviewable once no slot is free (or it expired) and nobody is working on it. */
export function hitState({ disposed, reviewing = false, expired, counts }: { disposed: boolean; reviewing?: boolean; expired: boolean; counts: HitCounts }): HitState {
  if (disposed) return "Disposed";
  if (reviewing) return "Reviewing";
  if (counts.pending > 0) return expired || counts.available === 0 ? "Unassignable" : "Assignable";
  return expired || counts.available === 0 ? "Reviewable" : "Assignable";
}

/** The transition time makes due for an assignment: an accepted one past its deadline is abandoned, a submitted one past its auto-approval time approved. */
export function dueTransition(a: { status: AssignmentState; deadline: number; autoApprovalAt?: number | null }, now: number): "Abandoned" | "Approved" | null {
  if (a.status === "Accepted" && a.deadline <= now) return "Abandoned";
  if (a.status === PROVIDER_ASSIGNMENT_STATUS.Submitted && a.autoApprovalAt && a.autoApprovalAt <= now) return PROVIDER_ASSIGNMENT_STATUS.Approved;
  return null;
}
