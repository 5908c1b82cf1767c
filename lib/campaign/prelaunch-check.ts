import "server-only";
import { writeAudit } from "@/lib/audit/write-audit";
import { policyFor } from "@/lib/crowd/policies";
import { type CrowdPolicySettings, crowdPolicySettingsSchema, parseCrowdPolicySettings } from "@/lib/crowd/policy";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { readEventSettings } from "@/lib/events/event-settings";

/**
 * The Publish panel's pre-launch check: what the event's crowd will do with submissions under the chosen policy
 * settings (each consequence in a sentence), and the refusal, in one sentence, of a policy the crowd forbids.
 */
export type PrelaunchCheck = { crowd: string; settings: CrowdPolicySettings; configurable: boolean; statements: string[]; refusal: string | null };

async function eventOf(db: Db, eventId: string) {
  const event = await db.event.findUnique({ where: { id: eventId }, select: { id: true, name: true, provider: true, settings: true, crowdPolicy: true } });
  if (!event) throw new UserError("This event does not exist (any more).", "not_found");
  return event;
}

/** The check for settings (the event's stored ones when none are given). */
export async function prelaunchCheck(db: Db, eventId: string, settings?: CrowdPolicySettings): Promise<PrelaunchCheck> {
  const event = await eventOf(db, eventId);
  const chosen = settings ?? parseCrowdPolicySettings(event.crowdPolicy);
  const { belowThresholdAction } = readEventSettings({ name: event.name, settings: event.settings });
  const policy = policyFor(event.provider);
  return { crowd: event.provider, settings: chosen, configurable: policy.configurable, ...policy.describe({ settings: chosen, belowThresholdAction }) };
}

/** Refuses (UserError with the crowd's one-sentence reason) a policy the crowd forbids. */
export async function assertPolicyAllowed(db: Db, eventId: string, settings?: CrowdPolicySettings): Promise<PrelaunchCheck> {
  const check = await prelaunchCheck(db, eventId, settings);
  if (check.refusal) throw new UserError(check.refusal, "policy_refused");
  return check;
}

/** Stores the event's crowd-policy settings once the check allows them; recorded in the audit log. */
export async function saveCrowdPolicy(db: Db, { eventId, raw, actorId }: { eventId: string; raw: unknown; actorId: string | null }): Promise<PrelaunchCheck> {
  const parsed = crowdPolicySettingsSchema.safeParse(raw);
  if (!parsed.success) throw new UserError(`The policy settings are not valid: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}.`, "invalid_parameter");
  const check = await assertPolicyAllowed(db, eventId, parsed.data);
  // A crowd whose policy reads none of these settings would store choices that change nothing.
  if (!check.configurable) throw new UserError("This crowd's decisions do not use these settings: the check above says what they do (MTurk follows the event's below-the-threshold rule in Settings).", "invalid_parameter");
  await db.event.update({ where: { id: eventId }, data: { crowdPolicy: parsed.data } });
  await writeAudit(db, { actorType: actorId ? "user" : "system", actorId, eventId, entityType: "event", entityId: eventId, action: "update-crowd-policy", reason: check.statements.join(" "), details: parsed.data });
  return check;
}
