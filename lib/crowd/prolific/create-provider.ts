import { CrowdError } from "../errors";
import { ProlificClient } from "./api-client";
import { learnFeeBasisPoints, ProlificProvider, type ProlificMode } from "./prolific-provider";
import type { ProlificProviderStore } from "./provider-store";

export type CreateProlificProviderInput = {
  mode: ProlificMode;
  token: string;
  /** The API's base URL: the simulator's `/api/v1/` in simulator mode, Prolific's own otherwise. */
  apiUrl?: string;
  /** Empty: the token's first workspace, and that workspace's first project. */
  workspaceId?: string;
  projectId?: string;
  /** Accord's address as participants reach it (the study URL points at its Prolific pages). */
  publicUrl: string;
  store: ProlificProviderStore;
  /** Prolific's test mode (publish test studies for the test participant instead of live studies). */
  testMode?: boolean;
  fetch?: typeof fetch;
  /** Run once the workspace is known, e.g. the webhook subscriptions (webhook-subscription.ts); a failure is the caller's to log. */
  onWorkspace?: (client: ProlificClient, workspaceId: string) => Promise<void>;
};

/** A ProlificProvider with its workspace and project resolved and its fee rate quoted by Prolific's cost calculator. */
export async function createProlificProvider(input: CreateProlificProviderInput): Promise<ProlificProvider> {
  const client = new ProlificClient({ token: input.token, baseUrl: input.apiUrl, fetch: input.fetch });
  const workspaceId = input.workspaceId || (await client.listWorkspaces())[0]?.id;
  if (!workspaceId) throw new CrowdError("The Prolific token sees no workspace: create one on Prolific, or enter its id in Settings.", "not_found");
  const projectId = input.projectId || (await client.listWorkspaceProjects(workspaceId))[0]?.id;
  if (!projectId) throw new CrowdError(`Prolific workspace ${workspaceId} has no project: create one on Prolific, or enter its id in Settings.`, "not_found");
  await input.onWorkspace?.(client, workspaceId);
  const base = input.publicUrl.replace(/\/+$/, "");
  return new ProlificProvider({
    client,
    mode: input.mode,
    workspaceId,
    projectId,
    taskUrl: `${base}/prolific/task`,
    screeningUrl: `${base}/prolific/screening`,
    store: input.store,
    testMode: input.testMode,
    feeBasisPoints: await learnFeeBasisPoints(client),
  });
}
