"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, SelectInput, TextInput } from "@/components/ui/field";
import type { ColumnPreviewBody } from "@/lib/ingest/column-preview";
import { ColumnMapForm } from "./column-map-form";

type UploadState = { ok: boolean; message?: string; fileError?: string };

/**
 * Upload sampled tweets or gold tweets; the import then runs as a job with its progress below. The file goes
 * to the upload route (/api/imports) as the raw request body, through XMLHttpRequest for its upload progress;
 * leaving the page while bytes are still going up asks first. The page shows the import as soon as the
 * server has the file. A CSV/TSV whose columns Accord does not recognise comes back with a column preview (or
 * whenever "check the columns" is ticked): the researcher picks the columns and the import starts on the file
 * already uploaded. The three files of a TweetEval split (…_text.txt, …_labels.txt, mapping.txt) chosen together
 * go up as one set.
 */
export function UploadForm({ eventId, maxSize }: { eventId: string; maxSize: string }) {
  const router = useRouter();
  const [state, setState] = useState<UploadState>({ ok: false });
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const [kind, setKind] = useState("tweets");
  const [fileCount, setFileCount] = useState(0);
  const [columns, setColumns] = useState<ColumnPreviewBody | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const uploading = progress !== null;

  useEffect(() => {
    if (!uploading) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [uploading]);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const files = [...(fileInput.current?.files ?? [])];
    const file = files[0];
    if (!file || files.some((f) => f.size === 0)) {
      setState({ ok: false, message: "Please correct the highlighted fields.", fileError: "Choose a file to upload (it must not be empty)." });
      return;
    }
    const form = new FormData(e.currentTarget);
    const set = files.length > 1;
    const query = set
      ? new URLSearchParams({ eventId, kind, task: String(form.get("task") ?? "") })
      : new URLSearchParams({ eventId, kind, name: file.name, ...(form.get("checkColumns") ? { columns: "check" } : {}) });
    const total = files.reduce((n, f) => n + f.size, 0);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", set ? `/api/imports/tweeteval?${query}` : `/api/imports?${query}`);
    if (!set) xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (p) => setProgress({ sent: p.loaded, total: p.lengthComputable ? p.total : total });
    xhr.onload = () => {
      setProgress(null);
      let body: { message?: string; error?: string; preview?: unknown } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // a proxy's HTML error page: the status says enough
      }
      if (xhr.status === 200 && body.preview) {
        setColumns(body as ColumnPreviewBody);
        setState({ ok: true, message: body.message });
      } else if (xhr.status === 201) {
        setState({ ok: true, message: body.message ?? "Uploaded; the import is running." });
        if (fileInput.current) fileInput.current.value = "";
        router.refresh();
      } else if (xhr.status === 401) setState({ ok: false, message: "Your session has ended. Please sign in again." });
      else setState({ ok: false, message: body.error ?? `The upload failed (HTTP ${xhr.status}).`, fileError: xhr.status === 413 ? `At most ${maxSize}.` : undefined });
    };
    xhr.onerror = () => {
      setProgress(null);
      setState({ ok: false, message: "The upload was interrupted (network error). Please try again." });
    };
    setState({ ok: false });
    setColumns(null);
    setProgress({ sent: 0, total });
    if (set) {
      const body = new FormData();
      for (const f of files) body.append("files", f, f.name);
      xhr.send(body);
    } else xhr.send(file);
  }

  const percent = progress && progress.total > 0 ? Math.min(100, Math.round((progress.sent / progress.total) * 100)) : 0;
  return (
    <div className="space-y-3">
      <form onSubmit={submit} className="space-y-3" data-testid="upload-form">
        <FormMessage ok={state.ok} message={state.message} />
        <div className="grid gap-3 sm:grid-cols-[12rem_1fr]">
          <Field label="What is it?" name="kind">
            <SelectInput name="kind" value={kind} onChange={(e) => setKind(e.target.value)} disabled={uploading}>
              <option value="tweets">Tweets to label</option>
              <option value="gold">Gold tweets (expert labels)</option>
            </SelectInput>
          </Field>
          <Field
            label="File"
            name="file"
            hint={`HumAID TSV, CSV/TSV with a header (columns Accord does not recognise are chosen in a preview), CrisisLex CSV, or Twitter API JSON/JSONL (v1.1 or v2); UTF-8, UTF-16 or Windows-1252; at most ${maxSize}. A TweetEval split: choose its three files together (…_text.txt, …_labels.txt, mapping.txt).`}
            errors={state.fileError ? [state.fileError] : undefined}
          >
            <input
              ref={fileInput}
              id="file"
              name="file"
              type="file"
              disabled={uploading}
              multiple
              onChange={(e) => setFileCount(e.target.files?.length ?? 0)}
              accept=".tsv,.csv,.txt,.json,.jsonl,.ndjson,text/csv,text/tab-separated-values,application/json"
              className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium hover:file:bg-slate-100"
            />
          </Field>
        </div>
        {fileCount > 1 ? (
          <Field label="TweetEval task" name="task" hint="Names the tweet ids (tweeteval:TASK:SPLIT:LINE), as the task's folder does for accord import --tweeteval.">
            <TextInput name="task" required placeholder="sentiment" disabled={uploading} />
          </Field>
        ) : (
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" name="checkColumns" disabled={uploading} /> Check the columns before importing (CSV/TSV)
          </label>
        )}
        {progress ? (
          <div className="space-y-1" data-testid="upload-progress">
            <progress className="h-2 w-full" max={100} value={percent} aria-label="Upload progress" />
            <p className="text-xs text-slate-500">
              Uploading… {percent}% — keep this page open until the upload finishes; the import then runs on the server.
            </p>
          </div>
        ) : null}
        <Button type="submit" disabled={uploading}>
          {uploading ? "Uploading…" : "Upload and import"}
        </Button>
      </form>
      {columns ? (
        <ColumnMapForm
          eventId={eventId}
          shown={columns}
          onCancel={() => {
            setColumns(null);
            setState({ ok: false });
          }}
          onDone={(message) => {
            setColumns(null);
            setState({ ok: true, message });
            if (fileInput.current) fileInput.current.value = "";
            setFileCount(0);
            router.refresh();
          }}
        />
      ) : null}
    </div>
  );
}
