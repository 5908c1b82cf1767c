/**
 * Long computations written as generators that yield between steps: run to the end at once (`runSteps`), or with
 * `pause` awaited at each step (`runStepsPausing`), so a server's job lets its requests run between steps.
 */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export async function runStepsPausing<T>(steps: Generator<void, T>, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}
