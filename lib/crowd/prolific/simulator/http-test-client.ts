import type { RunningProlificSimulator } from "./server";

/** Tests' outside view of the simulator: plain fetch to /api/v1/..., as a third-party Prolific client calls it. */
export type ApiAnswer = { status: number; json: unknown; headers: Headers };

export function httpClient(sim: RunningProlificSimulator, token = sim.token) {
  return async function api(method: string, path: string, body?: unknown): Promise<ApiAnswer> {
    const res = await fetch(`${sim.apiUrl}${path}`, {
      method,
      headers: { authorization: `Token ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined, headers: res.headers };
  };
}

/** A draft study body with only the documented required fields (and `overrides`). */
export function draftBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Label tweets",
    description: "Choose the category of each tweet.",
    external_study_url: "https://example.org/task?pid={{%PROLIFIC_PID%}}&study={{%STUDY_ID%}}&sub={{%SESSION_ID%}}",
    prolific_id_option: "url_parameters",
    completion_codes: [{ code: "DONE1234", code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] }],
    total_available_places: 3,
    estimated_completion_time: 15,
    maximum_allowed_time: 45,
    reward: 300,
    filters: [],
    ...overrides,
  };
}
