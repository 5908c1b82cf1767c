import type { Study, SubmissionListItem } from "../api-types";
import type { ProlificContext } from "./context";

/**
 * A batch study and its submissions as the sync loop reads them for each of the study's HITs: read once per
 * STUDY_VIEW_TTL_MS and shared by its HITs (each HIT's listing would otherwise read the whole study again), and
 * forgotten by every change this provider makes to the study or its submissions.
 */
export const STUDY_VIEW_TTL_MS = 2_000;

export type StudyView = { study: Study; submissions: SubmissionListItem[] };
export type StudyViews = Map<string, { at: number; view: Promise<StudyView> }>;

export function studyView(ctx: ProlificContext, studyId: string): Promise<StudyView> {
  const known = ctx.views.get(studyId);
  if (known && Date.now() - known.at < (ctx.studyViewTtlMs ?? STUDY_VIEW_TTL_MS)) return known.view;
  const view = Promise.all([ctx.client.getStudy(studyId), ctx.client.listSubmissions(studyId)]).then(([study, submissions]) => ({ study, submissions }));
  ctx.views.set(studyId, { at: Date.now(), view });
  view.catch(() => forgetStudyView(ctx, studyId, view));
  return view;
}

/** Drops the study's view (only `view`, when given: a failed read does not drop a newer one); no study: all of them. */
export function forgetStudyView(ctx: ProlificContext, studyId?: string, view?: Promise<StudyView>): void {
  if (studyId === undefined) ctx.views.clear();
  else if (!view || ctx.views.get(studyId)?.view === view) ctx.views.delete(studyId);
}
