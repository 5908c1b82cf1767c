import { z } from "zod";
import type { SimResponse } from "./routes";
import type { ProlificSimService } from "./service";
import { badRequest, ProlificSimError } from "./sim-error";
import { nextId, type SimStudy } from "./state";

// Prolific's test participant and test study ([2+] docs, CLI, Potato): both gated per workspace by Prolific's support.

const NOT_ENABLED = "Test participants are not enabled for this workspace. Contact Prolific support to enable them.";

/** `POST /researchers/participants/` {email} → 201 {participant_id}: one test participant per researcher. */
export function createTestParticipant(service: ProlificSimService, body: unknown): SimResponse {
  const state = service.state;
  const parsed = z.object({ email: z.email() }).safeParse(body ?? {});
  if (!parsed.success) throw badRequest({ email: ["Enter a valid email address."] });
  if (!state.testParticipants?.enabled) throw new ProlificSimError(403, "Forbidden", NOT_ENABLED);
  if (state.testParticipants.participant) throw badRequest("This researcher already has a test participant.");
  if (parsed.data.email.toLowerCase() === state.user.email.toLowerCase()) throw badRequest({ email: ["This email is already registered with Prolific."] });
  const participant = { id: nextId(state), email: parsed.data.email };
  state.testParticipants.participant = participant;
  state.participants.push(participant.id);
  service.changed();
  return { status: 201, body: { participant_id: participant.id } };
}

/**
 * `POST /studies/{id}/test-study` → {study_id, study_url}: the draft stays a draft, a copy is published (the wallet
 * reserves its places as for PUBLISH) and only the test participant may take it.
 */
export function createTestStudy(service: ProlificSimService, draftId: string, baseUrl: string): SimResponse {
  const state = service.state;
  const draft = service.study(draftId);
  if (!state.testParticipants?.enabled) throw new ProlificSimError(403, "Forbidden", NOT_ENABLED);
  if (draft.status !== "UNPUBLISHED") throw badRequest(`Only a draft study can be tested; this one is ${draft.status}.`);
  if (!state.testParticipants.participant) throw badRequest("The workspace has no test participant: create one first.");
  const copy: SimStudy = { ...structuredClone(draft), id: nextId(state), test_of: draft.id, date_created: service.nowIso(), published_at: null, publish_at: null, reserved: 0 };
  state.studies[copy.id] = copy;
  try {
    service.publish(copy);
  } catch (err) {
    delete state.studies[copy.id];
    throw err;
  }
  return { status: 200, body: { study_id: copy.id, study_url: `${baseUrl}/studies/${copy.id}` } };
}
