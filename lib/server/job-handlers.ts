// Every job type Accord runs, registered in one place for the server process and `accord worker`.
export function registerJobHandlers(): void {
  // Job types register here as their features land (imports, publishing, sync, exports, training).
}
