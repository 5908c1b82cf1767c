export function sourceFingerprint(root: string): string;
export function buildIfNeeded(
  root: string,
  env?: NodeJS.ProcessEnv,
  options?: { build?: (root: string, env: NodeJS.ProcessEnv) => void; log?: (line: string) => void },
): boolean;
