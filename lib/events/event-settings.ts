import { UserError } from "@/lib/errors";
import { parseProcedureSettings, type ProcedureSettings } from "@/lib/procedure/settings";

/**
 * The one reader of Event.settings (the procedure's rules, defaults filled in). A stored value that does not parse
 * is never replaced by defaults: the rules decide payments, so it fails loudly, naming the event.
 */
export function readEventSettings(event: { name: string; settings: unknown }): ProcedureSettings {
  try {
    return parseProcedureSettings(event.settings);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    throw new UserError(`The rule settings of event "${event.name}" are invalid (${err.message}); fix them before working on this event.`, "invalid_settings", err.fieldErrors);
  }
}
