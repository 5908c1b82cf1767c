import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatItemsBlock } from "@/lib/crowd/llm/simulator/prompt-format";
import { CliError } from "../errors";
import { run } from "./simulator";

afterEach(() => vi.restoreAllMocks());

describe("accord simulator --llm", () => {
  it("validates its options", async () => {
    await expect(run(["--llm", "--faults", "rate-limit:2"])).rejects.toThrow(/--faults: "rate-limit:2": a fraction/);
    await expect(run(["--llm", "--faults", "meteor:0.1"])).rejects.toThrow(/unknown fault "meteor:0.1"/);
    await expect(run(["--llm", "--prolific"])).rejects.toBeInstanceOf(CliError);
    await expect(run(["--llm", "--truth", "/nonexistent/truth.csv"])).rejects.toThrow(/--truth/);
    await expect(run(["--llm", "--port", "x"])).rejects.toThrow(/--port/);
  });

  it("serves chat completions labelled by the truth file until interrupted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "llmsim-cli-"));
    const truthFile = join(dir, "truth.csv");
    writeFileSync(truthFile, 'text,label\n"Water rising, leave now",caution\n');
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const done = run(["--llm", "--port", "0", "--seed", "3", "--key", "k3y", "--model", "m1,m2", "--truth", truthFile]);
    let url: string | undefined;
    for (let i = 0; i < 200 && !url; i++) {
      url = /listening on (http:\/\/\S+)/.exec(lines.join(""))?.[1];
      if (!url) await new Promise((r) => setTimeout(r, 25));
    }
    expect(lines.join("")).toMatch(/^LLM simulator listening on http:\/\/127\.0\.0\.1:\d+ \(seed 3, models m1, m2, 1 known tweets\)\nopenai: new OpenAI\(\{ baseURL: "http:\/\/127\.0\.0\.1:\d+\/v1", apiKey: "k3y" \}\)\n/);
    const models = await fetch(`${url}/v1/models`, { headers: { authorization: "Bearer k3y" } });
    expect(((await models.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id)).toEqual(["m1", "m2"]);
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer k3y", "content-type": "application/json" },
      body: JSON.stringify({
        model: "m2",
        temperature: 0,
        messages: [{ role: "user", content: `Labels: ["caution","other"]\n${formatItemsBlock([{ id: "a", text: "Water rising, leave now" }])}` }],
      }),
    });
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    expect(JSON.parse(body.choices[0].message.content)).toEqual({ labels: [{ id: "a", label: expect.stringMatching(/^(caution|other)$/) as string }] });
    process.emit("SIGINT");
    expect(await done).toBe(0);
    expect(lines.join("")).toMatch(/LLM simulator stopped \(1 completions, \d+ tokens\)/);
  });
});
