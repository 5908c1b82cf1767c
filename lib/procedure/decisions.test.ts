import { describe, expect, it } from "vitest";
import { assignmentHeadroom, decideHit, decideHitFromJudgments, decideTweet, type TweetDecision } from "./decisions";
import { estimateDynamicOverlap, initialAssignments } from "./dynamic-overlap";
import { meetsRatio } from "./ratio";
import { DEFAULT_PROCEDURE_SETTINGS as S, parseProcedureSettings } from "./settings";

const L = (s: string) => s.split("");

describe("decideTweet", () => {
  it("accepts a unique top label at ≥ 2/3 (integers): 2/3 and 3/4 pass, 3/5 and 2/4 do not", () => {
    expect(decideTweet({ labels: L("aab"), settings: S })).toMatchObject({ state: "accepted", label: "a", top: 2, total: 3 });
    expect(decideTweet({ labels: L("aaab"), settings: S })).toMatchObject({ state: "accepted", label: "a" });
    expect(decideTweet({ labels: L("aaabb"), settings: S })).toMatchObject({ state: "unresolved", top: 3, total: 5 });
    expect(decideTweet({ labels: L("aabb"), settings: S }).state).not.toBe("accepted");
    expect(decideTweet({ labels: L("aaa"), settings: S })).toMatchObject({ state: "accepted", neededForAcceptance: 0 });
  });

  it("reports votes most frequent first", () => {
    expect(decideTweet({ labels: L("cabcc"), settings: S }).votes).toEqual({ c: 3, a: 1, b: 1 });
    expect(Object.keys(decideTweet({ labels: L("cabcc"), settings: S }).votes)).toEqual(["c", "a", "b"]);
  });

  it("needs judgmentsPerTweet judgments before accepting (a rejected 3rd assignment leaves 2)", () => {
    const d = decideTweet({ labels: L("aa"), settings: S });
    expect(d).toMatchObject({ state: "needs_more", neededForAcceptance: 1 });
    expect(decideTweet({ labels: L("ab"), settings: S })).toMatchObject({ state: "needs_more", neededForAcceptance: 1 });
    expect(decideTweet({ labels: [], settings: S })).toMatchObject({ state: "needs_more", neededForAcceptance: 3 });
  });

  it("marks a tweet unresolved as soon as no further judgment within 5 can reach 2/3", () => {
    // 1/1/1: a 4th gives at most 2/4, a 5th at most 3/5: never accepted.
    expect(decideTweet({ labels: L("abc"), settings: S })).toMatchObject({ state: "unresolved", neededForAcceptance: null });
    // 2/2 at four judgments: the 5th gives 3/5
    expect(decideTweet({ labels: L("aabb"), settings: S }).state).toBe("unresolved");
    // ...but with extendOnlyWhenReachable off they need more until the cap
    const always = parseProcedureSettings({ extendOnlyWhenReachable: false });
    expect(decideTweet({ labels: L("abc"), settings: always }).state).toBe("needs_more");
    expect(decideTweet({ labels: L("abcab"), settings: always }).state).toBe("unresolved");
  });

  it("agrees with a brute-force search of every vote split up to 5 judgments", () => {
    for (let n = 0; n <= 5; n++) {
      for (const split of splits(n)) {
        const labels = split.flatMap((c, i) => Array<string>(c).fill(String.fromCharCode(97 + i)));
        const d = decideTweet({ labels, settings: S });
        const sorted = [...split].sort((a, b) => b - a);
        const top = sorted[0] ?? 0;
        const unique = sorted.length < 2 || sorted[1] < top;
        const acceptNow = n >= 3 && unique && 3 * top >= 2 * n;
        // reachable: some m ≥ 1 with n + m ≤ 5, n + m ≥ 3 and 3(top + m) ≥ 2(n + m)
        let reach: number | null = null;
        for (let m = 1; n + m <= 5 && reach === null; m++) if (n + m >= 3 && 3 * (top + m) >= 2 * (n + m)) reach = m;
        expect(d.state).toBe(acceptNow ? "accepted" : reach !== null ? "needs_more" : "unresolved");
        expect(d.neededForAcceptance).toBe(acceptNow ? 0 : reach);
      }
    }
  });
});

