import "server-only";
import { isCrowdError } from "@/lib/crowd/errors";
import type { ProlificProvider } from "@/lib/crowd/prolific/prolific-provider";
import type { Db } from "@/lib/db/client";
import { UserError } from "@/lib/errors";
import { PARTICIPANT_FORM_MAX_BYTES } from "@/lib/server/body-limits.mjs";
import { readBoundedForm } from "@/lib/server/bounded-form";
import { renderProlificMessagePage, renderProlificScreeningPage, renderProlificTaskPage } from "./prolific-page";
import { openProlificScreening, prolificScreeningSchema, submitProlificScreening } from "./prolific-screening";
import { openProlificTask, prolificTaskSchema, submitProlificTask } from "./prolific-work";

type Deps = { db: () => Db; provider: () => Promise<ProlificProvider> };

type PageOpts = { action: string; error?: string; posted?: Record<string, unknown>; nonce?: string };

const html = (body: string, status = 200) => new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });

/** A refusal the participant can read (no form: nothing to do here); Accord's own faults are not detailed. */
function refusal(err: unknown): Response {
  if (isCrowdError(err)) return html(renderProlificMessagePage("Prolific cannot be reached", "Accord could not check your session with Prolific. Please try again in a minute."), 503);
  // No work left is an answer, not a fault (200): the participant reads it and returns the study.
  if (err instanceof UserError && err.code === "no_work") return html(renderProlificMessagePage("Nothing left to do", `${err.message} Please return the study on Prolific: returning costs you nothing.`));
  if (err instanceof UserError) return html(renderProlificMessagePage("This task cannot be opened", `${err.message} If you cannot continue, return the study on Prolific.`), err.code === "not_found" ? 404 : 400);
  throw err;
}

/**
 * GET shows the form for the Prolific ids in the query; POST (the form, with the ids in hidden inputs) stores the
 * answers and answers 303 to Prolific's completion URL, or 422 with the form again when an answer is missing.
 */
function participantPage(deps: Deps, page: { keys: readonly string[]; render: (db: Db, provider: ProlificProvider, params: Record<string, string>, opts: PageOpts) => Promise<string>; submit: (db: Db, provider: ProlificProvider, params: Record<string, string>, posted: Record<string, string>) => Promise<{ redirectUrl: string | null; message?: string }> }) {
  const pick = (source: Record<string, string>) => Object.fromEntries(page.keys.map((k) => [k, source[k] ?? ""]));
  const nonceOf = (request: Request) => request.headers.get("x-nonce") ?? undefined;
  return {
    async GET(request: Request): Promise<Response> {
      const url = new URL(request.url);
      try {
        return html(await page.render(deps.db(), await deps.provider(), pick(Object.fromEntries(url.searchParams)), { action: url.pathname, nonce: nonceOf(request) }));
      } catch (err) {
        return refusal(err);
      }
    },
    async POST(request: Request): Promise<Response> {
      // Anyone may POST here: a task's form (30 answers and the Prolific ids) is a few KB, so more is refused unread;
      // a body that is not a well-formed form gets 400 with a page that says so.
      const read = await readBoundedForm(request, PARTICIPANT_FORM_MAX_BYTES);
      if ("status" in read) {
        const [title, advice] = read.status === 413 ? ["Too much data", "The answers sent were larger than a task's form can be."] : ["The answers could not be read", read.message];
        return html(renderProlificMessagePage(title, `${advice} Please go back and submit the form again.`), read.status);
      }
      const form = Object.fromEntries(read.form.entries());
      const posted = Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === "string"));
      const params = pick(posted);
      try {
        const provider = await deps.provider();
        try {
          const { redirectUrl, message } = await page.submit(deps.db(), provider, params, posted);
          // No completion code: the participant is asked to return the study (a page without a form says so).
          if (!redirectUrl) return html(renderProlificMessagePage("Please return this study", message ?? "Please return the study on Prolific."));
          return new Response(null, { status: 303, headers: { location: redirectUrl, "cache-control": "no-store" } });
        } catch (err) {
          if (!(err instanceof UserError && err.code === "incomplete")) throw err;
          return html(await page.render(deps.db(), provider, params, { action: new URL(request.url).pathname, error: err.message, posted, nonce: nonceOf(request) }), 422);
        }
      } catch (err) {
        return refusal(err);
      }
    },
  };
}

/** Accord's Prolific task page (app/prolific/task/route.ts wires it to the app's database and provider). */
export function prolificTaskHandlers(deps: Deps) {
  return participantPage(deps, {
    keys: Object.keys(prolificTaskSchema.shape),
    render: async (db, provider, params, opts) => renderProlificTaskPage(await openProlificTask(db, provider, params), prolificTaskSchema.parse(params), opts),
    submit: (db, provider, params, posted) => submitProlificTask(db, provider, params, posted),
  });
}

/** Accord's Prolific screening page (app/prolific/screening/route.ts). */
export function prolificScreeningHandlers(deps: Deps) {
  return participantPage(deps, {
    keys: Object.keys(prolificScreeningSchema.shape),
    render: async (db, provider, params, opts) => {
      const { p, content } = await openProlificScreening(db, provider, params);
      return renderProlificScreeningPage(content, p, opts);
    },
    submit: (db, provider, params, posted) => submitProlificScreening(db, provider, params, posted),
  });
}
