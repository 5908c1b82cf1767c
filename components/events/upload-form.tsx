"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, SelectInput } from "@/components/ui/field";

type UploadState = { ok: boolean; message?: string; fileError?: string };

/**
 * Upload sampled tweets or gold tweets; the import then runs as a job with its progress below. The file goes
 * to the upload route (/api/imports) as the raw request body, through XMLHttpRequest for its upload progress;
 * leaving the page while bytes are still going up asks first. The page shows the import as soon as the
 * server has the file.
 */
export function UploadForm({ eventId, maxSize }: { eventId: string; maxSize: string }) {
  const router = useRouter();
  const [state, setState] = useState<UploadState>({ ok: false });
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const [kind, setKind] = useState("tweets");
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
    const file = fileInput.current?.files?.[0];
    if (!file || file.size === 0) {
      setState({ ok: false, message: "Please correct the highlighted fields.", fileError: "Choose a file to upload (it must not be empty)." });
      return;
    }
    const query = new URLSearchParams({ eventId, kind, name: file.name });
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/imports?${query}`);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (p) => setProgress({ sent: p.loaded, total: p.lengthComputable ? p.total : file.size });
    xhr.onload = () => {
      setProgress(null);
      let body: { message?: string; error?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // a proxy's HTML error page: the status says enough
      }
      if (xhr.status === 201) {
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
    setProgress({ sent: 0, total: file.size });
    xhr.send(file);
  }

  const percent = progress && progress.total > 0 ? Math.min(100, Math.round((progress.sent / progress.total) * 100)) : 0;
  return (
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
          hint={`HumAID TSV, CSV/TSV with a header, CrisisLex CSV, or Twitter API JSON/JSONL (v1.1 or v2); UTF-8, UTF-16 or Windows-1252; at most ${maxSize}.`}
          errors={state.fileError ? [state.fileError] : undefined}
        >
          <input
            ref={fileInput}
            id="file"
            name="file"
            type="file"
            disabled={uploading}
            accept=".tsv,.csv,.txt,.json,.jsonl,.ndjson,text/csv,text/tab-separated-values,application/json"
            className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium hover:file:bg-slate-100"
          />
        </Field>
      </div>
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
  );
}