function* splits(n: number, maxPart = n, parts: number[] = []): Generator<number[]> {
  if (n === 0) {
    yield parts;
    return;
  }
  for (let p = Math.min(n, maxPart); p >= 1; p--) yield* splits(n - p, p, [...parts, p]);
}

function states(accepted: number, needsMore: number, unresolved: number, needed = 1): TweetDecision[] {
  const mk = (state: TweetDecision["state"], n: number | null): TweetDecision => ({
    state,
    top: 0,
    total: 0,
    votes: {},
    neededForAcceptance: n,
  });
  return [
    ...Array.from({ length: accepted }, () => mk("accepted", 0)),
    ...Array.from({ length: needsMore }, () => mk("needs_more", needed)),
    ...Array.from({ length: unresolved }, () => mk("unresolved", null)),
  ];
}

describe("decideHit", () => {
  it("approves at 14 of 20 accepted", () => {
    const d = decideHit({ tweetStates: states(14, 0, 6), currentAssignments: 3, settings: S });
    expect(d).toMatchObject({ state: "approved", accepted: 14, total: 20, required: 14, extraAssignments: 0 });
    expect(d.reason.rule).toBe("hit_approval");
    expect(d.reason.text).toContain("14 of 20");
  });

  it("extends by the fewest assignments that could reach 14, never past 5", () => {
    const d = decideHit({ tweetStates: states(12, 4, 4), currentAssignments: 3, settings: S });
    expect(d).toMatchObject({ state: "extend", extraAssignments: 1 });
    const needTwo = decideHit({ tweetStates: states(12, 4, 4, 2), currentAssignments: 3, settings: S });
    expect(needTwo).toMatchObject({ state: "extend", extraAssignments: 2 });
    const atCap = decideHit({ tweetStates: states(12, 4, 4, 1), currentAssignments: 5, settings: S });
    expect(atCap).toMatchObject({ state: "unresolved", extraAssignments: 0, reason: { rule: "assignment_cap" } });
    const over = decideHit({ tweetStates: states(12, 4, 4, 3), currentAssignments: 3, settings: S });
    expect(over).toMatchObject({ state: "unresolved", reason: { rule: "assignment_cap" } });
  });

  it("gives up when too few tweets can still be accepted", () => {
    const d = decideHit({ tweetStates: states(10, 3, 7), currentAssignments: 3, settings: S });
    expect(d).toMatchObject({ state: "unresolved", reason: { rule: "unreachable" } });
  });

  it("never grows a HIT from fewer than 10 to 10 or more assignments", () => {
    expect(assignmentHeadroom(3, 5)).toBe(2);
    expect(assignmentHeadroom(8, 20)).toBe(1);
    expect(assignmentHeadroom(9, 20)).toBe(0);
    expect(assignmentHeadroom(10, 20)).toBe(10);
    const big = parseProcedureSettings({ maxJudgmentsPerTweet: 15, extendOnlyWhenReachable: false });
    const d = decideHit({ tweetStates: states(10, 10, 0, 3), currentAssignments: 8, settings: big });
    expect(d.state).toBe("unresolved"); // needs 3 more but only 1 is possible below 10
    const ok = decideHit({ tweetStates: states(10, 10, 0, 1), currentAssignments: 8, settings: big });
    expect(ok).toMatchObject({ state: "extend", extraAssignments: 1 });
    for (let cur = 1; cur <= 12; cur++) {
      for (let needed = 1; needed <= 6; needed++) {
        const r = decideHit({ tweetStates: states(0, 20, 0, needed), currentAssignments: cur, settings: big });
        if (r.state === "extend") {
          expect(cur + r.extraAssignments).toBeLessThanOrEqual(15);
          if (cur < 10) expect(cur + r.extraAssignments).toBeLessThan(10);
        }
      }
    }
  });

  it("uses the unknown count of a partial HIT", () => {
    expect(decideHit({ tweetStates: states(7, 0, 3), currentAssignments: 3, settings: S }).state).toBe("approved");
    expect(decideHit({ tweetStates: states(6, 0, 4), currentAssignments: 3, settings: S }).state).toBe("unresolved");
    expect(decideHit({ tweetStates: [], currentAssignments: 3, settings: S }).reason.rule).toBe("no_unknown");
  });
});

