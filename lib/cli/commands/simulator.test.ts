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

describe("accord simulator --prolific", () => {
  it("validates its options", async () => {
    await expect(run(["--prolific", "--throttle", "5"])).rejects.toThrow(/fraction/);
    await expect(run(["--prolific", "--currency", "EUR"])).rejects.toThrow(/GBP or USD/);
    await expect(run(["--prolific", "--workers", "genius:1"])).rejects.toBeInstanceOf(CliError);
  });

  it("serves the Prolific API with its participants until interrupted", async () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const done = run(["--prolific", "--port", "0", "--workers", "careful:2,sloppy:1", "--seed", "5", "--token", "t0k", "--balance", "50", "--test-participants"]);
    let url: string | undefined;
    for (let i = 0; i < 200 && !url; i++) {
      url = /listening on (http:\/\/\S+)/.exec(lines.join(""))?.[1];
      if (!url) await new Promise((r) => setTimeout(r, 25));
    }
    expect(lines.join("")).toMatch(/^Prolific simulator listening on http:\/\/127\.0\.0\.1:\d+ \(seed 5, 3 participants, speed x1, 0 studies loaded\)\nAPI: http:\/\/127\.0\.0\.1:\d+\/api\/v1\/ with the header "Authorization: Token t0k"\n/);
    const me = await fetch(`${url}/api/v1/users/me/`, { headers: { authorization: "Token t0k" } });
    expect(await me.json()).toMatchObject({ balance: 5000, currency_code: "GBP" });
    // --test-participants: the workspace may create its test participant.
    const tester = await fetch(`${url}/api/v1/researchers/participants/`, { method: "POST", headers: { authorization: "Token t0k", "content-type": "application/json" }, body: JSON.stringify({ email: "tester@example.org" }) });
    expect(tester.status).toBe(201);
    process.emit("SIGINT");
    expect(await done).toBe(0);
    expect(lines.join("")).toContain("simulator stopped");
  });
});
