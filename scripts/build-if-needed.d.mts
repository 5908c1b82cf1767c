export function sourceFingerprint(root: string): string;
export function buildIfNeeded(
  root: string,
  env?: Record<string, string | undefined>,
  options?: { build?: (root: string, env: Record<string, string | undefined>) => void; log?: (line: string) => void },
): boolean;
