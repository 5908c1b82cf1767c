import { PROVIDER_KIND } from "@/lib/db/enums";

/** How the dashboard names a crowd provider: "MTurk", "Prolific", "in-house crowd". */
export function providerName(kind: string): string {
  if (kind === PROVIDER_KIND.local) return "in-house crowd";
  if (kind === PROVIDER_KIND.prolific) return "Prolific";
  return "MTurk";
}

/** The crowd with its mode ("Prolific simulator", "MTurk sandbox"); the in-house crowd has none. */
export function crowdLabel(kind: string, mode: string | null): string {
  return kind === PROVIDER_KIND.local || !mode ? providerName(kind) : `${providerName(kind)} ${mode}`;
}
