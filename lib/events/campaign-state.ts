import { formatInt } from "@/lib/text/format";
import { JOB_STATE } from "@/lib/db/enums";

/**
 * One line at the top of the Overview saying where the campaign stands, from what the page reads on each live update:
 * a publish waiting to start or sending HITs, HITs open and waiting for work, work waiting for a decision, decisions
 * made. Each state of a publish reads differently, so a refresh during it shows the step it is at.
 */
export type CampaignStateInput = {
  activeJobs: ReadonlyArray<{ type: string; state: string; progressDone: number; progressTotal: number | null }>;
  hitStatus: Readonly<Record<string, number>>;
  assignmentStatus: Readonly<Record<string, number>>;
};

export type CampaignState = { step: "idle" | "waiting-to-publish" | "publishing" | "open" | "deciding" | "ended"; text: string };

const n = (x: number, one: string, many = `${one}s`) => `${formatInt(x)} ${x === 1 ? one : many}`;

export function campaignState({ activeJobs, hitStatus, assignmentStatus }: CampaignStateInput): CampaignState {
  const count = (s: string) => hitStatus[s] ?? 0;
  const open = count("published") + count("reviewing") + count("extended");
  const decided = (assignmentStatus.approved ?? 0) + (assignmentStatus.rejected ?? 0) + (assignmentStatus.held ?? 0);
  const submitted = assignmentStatus.submitted ?? 0;
  const decisions = decided ? `; ${n(decided, "assignment")} decided so far` : "";
  const publish = activeJobs.find((j) => j.type === "publish");
  if (publish && publish.state === JOB_STATE.queued) return { step: "waiting-to-publish", text: `Publishing: waiting to start (${n(count("draft"), "HIT")} ready to send)${decisions}.` };
  if (publish) {
    const total = publish.progressTotal ?? count("draft") + publish.progressDone;
    return { step: "publishing", text: `Publishing: ${formatInt(publish.progressDone)} of ${n(total, "HIT")} sent; ${n(open, "HIT")} open${decisions}.` };
  }
  if (open > 0 && submitted > 0) return { step: "deciding", text: `${n(open, "HIT")} open; ${n(submitted, "submitted assignment")} waiting for a decision${decisions}.` };
  if (open > 0) return { step: "open", text: `${n(open, "HIT")} open, waiting for workers${decisions}.` };
  const total = Object.values(hitStatus).reduce((a, b) => a + b, 0);
  if (total === 0) return { step: "idle", text: "No HITs published yet." };
  return { step: "ended", text: `No HIT open: ${n(total, "HIT")} in all${decisions}.` };
}
