import "server-only";
import { ProlificClient } from "@/lib/crowd/prolific/api-client";
import { isCrowdError } from "@/lib/crowd/errors";
import type { Db } from "@/lib/db/client";
import { formatMoney } from "@/lib/text/format";
import { getProlificSettings, getProlificToken, prolificApiUrl } from "@/lib/crowd/prolific/settings";

export type ProlificConnection = { ok: boolean; message: string };

/**
 * Tries the saved Prolific settings: the token lists its workspaces, the configured (or first) workspace and
 * project exist, and the wallet's balance can be read. The answer is a sentence a researcher can act on.
 */
export async function checkProlificConnection(db: Db, { fetch: fetchImpl, timeoutMs = 10_000 }: { fetch?: typeof fetch; timeoutMs?: number } = {}): Promise<ProlificConnection> {
  const settings = await getProlificSettings(db);
  const where = settings.mode === "simulator" ? `the Prolific simulator at ${settings.simulatorUrl}` : "Prolific";
  const token = await getProlificToken(db, settings.mode);
  if (!token) return { ok: false, message: "No Prolific API token is saved: create one on app.prolific.com (Settings → API tokens) and enter it here." };
  const client = new ProlificClient({ token, baseUrl: prolificApiUrl(settings), fetch: fetchImpl, timeoutMs, faultAttempts: 2, throttleAttempts: 2 });
  try {
    const workspaces = await client.listWorkspaces();
    const workspace = settings.workspaceId ? workspaces.find((w) => w.id === settings.workspaceId) : workspaces[0];
    if (!workspace) {
      return { ok: false, message: settings.workspaceId ? `The token does not see workspace ${settings.workspaceId}: check the id (Prolific shows it in the workspace's address) or leave it empty for the token's first workspace.` : "The token sees no workspace: create one on Prolific first." };
    }
    const projects = await client.listWorkspaceProjects(workspace.id);
    const project = settings.projectId ? projects.find((p) => p.id === settings.projectId) : projects[0];
    if (!project) {
      return { ok: false, message: settings.projectId ? `Workspace "${workspace.title ?? workspace.id}" has no project ${settings.projectId}: check the id or leave it empty for its first project.` : `Workspace "${workspace.title ?? workspace.id}" has no project: create one on Prolific first.` };
    }
    const balance = await client.getBalance(workspace.id);
    const money = formatMoney(balance.available_balance, balance.currency_code);
    return { ok: true, message: `Connected to ${where}: workspace "${workspace.title ?? workspace.id}", project "${project.title ?? project.id}", ${money} available.` };
  } catch (err) {
    if (isCrowdError(err, "network")) {
      const fix = settings.mode === "simulator" ? "Start it (npm start runs one when its address is on this machine; or `accord simulator --prolific`) or correct the simulator URL." : "Check this server's connection to api.prolific.com.";
      return { ok: false, message: `Cannot reach ${where}. ${fix}` };
    }
    if (isCrowdError(err, "permission_denied")) {
      return { ok: false, message: `${where === "Prolific" ? "Prolific" : "The simulator"} refused the API token: enter a valid token (Prolific: Settings → API tokens; the simulator accepts its own).` };
    }
    if (isCrowdError(err)) return { ok: false, message: err.message };
    throw err;
  }
}
