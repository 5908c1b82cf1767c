import "server-only";
import { ProlificClient } from "@/lib/crowd/prolific/api-client";
import { isCrowdError } from "@/lib/crowd/errors";
import type { Db } from "@/lib/db/client";
import { getProlificSettings, getProlificToken, prolificApiUrl, saveProlificTestParticipant, saveProlificTestMode } from "@/lib/crowd/prolific/settings";

export type TestModeResult = { ok: boolean; message: string };

/**
 * Prolific's test mode from the Settings form: an email not yet used creates the researcher's test participant
 * (`POST /researchers/participants/`, gated per workspace by Prolific's support) and records its id; test mode is
 * switched on only while a test participant is recorded. The answer is a sentence a researcher can act on.
 */
export async function applyProlificTestMode(db: Db, input: { enabled: boolean; email?: string }, { fetch: fetchImpl }: { fetch?: typeof fetch } = {}): Promise<TestModeResult> {
  const settings = await getProlificSettings(db);
  let participant = settings.testParticipant;
  const email = input.email?.trim();
  if (email && email.toLowerCase() !== participant?.email.toLowerCase()) {
    const created = await createTestParticipant(db, email, fetchImpl);
    if (!created.ok) {
      await saveProlificTestMode(db, false);
      return created;
    }
    participant = { id: created.id, email };
    await saveProlificTestParticipant(db, participant);
  }
  if (input.enabled && !participant) {
    await saveProlificTestMode(db, false);
    return { ok: false, message: "Test mode needs a test participant: enter the email Prolific should register it with." };
  }
  await saveProlificTestMode(db, input.enabled);
  if (!input.enabled) return { ok: true, message: "Prolific test mode is off: HITs and screenings are published as live studies." };
  return { ok: true, message: `Prolific test mode is on: HITs and screenings are published as test studies for the test participant ${participant!.email} (${participant!.id}).` };
}

async function createTestParticipant(db: Db, email: string, fetchImpl?: typeof fetch): Promise<{ ok: true; id: string } | { ok: false; message: string }> {
  const settings = await getProlificSettings(db);
  const token = await getProlificToken(db, settings.mode);
  if (!token) return { ok: false, message: "No Prolific API token is saved: enter one before creating a test participant." };
  const client = new ProlificClient({ token, baseUrl: prolificApiUrl(settings), fetch: fetchImpl, faultAttempts: 1, throttleAttempts: 2 });
  try {
    return { ok: true, id: (await client.createTestParticipant(email)).participant_id };
  } catch (err) {
    if (!isCrowdError(err)) throw err;
    const status = err.details.httpStatus;
    if (status !== undefined && status >= 400 && status < 500) {
      return {
        ok: false,
        message: `Prolific did not create the test participant (HTTP ${status}${err.details.providerMessage ? `: ${err.details.providerMessage}` : ""}). Test participants are enabled per workspace by Prolific's support: ask them to enable test participants for this workspace, and use an email not already registered with Prolific. Test mode stays off.`,
      };
    }
    return { ok: false, message: `The test participant was not created: ${err.message} Test mode stays off.` };
  }
}
