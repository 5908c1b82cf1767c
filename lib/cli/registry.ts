import { registerCommand } from "./command-table";

// One line per command; each module is lib/cli/commands/<name>.ts exporting run(argv).
registerCommand("agreement", "agreement metrics of a judgments CSV (item,annotator,label)", () => import("./commands/agreement"));
registerCommand("campaign", "campaign simulate: a whole campaign against the in-process simulator", () => import("./commands/campaign"));
registerCommand("classify", "train / predict / eval a baseline tweet classifier", () => import("./commands/classify"));
registerCommand("dedupe", "exact near-duplicate detection (cosine of uni+bigram counts)", () => import("./commands/dedupe"));
registerCommand("export", "export agreed labels, HumAID splits, judgments or the audit log", () => import("./commands/export"));
registerCommand("import", "import tweets or gold into an event, printing the filtering funnel", () => import("./commands/import"));
registerCommand("llm", "llm label: label an event's tweets with a language model endpoint (OpenAI-compatible)", () => import("./commands/llm"));
registerCommand("migrate", "apply the database migrations (SQLite or PostgreSQL by DATABASE_URL)", () => import("./commands/migrate"));
registerCommand("replay", "replay an event's recorded work under a grid of other thresholds", () => import("./commands/replay"));
registerCommand("qualification", "build the qualification test XML (QuestionForm + AnswerKey) from gold", () => import("./commands/qualification"));
registerCommand("simulator", "run the local MTurk-compatible simulator with simulated workers (--prolific: the Prolific one with simulated participants; --llm: an OpenAI-compatible LLM)", () => import("./commands/simulator"));
registerCommand("worker", "run the background job runner and sync loop", () => import("./commands/worker"));
