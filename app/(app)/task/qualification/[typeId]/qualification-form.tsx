"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import { submitQualificationTest } from "@/lib/actions/task";
import { initialActionState } from "@/lib/actions/action-state";
import { Button, buttonClass } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import { FocusLink } from "../../focus-link";
import { labelIndexForKey, labelKeys } from "@/lib/task/label-keys";
import { displayText } from "@/lib/text/display-text";

export interface TestQuestion {
  questionId: string;
  displayName: string | null;
  /** Untrusted tweet text: rendered as text only. */
  text: string;
  selections: Array<{ value: string; name: string }>;
}

/**
 * The qualification test: one radio group per gold tweet. Number keys (then letters) answer the highlighted
 * question and move to the next; clicking or tabbing into a question highlights it.
 */
export function QualificationForm({ qualificationTypeId, notes, questions }: { qualificationTypeId: string; notes: string[]; questions: TestQuestion[] }) {
  const [state, action, pending] = useActionState(submitQualificationTest, initialActionState);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [active, setActiveState] = useState(0);
  const [ready, setReady] = useState(false);
  const activeRef = useRef(0);
  const refs = useRef<Array<HTMLFieldSetElement | null>>([]);
  const answered = questions.filter((q) => answers[q.questionId]).length;
  const result = state.ok ? (state.data as { score: number; correct: number; total: number; passed: boolean } | undefined) : undefined;
  const setActive = (i: number) => {
    activeRef.current = i;
    setActiveState(i);
  };

  useEffect(() => {
    if (result) return;
    function onKey(e: KeyboardEvent) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      // Read synchronously: keys pressed faster than React renders answer one question each.
      const at = activeRef.current;
      const q = questions[at];
      if (!q) return;
      const index = labelIndexForKey(e.key, q.selections.length);
      if (index < 0) return;
      e.preventDefault();
      setAnswers((a) => ({ ...a, [q.questionId]: q.selections[index].value }));
      const next = Math.min(questions.length - 1, at + 1);
      activeRef.current = next;
      setActiveState(next);
      refs.current[next]?.scrollIntoView({ block: "center" });
    }
    window.addEventListener("keydown", onKey);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- marks the form ready once the key listener is attached
    setReady(true);
    return () => window.removeEventListener("keydown", onKey);
  }, [questions, result]);

  if (result) {
    return (
      <div className="max-w-2xl rounded-lg border border-slate-200 bg-white p-5 shadow-sm" data-testid="test-result">
        <h2 className="text-lg font-semibold text-slate-900">{result.passed ? "You passed" : "You did not pass"}</h2>
        <p className="mt-1 text-3xl font-semibold tabular text-slate-900">{result.score}%</p>
        <FormMessage ok={result.passed} message={state.message} />
        <FocusLink href="/task" className={`${buttonClass("primary")} mt-4`}>
          {result.passed ? "See the available HITs" : "Back to your tasks"}
        </FocusLink>
      </div>
    );
  }

  return (
    <form action={action} className="max-w-3xl space-y-4" data-ready={ready ? "true" : undefined} data-testid="qualification-form">
      <input type="hidden" name="qualificationTypeId" value={qualificationTypeId} />
      {notes.length > 0 ? (
        <details className="rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-sm">
          <summary className="cursor-pointer font-medium text-slate-700">Category definitions</summary>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-600">
            {notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </details>
      ) : null}
      {questions.map((q, i) => {
        const keys = labelKeys(q.selections.length);
        return (
          <fieldset
            key={q.questionId}
            ref={(el) => {
              refs.current[i] = el;
            }}
            onFocus={() => setActive(i)}
            onClick={() => setActive(i)}
            className={`rounded-lg border bg-white p-4 shadow-sm ${i === active ? "border-accent-500 ring-1 ring-accent-500" : "border-slate-200"}`}
          >
            <legend className="px-1 text-xs font-semibold uppercase tracking-wide text-slate-500">
              {q.displayName ?? `Question ${i + 1}`} of {questions.length}
            </legend>
            <p className="whitespace-pre-wrap break-words text-base leading-relaxed text-slate-900">{displayText(q.text)}</p>
            <div className="mt-3 grid gap-1.5 sm:grid-cols-2">
              {q.selections.map((s, j) => (
                <label key={s.value} className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 text-sm text-slate-800 hover:bg-slate-50">
                  <input
                    type="radio"
                    name={q.questionId}
                    value={s.value}
                    required
                    checked={answers[q.questionId] === s.value}
                    onChange={() => setAnswers((a) => ({ ...a, [q.questionId]: s.value }))}
                  />
                  <kbd className="inline-flex h-5 w-5 items-center justify-center rounded border border-slate-300 bg-slate-50 text-xs text-slate-600">{keys[j]}</kbd>
                  {s.name}
                </label>
              ))}
            </div>
          </fieldset>
        );
      })}
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Grading…" : "Submit the test"}
        </Button>
        <span className="text-sm text-slate-600">
          {answered} of {questions.length} answered
        </span>
      </div>
      <FormMessage ok={state.ok} message={state.message} />
    </form>
  );
}
