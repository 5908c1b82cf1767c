import { describe, expect, it } from "vitest";
import { bulkGoldSchema, makeGoldSchema } from "./gold.validation";

describe("gold form inputs", () => {
  it("reads the Data tab's filters as the bulk form sends them (empty = no filter, empty label = the file's)", () => {
    expect(bulkGoldSchema.parse({ eventId: "e1", mode: "mark", goldLabel: "", q: "", role: "", status: "pending", label: "" })).toEqual({
      eventId: "e1",
      mode: "mark",
      goldLabel: null,
      q: undefined,
      role: undefined,
      status: "pending",
      label: undefined,
    });
    expect(bulkGoldSchema.safeParse({ eventId: "e1", mode: "mark", role: "expert" }).success).toBe(false);
    expect(bulkGoldSchema.safeParse({ eventId: "e1", mode: "mark", goldLabel: "a label; drop" }).success).toBe(false);
  });

  it("needs a whole number per class of at least 1; the seed defaults to 1", () => {
    expect(makeGoldSchema.parse({ eventId: "e", importId: "i", perClass: "5" })).toEqual({ eventId: "e", importId: "i", perClass: 5, seed: 1 });
    expect(makeGoldSchema.safeParse({ eventId: "e", importId: "i", perClass: "0" }).success).toBe(false);
    expect(makeGoldSchema.safeParse({ eventId: "e", importId: "i", perClass: "2.5" }).success).toBe(false);
  });
});
