import type { SimLocale, SimWorker } from "./workers";

/** System qualification type ids (docs/mturk-protocol.md §4). */
export const SYSTEM_QUALIFICATIONS = {
  mastersProduction: "2F1QJWKUDD8XADTFD2Q0G6UTO95ALH",
  mastersSandbox: "2ARFPLSP75KLA8M8DH1HTEQVJT3SY6",
  numberHitsApproved: "00000000000000000040",
  percentAssignmentsApproved: "000000000000000000L0",
  locale: "00000000000000000071",
  adult: "00000000000000000060",
} as const;

export const SYSTEM_QUALIFICATION_NAMES: Record<string, string> = {
  [SYSTEM_QUALIFICATIONS.mastersProduction]: "Masters",
  [SYSTEM_QUALIFICATIONS.mastersSandbox]: "Masters",
  [SYSTEM_QUALIFICATIONS.numberHitsApproved]: "Worker_NumberHITsApproved",
  [SYSTEM_QUALIFICATIONS.percentAssignmentsApproved]: "Worker_PercentAssignmentsApproved",
  [SYSTEM_QUALIFICATIONS.locale]: "Worker_Locale",
  [SYSTEM_QUALIFICATIONS.adult]: "Worker_Adult",
};

/** A requirement as it arrives on the wire. */
export interface WireRequirement {
  QualificationTypeId: string;
  Comparator: string;
  IntegerValues?: number[];
  LocaleValues?: SimLocale[];
  RequiredToPreview?: boolean;
  ActionsGuarded?: string;
}

/** A worker's value for one qualification type: an integer, a locale, or absent. */
export type QualValue = { integer: number } | { locale: SimLocale } | undefined;

function localeMatches(worker: SimLocale, wanted: SimLocale): boolean {
  if (worker.Country !== wanted.Country) return false;
  return wanted.Subdivision === undefined || worker.Subdivision === wanted.Subdivision;
}

/** Evaluates one requirement against a worker's value (all ten comparators). */
export function meetsRequirement(req: WireRequirement, value: QualValue): boolean {
  const c = req.Comparator;
  if (c === "Exists") return value !== undefined;
  if (c === "DoesNotExist") return value === undefined;
  if (value === undefined) return false;
  if ("locale" in value) {
    const wanted = req.LocaleValues ?? [];
    const any = wanted.some((w) => localeMatches(value.locale, w));
    if (c === "EqualTo" || c === "In") return any;
    if (c === "NotEqualTo" || c === "NotIn") return !any;
    return false;
  }
  const v = value.integer;
  const ints = req.IntegerValues ?? [];
  const x = ints[0];
  switch (c) {
    case "LessThan":
      return v < x;
    case "LessThanOrEqualTo":
      return v <= x;
    case "GreaterThan":
      return v > x;
    case "GreaterThanOrEqualTo":
      return v >= x;
    case "EqualTo":
      return v === x;
    case "NotEqualTo":
      return v !== x;
    case "In":
      return ints.includes(v);
    case "NotIn":
      return !ints.includes(v);
    default:
      return false;
  }
}

/** The worker's value for a system qualification (undefined when the id is not a system one). */
export function systemQualValue(worker: SimWorker, typeId: string): { known: boolean; value: QualValue } {
  switch (typeId) {
    case SYSTEM_QUALIFICATIONS.numberHitsApproved:
      return { known: true, value: { integer: worker.numberHitsApproved } };
    case SYSTEM_QUALIFICATIONS.percentAssignmentsApproved:
      return { known: true, value: { integer: worker.percentApproved } };
    case SYSTEM_QUALIFICATIONS.locale:
      return { known: true, value: { locale: worker.locale } };
    case SYSTEM_QUALIFICATIONS.adult:
      return { known: true, value: worker.adult ? { integer: 1 } : undefined };
    case SYSTEM_QUALIFICATIONS.mastersProduction:
    case SYSTEM_QUALIFICATIONS.mastersSandbox:
      return { known: true, value: worker.masters ? { integer: 1 } : undefined };
    default:
      return { known: false, value: undefined };
  }
}
