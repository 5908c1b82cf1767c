import { PROVIDER_KIND } from "@/lib/db/enums";
import { localPolicy } from "./local/policy";
import { mturkPolicy } from "./mturk/policy";
import type { CrowdPolicy } from "./policy";
import { prolificPolicy } from "./prolific/policy";

const POLICIES: Record<string, CrowdPolicy> = {
  [PROVIDER_KIND.mturk]: mturkPolicy,
  [PROVIDER_KIND.prolific]: prolificPolicy,
  [PROVIDER_KIND.local]: localPolicy,
};

/** The decision policy of a crowd (an unknown crowd decides as MTurk does: the procedure's decision as it is). */
export function policyFor(crowd: string): CrowdPolicy {
  return POLICIES[crowd] ?? mturkPolicy;
}
