import { describe, expect, it } from "vitest";
import { computeGoldStats, type GoldAnswerRow } from "./gold-health";

const seven = { num: 7, den: 10 };
const row = (tweetId: string, label: string, correct: boolean, assignmentGoldCorrect: number, assignmentGoldTotal = 10): GoldAnswerRow => ({
  tweetId,
  label,
  correct,
  assignmentGoldCorrect,
  assignmentGoldTotal,
});

describe("gold statistics", () => {
  it("counts a worker as good on the OTHER gold of the assignment (7/10 of the rest)", () => {
    const stats = computeGoldStats(
      [
        // Missed g1 with 7 of the other 9 right: 7/9 ≥ 7/10 → good, a good worker's miss.
        row("g1", "b", false, 7),
        // Missed g1 with 6 of 9 right: 6/9 < 7/10 → not good.
        row("g1", "c", false, 6),
        // Right on g1, 8 of 10 in all: 7 of the other 9 → good.
        row("g1", "a", true, 8),
        // Right on g1, 7 of 10 in all: 6 of the other 9 → not good (approved overall, but not on the others).
        row("g1", "a", true, 7),
        row("g1", "b", false, 9),
        row("g2", "a", true, 10),
        // Not graded (no gold total): ignored.
        { tweetId: "g2", label: "x", correct: false, assignmentGoldCorrect: null, assignmentGoldTotal: null },
      ],
      seven,
    );
    const g1 = stats.find((s) => s.tweetId === "g1")!;
    expect(g1).toEqual({ tweetId: "g1", shown: 5, missed: 3, goodShown: 3, goodMissed: 2, topWrongLabel: "b", topWrongCount: 2 });
    expect(stats.find((s) => s.tweetId === "g2")).toEqual({ tweetId: "g2", shown: 1, missed: 0, goodShown: 1, goodMissed: 0, topWrongLabel: null, topWrongCount: 0 });
  });

  it("breaks ties between wrong answers by label, and needs another gold tweet to judge", () => {
    const stats = computeGoldStats([row("g", "z", false, 9), row("g", "m", false, 9), row("h", "q", false, 0, 1)], seven);
    expect(stats.find((s) => s.tweetId === "g")?.topWrongLabel).toBe("m");
    // A single gold tweet in the assignment: nothing else to judge the worker by.
    expect(stats.find((s) => s.tweetId === "h")).toMatchObject({ shown: 1, missed: 1, goodShown: 0 });
  });
});
