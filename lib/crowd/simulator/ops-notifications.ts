import { z } from "zod";
import { parameterValidationError, plainRequestError, requestError } from "./errors";
import { extraState, type SimNotificationSpec } from "./ops-state";
import { op, type ExtraOperation } from "./ops-types";
import { entityId } from "./schemas";
import type { MturkSimulatorService } from "./service";

export const EVENT_TYPES = [
  "AssignmentAccepted",
  "AssignmentAbandoned",
  "AssignmentReturned",
  "AssignmentSubmitted",
  "AssignmentRejected",
  "AssignmentApproved",
  "HITCreated",
  "HITExpired",
  "HITReviewable",
  "HITExtended",
  "HITDisposed",
  "Ping",
] as const;

/** The SDK's doc says 2006-05-05, the current API doc 2014-08-15; both are accepted (docs/mturk-protocol.md §2). */
const VERSIONS = ["2006-05-05", "2014-08-15"];
/** The sink keeps the newest messages only. */
const OUTBOX_LIMIT = 10_000;

const DESTINATION: Record<SimNotificationSpec["Transport"], RegExp> = {
  Email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
  SQS: /^https:\/\/sqs\.[a-z0-9-]+\.amazonaws\.com\/\d{12}\/[A-Za-z0-9_-]{1,80}(\.fifo)?$/,
  SNS: /^arn:aws:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/,
};

const notification = z.object({
  Destination: z.string().min(1),
  Transport: z.enum(["Email", "SQS", "SNS"]),
  Version: z.string().min(1),
  EventTypes: z.array(z.enum(EVENT_TYPES)).min(1),
});

function checkSpec(spec: SimNotificationSpec, nowMs: number, allowPing: boolean): SimNotificationSpec {
  if (!VERSIONS.includes(spec.Version)) throw parameterValidationError("Version", spec.Version, nowMs);
  if (!DESTINATION[spec.Transport].test(spec.Destination)) throw parameterValidationError("Destination", spec.Destination, nowMs);
  if (!allowPing && spec.EventTypes.includes("Ping")) throw parameterValidationError("EventTypes", "Ping", nowMs);
  return { ...spec, EventTypes: [...spec.EventTypes] };
}

/** The requester id events carry (the simulator has one requester). */
function customerId(svc: MturkSimulatorService): string {
  return `A${String(svc.state.seed).padStart(13, "0").slice(-13)}`;
}

/** Writes one message to the sink, shaped as MTurk's SQS/SNS notifications (EventDocId, EventDocVersion, Events). */
export function sendNotification(
  svc: MturkSimulatorService,
  spec: SimNotificationSpec,
  events: Array<{ EventType: string; HITTypeId?: string; HITId?: string; AssignmentId?: string }>,
): void {
  const timestamp = new Date(Math.floor(svc.time / 1000) * 1000).toISOString().replace(".000Z", "Z");
  const message = {
    EventDocId: svc.newId(),
    SourceAccount: customerId(svc),
    CustomerId: customerId(svc),
    EventDocVersion: spec.Version,
    Events: events.map((e) => ({ EventType: e.EventType, EventTimestamp: timestamp, HITTypeId: e.HITTypeId, HITId: e.HITId, AssignmentId: e.AssignmentId })),
  };
  const outbox = extraState(svc.state).notificationOutbox;
  outbox.push({ time: svc.time, Destination: spec.Destination, Transport: spec.Transport, Message: JSON.stringify(message) });
  if (outbox.length > OUTBOX_LIMIT) outbox.splice(0, outbox.length - OUTBOX_LIMIT);
}

export const notificationOperations: Record<string, ExtraOperation> = {
  UpdateNotificationSettings: op(z.object({ HITTypeId: entityId, Notification: notification.optional(), Active: z.boolean().optional() }), (svc, i) => {
    if (!svc.state.hitTypes[i.HITTypeId]) throw requestError("HITTypeDoesNotExist", `HITType ${i.HITTypeId} does not exist.`, svc.time);
    if (!i.Notification && i.Active === undefined) {
      throw plainRequestError("You must specify either the Notification parameter or the Active parameter.", svc.time);
    }
    const settings = extraState(svc.state).notificationSettings;
    const current = settings[i.HITTypeId];
    if (!i.Notification && !current) throw plainRequestError(`HITType ${i.HITTypeId} has no notification specification to activate or deactivate.`, svc.time);
    // A new specification is active unless Active says otherwise.
    settings[i.HITTypeId] = {
      spec: i.Notification ? checkSpec(i.Notification, svc.time, false) : current.spec,
      active: i.Active ?? (i.Notification ? true : current.active),
    };
    return {};
  }),
  SendTestEventNotification: op(z.object({ Notification: notification, TestEventType: z.enum(EVENT_TYPES) }), (svc, i) => {
    sendNotification(svc, checkSpec(i.Notification, svc.time, true), [{ EventType: i.TestEventType }]);
    return {};
  }),
};
