import type { z } from "zod";
import type { MturkSimulatorService } from "./service";

type Json = Record<string, unknown>;

/** One operation outside service.ts: its input schema (validated like the others) and what it does. */
export interface ExtraOperation {
  schema: z.ZodType;
  run(svc: MturkSimulatorService, input: unknown): Json;
}

/** Pairs a schema with its handler, typed by what the schema outputs. */
export function op<S extends z.ZodType>(schema: S, run: (svc: MturkSimulatorService, input: z.output<S>) => Json): ExtraOperation {
  return { schema, run: (svc, input) => run(svc, input as z.output<S>) };
}
