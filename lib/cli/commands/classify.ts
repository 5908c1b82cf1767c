import { CliError } from "../errors";

// Placeholder until its issue lands; replaced by the real command.
export async function run(_argv: string[]): Promise<number> {
  throw new CliError("`accord classify` is not built yet", 1);
}
