import path from "node:path";

export const E2E_PORT = Number(process.env.E2E_PORT || 3210);
export const E2E_DATA_DIR = path.resolve(process.cwd(), ".tmp/e2e");
export const E2E_DB_URL = `file:${path.join(E2E_DATA_DIR, "accord.db")}`;
export const E2E_SIMULATOR_PORT = Number(process.env.E2E_SIMULATOR_PORT || 9410);
/** The app's embedded Prolific simulator (e2e/22-prolific.spec.ts). */
export const E2E_PROLIFIC_SIMULATOR_PORT = Number(process.env.E2E_PROLIFIC_SIMULATOR_PORT || 9511);
/** The app's embedded LLM simulator (e2e/33-llm-labels.spec.ts): the default language model endpoint's port. */
export const E2E_LLM_SIMULATOR_PORT = Number(process.env.E2E_LLM_SIMULATOR_PORT || 9612);
