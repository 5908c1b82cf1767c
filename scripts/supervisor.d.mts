import type { ChildProcess } from "node:child_process";

export type ChildSpec = { command: string; args: string[]; env?: NodeJS.ProcessEnv; cwd?: string };
export type SupervisorChange = { type: "worker-started"; pid: number | undefined; starts: number } | { type: "worker-exited"; code: number | null; signal: NodeJS.Signals | null };
export type SupervisorOptions = {
  web: ChildSpec;
  worker: ChildSpec;
  backoffMs?: { first: number; max: number; resetAfterMs: number };
  stopGraceMs?: number;
  out?: (line: string) => void;
  err?: (line: string) => void;
};
export type Supervisor = {
  done: Promise<number>;
  stop(signal?: NodeJS.Signals, status?: number): Promise<number>;
  web: ChildProcess;
  worker(): ChildProcess | null;
  onChange(listener: (change: SupervisorChange) => void): () => void;
};
export function startSupervisor(options: SupervisorOptions): Supervisor;
export function workerSwitchedOff(env: { ACCORD_WORKER?: string }): boolean;
