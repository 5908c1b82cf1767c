import { describe, expect, it } from "vitest";
import { lostReason, releasedTweets } from "./lost";
import { hitRow } from "./step-fixture";

describe("lost HITs", () => {
  it("give back their unknown tweets, not the gold ones other HITs share", () => {
    expect(releasedTweets(hitRow("h1", { gold: 2, unknown: 3 }))).toEqual(["h1-t2", "h1-t3", "h1-t4"]);
  });

  it("say why, naming the provider's HIT id", () => {
    expect(lostReason("3XYZ")).toMatch(/does not know this HIT \(3XYZ\).*released/);
  });
});
