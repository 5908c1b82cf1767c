import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliError } from "./errors";

/** node:util parseArgs with errors turned into CliError (exit code 2, as for usage errors). */
export function parseCliArgs<T extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: T,
  { allowPositionals = true }: { allowPositionals?: boolean } = {},
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (err) {
    throw new CliError(err instanceof Error ? err.message : String(err), 2);
  }
}
