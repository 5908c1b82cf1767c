import "server-only";
import type { Db } from "@/lib/db/client";
import { connectProlific } from "@/lib/crowd/prolific/connect";
import type { ProlificProvider } from "@/lib/crowd/prolific/prolific-provider";
import type { CrowdProvider } from "@/lib/crowd/provider";
import { crowdOf } from "@/lib/crowd/registry";
import { crowdBreaker } from "./sync/crowd-breakers";

/**
 * The crowd provider of an event, by its crowd's descriptor (lib/crowd/registry.ts): MTurk (simulator, sandbox or
 * production by the admin's settings), Prolific (its simulator or production) or the in-house crowd. Each crowd keeps
 * its client while the settings it was made from stay the same, so a settings change takes effect at the next call
 * in every module instance without a reset. Simulations and tests hand their own provider to the publish job instead.
 */
export async function getProvider(db: Db, kind: string): Promise<CrowdProvider> {
  const crowd = crowdOf(kind);
  const breaker = crowdBreaker(kind);
  return crowd.connect(db, { degraded: () => breaker.isOpen, onDown: (fn) => breaker.onOpen(fn) });
}

/** Prolific's provider with its own API (the participant pages and the webhook route speak to it). */
export function getProlificProvider(db: Db): Promise<ProlificProvider> {
  return connectProlific(db);
}
