export const ANONYMOUS_MAX_BODY_BYTES: number;
export const DEFAULT_MAX_BODY_BYTES: number;
export const PARTICIPANT_FORM_MAX_BYTES: number;
export const MAX_UPLOAD_BYTES: number;
export const UPLOAD_PATH: string;
export function bodyLimitFor(method: string, pathname: string): { limit: number; signedInLimit?: number };
export function formatLimit(bytes: number): string;
