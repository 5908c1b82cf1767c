import { CrowdError } from "../../errors";
import type { PublishHitInput } from "../../provider";
import { PROLIFIC_SCOPES as S } from "../provider-store";
import type { ProlificContext } from "./context";

// Accord's participant groups on Prolific: the workspace's block list, and the qualification groups HITs require.

/** The workspace's block-list group, created once (its id is recorded before anything else uses it). */
async function blockGroupId(ctx: ProlificContext): Promise<string> {
  const known = (await ctx.store.get(S.group, "blocklist")) as { groupId: string } | null;
  if (known) return known.groupId;
  const group = await ctx.client.createParticipantGroup(ctx.workspaceId, "Accord block list", "Participants Accord blocked from its studies.");
  if (!(await ctx.store.insert(S.group, "blocklist", { groupId: group.id }))) return ((await ctx.store.get(S.group, "blocklist")) as { groupId: string }).groupId;
  return group.id;
}

/** Every study of Accord's keeps the block list out. */
export async function blockFilter(ctx: ProlificContext) {
  return [{ filter_id: "participant_group_blocklist", selected_values: [await blockGroupId(ctx)] }];
}

export async function blockParticipant(ctx: ProlificContext, participantId: string): Promise<void> {
  await ctx.client.addToParticipantGroup(await blockGroupId(ctx), [participantId]);
}

export async function unblockParticipant(ctx: ProlificContext, participantId: string): Promise<void> {
  await ctx.client.removeFromParticipantGroup(await blockGroupId(ctx), [participantId]);
}

/** Qualification requirements name Accord's participant groups: they become the study's allow-list. */
export async function allowFilters(ctx: ProlificContext, input: PublishHitInput) {
  const groups: string[] = [];
  for (const r of input.qualificationRequirements ?? []) {
    if (!(await ctx.store.get(S.qualification, r.qualificationTypeId))) {
      throw new CrowdError(`Prolific studies can require only Accord's own qualifications (participant groups); ${r.qualificationTypeId} is not one.`, "invalid_parameter");
    }
    groups.push(r.qualificationTypeId);
  }
  return groups.length ? [{ filter_id: "participant_group_allowlist", selected_values: groups }] : [];
}