describe("decideHitFromJudgments", () => {
  it("runs a HIT from labels: 3 agreeing workers approve it", () => {
    const tweets = Array.from({ length: 20 }, (_, i) => ({ tweetId: `t${i}`, labels: i < 15 ? L("aab") : L("abc") }));
    const { hit, tweets: decided } = decideHitFromJudgments({ tweets, currentAssignments: 3, settings: S });
    expect(hit.state).toBe("approved");
    expect(decided.filter((t) => t.state === "accepted")).toHaveLength(15);
    expect(decided[0]).toMatchObject({ tweetId: "t0", label: "a" });
  });

  it("asks for one more assignment when a rejected worker left tweets with two judgments", () => {
    const tweets = Array.from({ length: 20 }, (_, i) => ({ tweetId: `t${i}`, labels: i < 10 ? L("aa") : L("ab") }));
    const { hit } = decideHitFromJudgments({ tweets, currentAssignments: 3, settings: S });
    expect(hit).toMatchObject({ state: "extend", extraAssignments: 1 });
  });
});

describe("dynamic overlap", () => {
  const dyn = parseProcedureSettings({ dynamicOverlap: { enabled: true } });

  it("publishes with 2 assignments and stops when the two disagree on at most 6 tweets", () => {
    expect(initialAssignments(dyn)).toBe(2);
    expect(initialAssignments(S)).toBe(3);
    const agree = Array.from({ length: 20 }, (_, i) => ({ tweetId: `t${i}`, labels: i < 14 ? L("aa") : L("ab") }));
    const r = decideHitFromJudgments({ tweets: agree, currentAssignments: 2, settings: dyn });
    expect(r.hit).toMatchObject({ state: "approved", accepted: 14, reason: { rule: "dynamic_overlap" } });
    const disagree = agree.map((t, i) => (i === 13 ? { ...t, labels: L("ab") } : t));
    const e = decideHitFromJudgments({ tweets: disagree, currentAssignments: 2, settings: dyn });
    expect(e.hit).toMatchObject({ state: "extend", extraAssignments: 1, reason: { rule: "dynamic_overlap" } });
    // after the third assignment the ordinary rules apply (3 judgments needed)
    const third = disagree.map((t) => ({ ...t, labels: [...t.labels, "a"] }));
    const f = decideHitFromJudgments({ tweets: third, currentAssignments: 3, settings: dyn });
    expect(f.hit.state).toBe("approved");
    expect(f.hit.accepted).toBe(20);
  });

  it("a stricter maxDisagreements adds the third assignment sooner", () => {
    const strict = parseProcedureSettings({ dynamicOverlap: { enabled: true, maxDisagreements: 2 } });
    const tweets = Array.from({ length: 20 }, (_, i) => ({ tweetId: `t${i}`, labels: i < 17 ? L("aa") : L("ab") }));
    expect(decideHitFromJudgments({ tweets, currentAssignments: 2, settings: strict }).hit.state).toBe("extend");
    expect(decideHitFromJudgments({ tweets, currentAssignments: 2, settings: dyn }).hit.state).toBe("approved");
  });

  it("estimates the cost saving with exact binomial sums", () => {
    const e = estimateDynamicOverlap({ settings: dyn, pairAgreement: 0.7 });
    // P(Binomial(20, 0.3) ≤ 6) = 0.6080098…; saving = P/3
    expect(e.stopProbability).toBeCloseTo(0.60800981, 7);
    expect(e.costSaving).toBeCloseTo(0.60800981 / 3, 7);
    expect(e.expectedAssignmentsPerHit).toBeCloseTo(3 - 0.60800981, 7);
    expect(estimateDynamicOverlap({ settings: dyn, pairAgreement: 1 }).costSaving).toBeCloseTo(1 / 3, 12);
    expect(estimateDynamicOverlap({ settings: dyn, pairAgreement: 0 }).costSaving).toBe(0);
    // Monte Carlo cross-check of the stop probability with a fixed generator
    let stops = 0;
    let x = 12345;
    const rand = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (let h = 0; h < 20000; h++) {
      let d = 0;
      for (let t = 0; t < 20; t++) if (rand() >= 0.7) d++;
      if (d <= 6 && meetsRatio(20 - d, 20, dyn.hitApproval)) stops++;
    }
    expect(Math.abs(stops / 20000 - e.stopProbability)).toBeLessThan(0.02);
  });
});

