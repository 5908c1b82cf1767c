import { CliError } from "../errors";

/**
 * `accord llm SUBCOMMAND`: the language model crowd (issue 32). Each subcommand is its own module, loaded lazily.
 */
const SUBCOMMANDS: Record<string, { summary: string; load: () => Promise<{ run(argv: string[]): Promise<number> }> }> = {
  label: { summary: "label an event's tweets with the language model endpoint of Settings", load: () => import("./llm-label") },
  compare: { summary: "the LLM against the crowd on an event: gold accuracy, κ, confusions, cost, workers who echo it", load: async () => ({ run: (await import("./llm-compare")).runLlmCompare }) },
  // ── other subcommands: one line each here ──
};

const USAGE = `usage: accord llm SUBCOMMAND [options]

${Object.entries(SUBCOMMANDS)
  .map(([name, s]) => `  ${name.padEnd(10)} ${s.summary}`)
  .join("\n")}

accord llm SUBCOMMAND --help for its options.`;

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h") {
    process.stdout.write(USAGE + "\n");
    return sub === undefined ? 2 : 0;
  }
  const command = SUBCOMMANDS[sub];
  if (!command) throw new CliError(`unknown subcommand "${sub}"\n\n${USAGE}`, 2);
  return (await command.load()).run(rest);
}
