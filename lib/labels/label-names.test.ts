import { describe, expect, it } from "vitest";
import { labelName, labelNamer } from "./label-names";

describe("labelNamer", () => {
  it("prefers the scheme's display name, then HumAID's, then a readable value", () => {
    const name = labelNamer([{ value: "caution_and_advice", name: "Warnings" }]);
    expect(name("caution_and_advice")).toBe("Warnings");
    expect(name("dont_know_cant_judge")).toBe("Don't know or can't judge");
    expect(name("road_closures")).toBe("Road closures");
  });
  it("names HumAID labels without a scheme", () => {
    expect(labelName("dont_know_cant_judge")).toBe("Don't know or can't judge");
    expect(labelName("missing_or_found_people")).toBe("Missing or found people");
  });
});