describe("extension and HIT-outcome policies", () => {
  const agreeing = Array.from({ length: 15 }, (_, i) => ({ tweetId: `t${i}`, labels: L("aaa") }));

  it("hit-reachable (default) approves a HIT at 15/20 and asks for nothing more", () => {
    const r = decideHitFromJudgments({ tweets: [...agreeing, ...Array.from({ length: 5 }, (_, i) => ({ tweetId: `u${i}`, labels: L("ab") }))], currentAssignments: 3, settings: S });
    expect(r.hit.state).toBe("approved");
  });

  it("any-unresolved extends an approved HIT while a tweet could still be accepted, up to the cap", () => {
    const settings = parseProcedureSettings({ extendWhen: "any-unresolved" });
    const twoJudged = Array.from({ length: 5 }, (_, i) => ({ tweetId: `u${i}`, labels: L("ab") }));
    const r = decideHitFromJudgments({ tweets: [...agreeing, ...twoJudged], currentAssignments: 3, settings });
    expect(r.hit).toMatchObject({ state: "extend", extraAssignments: 1, reason: { rule: "any_unresolved" } });
    // at the cap (5 assignments) it is approved
    expect(decideHitFromJudgments({ tweets: [...agreeing, ...twoJudged], currentAssignments: 5, settings }).hit.state).toBe("approved");
    // only unreachable tweets left: approved at once
    const unreachable = Array.from({ length: 5 }, (_, i) => ({ tweetId: `v${i}`, labels: L("abc") }));
    expect(decideHitFromJudgments({ tweets: [...agreeing, ...unreachable], currentAssignments: 3, settings }).hit.state).toBe("approved");
  });

  it("unresolvedHitLabels drop: an unresolved HIT releases no label; keep (default) keeps them", () => {
    const few = Array.from({ length: 5 }, (_, i) => ({ tweetId: `t${i}`, labels: L("aaaaa") }));
    const none = Array.from({ length: 15 }, (_, i) => ({ tweetId: `v${i}`, labels: L("abcde") }));
    const keep = decideHitFromJudgments({ tweets: [...few, ...none], currentAssignments: 5, settings: S });
    expect(keep.hit.state).toBe("unresolved");
    expect(keep.tweets.filter((t) => t.state === "accepted")).toHaveLength(5);
    const drop = decideHitFromJudgments({ tweets: [...few, ...none], currentAssignments: 5, settings: parseProcedureSettings({ unresolvedHitLabels: "drop" }) });
    expect(drop.hit.state).toBe("unresolved");
    expect(drop.tweets.filter((t) => t.state === "accepted")).toHaveLength(0);
    expect(drop.tweets[0]).toMatchObject({ state: "unresolved", label: undefined, top: 5, total: 5 });
  });
});
