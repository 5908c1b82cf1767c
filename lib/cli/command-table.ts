export type CliCommand = { run(argv: string[]): Promise<number> };

/** name → summary and lazy loader; filled by lib/cli/registry.ts. */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {};

export function registerCommand(name: string, summary: string, load: () => Promise<CliCommand>): void {
  COMMANDS[name] = { summary, load };
}
