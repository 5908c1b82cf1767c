import { CliError } from "./errors";

import { COMMANDS } from "./command-table";
import "./registry";

// `accord <command> …`: each command lives in lib/cli/commands/<name>.ts and exports
// `run(argv: string[]): Promise<number>` (the exit code). Commands load lazily so that
// `accord agreement` does not pay for the simulator or the database.

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: accord <command> [options]\n\ncommands:\n${lines.join("\n")}\n\nRun "accord <command> --help" for a command's options.`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage() + "\n");
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`accord: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  // A bad environment variable stops every command before it starts, with one line per variable (loaded
  // here, not above: --help does not pay for zod).
  const config = await import("@/lib/config/env");
  if (!config.checkEnvAtStartup()) return config.EXIT_BAD_CONFIG;
  try {
    const mod = await command.load();
    return await mod.run(rest);
  } catch (err) {
    if (err instanceof CliError) {
      process.stderr.write(`accord ${name}: ${err.message}\n`);
      return err.exitCode;
    }
    // Anything unexpected: one line, no stack trace unless asked for.
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`accord ${name}: unexpected error: ${message}\n`);
    if (config.env().ACCORD_DEBUG) console.error(err);
    return 1;
  }
}
