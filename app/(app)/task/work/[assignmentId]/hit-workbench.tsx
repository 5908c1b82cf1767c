"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import { returnTask, submitTask } from "@/lib/actions/task";
import { initialActionState } from "@/lib/actions/action-state";
import type { SchemeLabel } from "@/lib/labels/humaid";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { labelIndexForKey, labelKeys } from "@/lib/task/label-keys";
import { displayText } from "@/lib/text/display-text";

export interface WorkbenchItem {
  position: number;
  fieldName: string;
  /** Untrusted tweet text: rendered as text only. */
  text: string;
}

const storageKey = (assignmentId: string) => `accord-task:${assignmentId}`;

function isTypingTarget(el: EventTarget | null): boolean {
  const t = el as HTMLElement | null;
  if (!t) return false;
  return t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable;
}

/**
 * One HIT, one tweet at a time. Keys: 1–9, 0 (then a, b, …) choose a category and move on; Enter, → and ↓ go to the
 * next tweet, ← and ↑ to the previous one; Enter on the last tweet asks to confirm the submission once every tweet has
 * a category (Enter again on the focused "Submit now" confirms, Escape goes back).
 * Answers are posted under the HIT's own field names.
 */
export function HitWorkbench({
  assignmentId,
  title,
  instructions,
  eventName,
  due,
  labels,
  items,
}: {
  assignmentId: string;
  title: string;
  instructions: string;
  eventName: string | null;
  due: string;
  labels: SchemeLabel[];
  items: WorkbenchItem[];
}) {
  const [answers, setAnswersState] = useState<Record<string, string>>({});
  const [current, setCurrentState] = useState(0);
  const [ready, setReady] = useState(false);
  const [confirmReturn, setConfirmReturn] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [state, submitAction, submitting] = useActionState(submitTask, initialActionState);
  const [returnState, returnAction, returning] = useActionState(returnTask, initialActionState);
  const formRef = useRef<HTMLFormElement>(null);
  // The key handler reads and writes these synchronously: keys pressed faster than React renders each act on
  // the tweet the previous key moved to.
  const answersRef = useRef<Record<string, string>>({});
  const currentRef = useRef(0);
  const submittingRef = useRef(false);
  const restored = useRef(false);
  const keys = labelKeys(labels.length);
  const total = items.length;
  const done = items.filter((it) => answers[it.fieldName]).length;
  const complete = done === total;
  const item = items[current];
  const chosen = answers[item.fieldName];
  useEffect(() => {
    submittingRef.current = submitting;
  }, [submitting]);

  const setAnswers = (next: Record<string, string>) => {
    answersRef.current = next;
    setAnswersState(next);
  };
  const go = (index: number) => {
    const i = Math.max(0, Math.min(total - 1, index));
    currentRef.current = i;
    setCurrentState(i);
  };
  /** Labels the current tweet and moves on to the next one. */
  const choose = (value: string) => {
    const at = currentRef.current;
    setAnswers({ ...answersRef.current, [items[at].fieldName]: value });
    if (at < total - 1) go(at + 1);
  };
  const isComplete = () => items.every((i) => answersRef.current[i.fieldName]);
  /** Enter: the next tweet; on the last one, ask to confirm the submission once complete (else the first tweet still open). */
  const enter = () => {
    const at = currentRef.current;
    if (at < total - 1) go(at + 1);
    else if (isComplete()) {
      if (!submittingRef.current) setConfirming(true);
    } else go(items.findIndex((i) => !answersRef.current[i.fieldName]));
  };

  // Keep work across a reload (this browser only) until it is submitted.
  useEffect(() => {
    try {
      const saved = JSON.parse(window.localStorage.getItem(storageKey(assignmentId)) ?? "null") as unknown;
      if (saved && typeof saved === "object") {
        const valid = new Set(labels.map((l) => l.value));
        const names = new Set(items.map((i) => i.fieldName));
        const restoredAnswers = Object.fromEntries(
          Object.entries(saved as Record<string, unknown>).filter(([k, v]) => names.has(k) && typeof v === "string" && valid.has(v)),
        ) as Record<string, string>;
        if (Object.keys(restoredAnswers).length > 0) {
          answersRef.current = restoredAnswers;
          // Saved answers live in this browser only, so they are restored after hydration.
          // eslint-disable-next-line react-hooks/set-state-in-effect
          setAnswersState(restoredAnswers);
          const firstOpen = items.findIndex((i) => !restoredAnswers[i.fieldName]);
          currentRef.current = firstOpen === -1 ? items.length - 1 : firstOpen;
          setCurrentState(currentRef.current);
        }
      }
    } catch {
      // unreadable saved state: start afresh
    }
    restored.current = true;
  }, [assignmentId, labels, items]);

  useEffect(() => {
    if (restored.current) window.localStorage.setItem(storageKey(assignmentId), JSON.stringify(answers));
  }, [assignmentId, answers]);

  // The window listener calls the latest handler (it only reads refs and props).
  const onKey = useRef<(e: KeyboardEvent) => void>(() => undefined);
  const handleKey = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
    if (e.key === "Escape" && confirming) {
      e.preventDefault();
      setConfirming(false);
      return;
    }
    const index = labelIndexForKey(e.key, labels.length);
    if (index >= 0) {
      e.preventDefault();
      choose(labels[index].value);
    } else if (e.key === "ArrowRight" || e.key === "ArrowDown") {
      e.preventDefault();
      go(currentRef.current + 1);
    } else if (e.key === "ArrowLeft" || e.key === "ArrowUp") {
      e.preventDefault();
      go(currentRef.current - 1);
    } else if (e.key === "Enter") {
      // A focused button or link keeps its own Enter.
      const tag = (e.target as HTMLElement | null)?.tagName;
      if (tag === "BUTTON" || tag === "A") return;
      e.preventDefault();
      enter();
    }
  };
  useEffect(() => {
    onKey.current = handleKey;
  });
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey.current(e);
    window.addEventListener("keydown", listener);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- marks the page ready once the key listener is attached
    setReady(true);
    return () => window.removeEventListener("keydown", listener);
  }, []);

  const pick = (value: string) => choose(value);
  const unanswered = items.filter((it) => !answers[it.fieldName]);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_19rem]" data-ready={ready ? "true" : undefined} data-testid="workbench">
      <section aria-label="Current tweet" className="space-y-4">
        <header>
          <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {eventName ? <span className="font-medium text-slate-700">{eventName} · </span> : null}
            {instructions}
          </p>
          <p className="mt-1 text-xs text-slate-500">Due by {due}</p>
        </header>

        <div>
          <div className="flex items-baseline justify-between text-sm">
            <span className="font-medium text-slate-700" data-testid="progress-text">
              {done} of {total}
            </span>
            <span className="text-xs text-slate-500">tweets labelled</span>
          </div>
          <div
            role="progressbar"
            aria-label="Tweets labelled"
            aria-valuemin={0}
            aria-valuemax={total}
            aria-valuenow={done}
            aria-valuetext={`${done} of ${total}`}
            className="mt-1 h-2 overflow-hidden rounded bg-slate-200"
          >
            <div className="h-full bg-accent-600 transition-all" style={{ width: `${(100 * done) / total}%` }} />
          </div>
        </div>

        <article className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-live="polite" data-testid="tweet-card">
          <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-500" data-testid="tweet-position">
            Tweet {item.position} of {total}
          </h2>
          <p className="mt-2 whitespace-pre-wrap break-words text-lg leading-relaxed text-slate-900" data-testid="tweet-text">
            {displayText(item.text)}
          </p>
        </article>

        <div role="radiogroup" aria-label={`Category for tweet ${item.position}`} className="grid gap-2 sm:grid-cols-2">
          {labels.map((l, i) => {
            const on = chosen === l.value;
            return (
              <button
                key={l.value}
                type="button"
                role="radio"
                aria-checked={on}
                tabIndex={on || (!chosen && i === 0) ? 0 : -1}
                onClick={() => pick(l.value)}
                title={l.description}
                className={`flex items-start gap-3 rounded-md border px-3 py-2 text-left text-sm transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-accent-500 ${
                  on ? "border-accent-600 bg-accent-50 text-accent-700" : "border-slate-300 bg-white text-slate-800 hover:bg-slate-50"
                }`}
              >
                <kbd className={`mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded border text-xs font-semibold ${on ? "border-accent-600 bg-accent-600 text-white" : "border-slate-300 bg-slate-50 text-slate-600"}`}>
                  {keys[i]}
                </kbd>
                <span>
                  <span className="font-medium">{l.name}</span>
                  {l.description ? <span className="mt-0.5 block text-xs text-slate-500">{l.description}</span> : null}
                </span>
              </button>
            );
          })}
        </div>

        <div className="flex items-center justify-between">
          <Button type="button" variant="secondary" onClick={() => go(current - 1)} disabled={current === 0}>
            ← Previous
          </Button>
          <p className="hidden text-xs text-slate-500 md:block">
            Keys: <kbd>{keys[0]}</kbd>–<kbd>{keys[keys.length - 1]}</kbd> choose · <kbd>Enter</kbd> or <kbd>→</kbd> next · <kbd>←</kbd> previous
          </p>
          <Button type="button" variant="secondary" onClick={() => go(current + 1)} disabled={current === total - 1}>
            Next →
          </Button>
        </div>
      </section>

      <aside className="space-y-4">
        <nav aria-label="Tweets of this HIT" className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm">
          <h2 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">Tweets</h2>
          <ol className="grid grid-cols-6 gap-1.5">
            {items.map((it, i) => {
              const label = labels.find((l) => l.value === answers[it.fieldName]);
              return (
                <li key={it.fieldName}>
                  <button
                    type="button"
                    onClick={() => go(i)}
                    aria-current={i === current ? "step" : undefined}
                    aria-label={`Tweet ${it.position}: ${label ? label.name : "no category yet"}`}
                    title={label?.name}
                    className={`tabular h-8 w-full rounded text-xs font-medium ${
                      label ? "bg-accent-600 text-white" : "bg-slate-100 text-slate-600"
                    } ${i === current ? "ring-2 ring-amber-500 ring-offset-1" : ""}`}
                  >
                    {it.position}
                  </button>
                </li>
              );
            })}
          </ol>
        </nav>

        <form ref={formRef} action={submitAction} className="space-y-2 rounded-lg border border-slate-200 bg-white p-3 shadow-sm" onSubmit={() => window.localStorage.removeItem(storageKey(assignmentId))}>
          <input type="hidden" name="assignmentId" value={assignmentId} />
          {items.map((it) => (
            <input key={it.fieldName} type="hidden" name={it.fieldName} value={answers[it.fieldName] ?? ""} />
          ))}
          {confirming && complete ? (
            <div role="group" aria-labelledby="confirm-submit-text" className="space-y-2" data-testid="confirm-submit">
              <p id="confirm-submit-text" className="text-sm font-medium text-slate-800">
                Submit your {total} labels? You cannot change them afterwards.
              </p>
              <div className="flex flex-wrap gap-2">
                {/* Focused when shown: Enter confirms, as a click does. */}
                <Button type="submit" autoFocus disabled={submitting}>
                  {submitting ? "Submitting…" : "Submit now"}
                </Button>
                <Button type="button" variant="secondary" onClick={() => setConfirming(false)}>
                  Keep reviewing
                </Button>
              </div>
            </div>
          ) : (
            <Button type="button" className="w-full" disabled={!complete || submitting} onClick={() => setConfirming(true)}>
              {`Submit ${total} labels…`}
            </Button>
          )}
          {complete ? (
            <p className="text-xs text-slate-600">Every tweet has a category. Press Enter on the last tweet or click Submit, then confirm.</p>
          ) : (
            <div className="text-xs text-slate-600" data-testid="unanswered">
              <p>
                {unanswered.length} {unanswered.length === 1 ? "tweet still needs" : "tweets still need"} a category:
              </p>
              <ul className="mt-1 flex flex-wrap gap-1">
                {unanswered.slice(0, 12).map((it) => (
                  <li key={it.fieldName}>
                    <button type="button" className="rounded border border-slate-300 px-1.5 py-0.5 tabular hover:bg-slate-100" onClick={() => go(items.indexOf(it))} aria-label={`Go to tweet ${it.position}`}>
                      {it.position}
                    </button>
                  </li>
                ))}
                {unanswered.length > 12 ? <li className="px-1 py-0.5">and {unanswered.length - 12} more</li> : null}
              </ul>
            </div>
          )}
          <FormMessage ok={state.ok} message={state.message} />
        </form>

        <div className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm">
          {confirmReturn ? (
            <form action={returnAction} className="space-y-2">
              <input type="hidden" name="assignmentId" value={assignmentId} />
              <p className="text-sm text-slate-700">Return this HIT? Your labels here are discarded.</p>
              <div className="flex gap-2">
                <Button type="submit" variant="danger" disabled={returning}>
                  Return HIT
                </Button>
                <Button type="button" variant="ghost" onClick={() => setConfirmReturn(false)}>
                  Keep working
                </Button>
              </div>
            </form>
          ) : (
            <Button type="button" variant="ghost" className="w-full" onClick={() => setConfirmReturn(true)}>
              Return this HIT…
            </Button>
          )}
          <FormMessage ok={returnState.ok} message={returnState.message} />
        </div>
      </aside>
    </div>
  );
}
