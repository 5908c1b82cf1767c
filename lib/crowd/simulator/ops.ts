import { hitOperations } from "./ops-hits";
import { notificationOperations } from "./ops-notifications";
import { qualificationOperations } from "./ops-qualifications";
import { reviewOperations } from "./ops-review";
import type { ExtraOperation } from "./ops-types";

/** The requester operations that live outside service.ts (together with it: all 39 of MTurk's requester API). */
export const EXTRA_OPERATIONS: Record<string, ExtraOperation> = {
  ...qualificationOperations,
  ...hitOperations,
  ...notificationOperations,
  ...reviewOperations,
};
