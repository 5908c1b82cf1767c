import { CliError } from "../errors";

// Placeholder until its issue lands; replaced by the real command.
export async function run(_argv: string[]): Promise<number> {
  throw new CliError("`accord worker` is not built yet", 1);
}
