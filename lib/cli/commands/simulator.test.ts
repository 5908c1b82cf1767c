import { afterEach, describe, expect, it, vi } from "vitest";
import { CliError } from "../errors";
import { run } from "./simulator";

afterEach(() => vi.restoreAllMocks());

describe("accord simulator", () => {
  it("validates its options", async () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    expect(await run(["--help"])).toBe(0);
    expect(String(out.mock.calls[0][0])).toMatch(/^usage: accord simulator/);
    await expect(run(["--workers", "genius:2"])).rejects.toBeInstanceOf(CliError);
    await expect(run(["--faults", "2"])).rejects.toThrow(/fraction/);
    await expect(run(["--port", "x"])).rejects.toThrow(/--port/);
  });

  it("serves until interrupted", async () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const done = run(["--port", "0", "--workers", "careful:2", "--seed", "7", "--speed", "10"]);
    let url: string | undefined;
    for (let i = 0; i < 200 && !url; i++) {
      url = /listening on (http:\/\/\S+)/.exec(lines.join(""))?.[1];
      if (!url) await new Promise((r) => setTimeout(r, 25));
    }
    expect(lines.join("")).toMatch(/MTurk simulator listening on http:\/\/127\.0\.0\.1:\d+ \(seed 7, 2 workers, speed x10, 0 HITs loaded\)/);
    const health = await fetch(`${url}/health`);
    expect(await health.json()).toEqual({ ok: true });
    const balance = await fetch(url as string, { method: "POST", headers: { "x-amz-target": "MTurkRequesterServiceV20170117.GetAccountBalance" }, body: "{}" });
    expect(await balance.json()).toEqual({ AvailableBalance: "10000.00", OnHoldBalance: "0.00" });
    process.emit("SIGINT");
    expect(await done).toBe(0);
    expect(lines.join("")).toContain("simulator stopped");
  });
});
