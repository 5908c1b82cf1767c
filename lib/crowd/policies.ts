import { mturkPolicy } from "./mturk/policy";
import type { CrowdPolicy } from "./policy";
import { findCrowd } from "./registry";

/** The decision policy of a crowd, from the registry (an unknown crowd decides as MTurk does: the procedure's decision as it is). */
export function policyFor(crowd: string): CrowdPolicy {
  return findCrowd(crowd)?.policy ?? mturkPolicy;
}
