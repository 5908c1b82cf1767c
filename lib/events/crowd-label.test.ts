import { describe, expect, it } from "vitest";
import { PROVIDER_KIND } from "@/lib/db/enums";
import { crowdLabel, providerName } from "./crowd-label";
import { newEventFormSchema } from "./events.validation";

describe("an event's crowd", () => {
  it("is named with its mode, the in-house crowd without one", () => {
    expect(crowdLabel(PROVIDER_KIND.prolific, "simulator")).toBe("Prolific simulator");
    expect(crowdLabel(PROVIDER_KIND.mturk, "sandbox")).toBe("MTurk sandbox");
    expect(crowdLabel(PROVIDER_KIND.local, null)).toBe("in-house crowd");
    expect(providerName(PROVIDER_KIND.prolific)).toBe("Prolific");
  });

  it("is chosen in the New event form among MTurk, Prolific and the in-house crowd", () => {
    const form = { name: "Ridge fire", type: "wildfire", schemeId: "s1" };
    for (const provider of Object.values(PROVIDER_KIND)) expect(newEventFormSchema.parse({ ...form, provider }).provider).toBe(provider);
    expect(newEventFormSchema.parse(form).provider).toBe(PROVIDER_KIND.mturk);
    const bad = newEventFormSchema.safeParse({ ...form, provider: "figure-eight" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe("Choose MTurk, Prolific or the in-house crowd.");
  });
});
