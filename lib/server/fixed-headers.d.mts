export const SECURITY_HEADERS: ReadonlyArray<{ key: string; value: string }>;
export const NOTHING_RENDERED_CSP: string;
