import "server-only";
import type { CrowdProvider } from "@/lib/crowd/provider";
import type { PublishDefaults } from "@/lib/crowd/mturk/settings";

/**
 * The Publish form's starting values for an event's crowd: the crowd settings' defaults, with the reward raised to the
 * provider's pay floor for the default time per assignment (Prolific), so a new event does not start below it.
 * An unreachable provider leaves the defaults as they are (the estimate then says what the floor refuses).
 */
export async function publishDefaultsFor(provider: Pick<CrowdProvider, "minimumRewardCents">, defaults: PublishDefaults): Promise<PublishDefaults & { rewardRaisedToFloor: boolean }> {
  if (!provider.minimumRewardCents) return { ...defaults, rewardRaisedToFloor: false };
  try {
    const floor = await provider.minimumRewardCents({ assignmentDurationSeconds: defaults.durationSeconds });
    return floor > defaults.rewardCents ? { ...defaults, rewardCents: floor, rewardRaisedToFloor: true } : { ...defaults, rewardRaisedToFloor: false };
  } catch {
    return { ...defaults, rewardRaisedToFloor: false };
  }
}
