import { describe, expect, it } from "vitest";
import { publishDefaultsSchema } from "@/lib/crowd/mturk/settings";
import { publishDefaultsFor } from "./publish-defaults";

const defaults = publishDefaultsSchema.parse({});

describe("publishDefaultsFor", () => {
  it("raises a default reward under the provider's pay floor to the floor for the default time", async () => {
    const seen: number[] = [];
    const provider = {
      minimumRewardCents: async ({ assignmentDurationSeconds }: { assignmentDurationSeconds: number }) => {
        seen.push(assignmentDurationSeconds);
        return 200;
      },
    };
    const out = await publishDefaultsFor(provider, defaults);
    expect(defaults.rewardCents).toBe(50);
    expect(out.rewardCents).toBe(200);
    expect(out.rewardRaisedToFloor).toBe(true);
    expect(seen).toEqual([defaults.durationSeconds]);
  });

  it("keeps a reward already above the floor, and the defaults of a crowd without one or out of reach", async () => {
    expect((await publishDefaultsFor({ minimumRewardCents: async () => 20 }, defaults)).rewardCents).toBe(50);
    expect((await publishDefaultsFor({}, defaults)).rewardCents).toBe(50);
    const offline = await publishDefaultsFor({ minimumRewardCents: async () => Promise.reject(new Error("unreachable")) }, defaults);
    expect(offline).toMatchObject({ rewardCents: 50, rewardRaisedToFloor: false });
  });
});
