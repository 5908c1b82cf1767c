/**
 * The simulator's fee rule. Prolific publishes no current fee schedule ([?] in the team's API notes): the simulator
 * assumes the old help centre's 33.33% service fee on rewards and bonuses and no VAT (a US workspace). Accord takes
 * real costs from Prolific's cost calculator, so only the simulator depends on this assumption.
 */
export const SIM_FEE_BASIS_POINTS = 3333;
export const SIM_VAT_BASIS_POINTS = 0;

export function simFee(amountMinor: number): number {
  return Math.round((amountMinor * SIM_FEE_BASIS_POINTS) / 10_000);
}

export function simVat(feeMinor: number): number {
  return Math.round((feeMinor * SIM_VAT_BASIS_POINTS) / 10_000);
}

/** Reward + fee + VAT for `places` places: what publishing reserves and the cost calculator answers. */
export function simStudyCost(rewardMinor: number, places: number): number {
  const fee = simFee(rewardMinor);
  return places * (rewardMinor + fee + simVat(fee));
}

/** The minimum hourly pay the simulator enforces, per currency (help centre: £6.00 / $8.00 per hour). */
export const SIM_MIN_REWARD_PER_HOUR: Record<string, number> = { GBP: 600, USD: 800 };
export const SIM_RECOMMENDED_REWARD_PER_HOUR: Record<string, number> = { GBP: 900, USD: 1200 };
