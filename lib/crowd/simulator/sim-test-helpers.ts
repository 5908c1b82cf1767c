import { MTurkServiceException } from "@aws-sdk/client-mturk";
import { afterEach, expect } from "vitest";
import { startTestSimulator, type TestSimulator } from "../test-fixtures";

type SimOptions = Parameters<typeof startTestSimulator>[0];

/**
 * Tests only: `sim()` starts an MTurk simulator with an SDK client (`defaults()` under the call's options: fresh
 * each time, since simulated workers keep state); all are stopped after each test.
 */
export function simulatorsPerTest(defaults: () => SimOptions = () => ({})) {
  let running: TestSimulator[] = [];
  afterEach(async () => {
    for (const t of running) {
      t.client.destroy();
      await t.sim.stop();
    }
    running = [];
  });
  return async function sim(opts: SimOptions = {}, attempts = 8): Promise<TestSimulator> {
    const t = await startTestSimulator({ ...defaults(), ...opts }, attempts);
    running.push(t);
    return t;
  };
}

/** Tests only: the MTurk error a call fails with (the test fails if it succeeds). */
export async function sdkError(p: Promise<unknown>): Promise<MTurkServiceException & { TurkErrorCode?: string }> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(MTurkServiceException);
    return err as MTurkServiceException & { TurkErrorCode?: string };
  }
  throw new Error("expected the call to fail");
}
