import "server-only";
import { isCrowdError } from "@/lib/crowd/errors";
import type { ProlificProvider } from "@/lib/crowd/prolific/prolific-provider";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { renderProlificMessagePage, renderProlificTaskPage } from "./prolific-page";
import { openProlificTask, prolificTaskSchema, submitProlificTask } from "./prolific-work";

/** The request handlers of Accord's Prolific task page (app/prolific/task/route.ts wires them to the app's database and provider). */
export function prolificTaskHandlers(deps: { db: () => Db; provider: () => Promise<ProlificProvider> }) {
  const html = (body: string, status = 200) => new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });

  /** A refusal the participant can read (no form: nothing to do here); Accord's own faults are not detailed. */
  const refusal = (err: unknown) => {
    if (isCrowdError(err)) return html(renderProlificMessagePage("Prolific cannot be reached", "Accord could not check your session with Prolific. Please try again in a minute."), 503);
    if (err instanceof UserError) return html(renderProlificMessagePage("This task cannot be opened", `${err.message} If you cannot continue, return the study on Prolific.`), err.code === "not_found" ? 404 : 400);
    throw err;
  };

  return {
    async GET(request: Request): Promise<Response> {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      try {
        const content = await openProlificTask(deps.db(), await deps.provider(), params);
        return html(renderProlificTaskPage(content, prolificTaskSchema.parse(params), { action: new URL(request.url).pathname, nonce: request.headers.get("x-nonce") ?? undefined }));
      } catch (err) {
        return refusal(err);
      }
    },

    async POST(request: Request): Promise<Response> {
      const form = Object.fromEntries((await request.formData()).entries());
      const posted = Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === "string"));
      const params = { hit: posted.hit, PROLIFIC_PID: posted.PROLIFIC_PID, STUDY_ID: posted.STUDY_ID, SESSION_ID: posted.SESSION_ID };
      const provider = await deps.provider();
      try {
        const { redirectUrl } = await submitProlificTask(deps.db(), provider, params, posted);
        return new Response(null, { status: 303, headers: { location: redirectUrl, "cache-control": "no-store" } });
      } catch (err) {
        if (err instanceof UserError && err.code === "incomplete") {
          const content = await openProlificTask(deps.db(), provider, params);
          return html(renderProlificTaskPage(content, prolificTaskSchema.parse(params), { action: new URL(request.url).pathname, error: err.message, posted, nonce: request.headers.get("x-nonce") ?? undefined }), 422);
        }
        return refusal(err);
      }
    },
  };
}
