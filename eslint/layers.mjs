// The layers of the code and the lint rule that keeps dependencies pointing one way:
// app → components → lib features → lib platform. A file may import its own layer and the layers below it, never
// a layer above (import/no-restricted-paths, from eslint-plugin-import as eslint-config-next registers it).
// lib/layers-lint.test.ts checks that every top-level lib folder is named here and that an upward import fails.
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: the rule's paths are relative to it, whatever the working directory. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The layers, highest first. */
export const LAYER_ORDER = ["app", "components", "feature", "platform"];

/** Every top-level folder (and shared file) of lib/ with its layer. A new folder is added here (a test fails otherwise). */
export const LAYERS = {
  // lib features: the product's domains; they may import each other and the platform.
  "lib/actions": "feature", // server actions: auth, zod, call a domain function
  "lib/analysis": "feature", // an event's agreement, analysis job, comparison, replay of recorded work
  "lib/campaign": "feature", // qualification, publish, estimate, ledger, the sync loop
  "lib/classify": "feature", // the baseline tweet classifier
  "lib/cli": "feature", // the `accord` command (an entry point, built into dist/cli)
  "lib/demo": "feature", // the demo's seed data
  "lib/events": "feature", // the event pages' loaders, event writes and settings
  "lib/export": "feature", // dataset exports
  "lib/gold": "feature", // gold tweets: marking, pool, requests and jobs, health, the gold rule's risk
  "lib/ingest": "feature", // upload, parsing, filters, near-duplicates
  "lib/jobs": "feature", // recorded background jobs and the registry of every job type
  "lib/llm-compare": "feature", // the LLM against the crowd on an event, and the LLM-echo test of its workers
  "lib/models": "feature", // classifier models
  "lib/startup": "feature", // the server process's start: background work, the local simulators, the demo
  "lib/task": "feature", // the in-house and Prolific participant pages' domain
  // lib platform: what the features stand on; imports only the platform.
  "lib/audit": "platform", // the audit log writer
  "lib/auth": "platform", // passwords, sessions, roles, accounts
  "lib/config": "platform", // env() and its schema
  "lib/crowd": "platform", // crowd adapters and simulators, each crowd in its own folder
  "lib/db": "platform", // the Prisma client, bulk writers, enums, SQL helpers
  "lib/errors.ts": "platform", // the error contract (UserError)
  "lib/labels": "platform", // label sets (HumAID), label schemes and label names
  "lib/live": "platform", // the live-update bus (in-process emitter, LISTEN/NOTIFY)
  "lib/metrics": "platform", // agreement and aggregation maths, pure
  "lib/procedure": "platform", // the HumAID rules as pure functions
  "lib/secrets": "platform", // the master secret and derived keys
  "lib/server": "platform", // request guards, security headers, private files, bounded form reading, the worker link
  "lib/text": "platform", // display formatting (numbers, money, dates, text)
  "lib/timed-test-code.ts": "platform", // the timed-test scanner used by lib/no-timed-tests.test.ts
  "lib/util": "platform", // clock, random, small pure helpers
  "lib/validation": "platform", // form field parsers shared by the zod schemas
};

/** The layers outside lib/. Scripts and e2e tests are entry points like the app: nothing imports them. */
export const OUTSIDE = {
  app: "app",
  "instrumentation.ts": "app",
  "proxy.ts": "app",
  scripts: "app",
  e2e: "app",
  components: "components",
};

/**
 * Upward imports that are allowed, each for one importing file: { file, imports: [paths], reason }. Keep this list
 * short; move the shared piece down instead where that is possible.
 */
export const EXCEPTIONS = [
  {
    file: "lib/config/startup.test.ts",
    imports: ["instrumentation.ts"],
    reason: "checks that every entry point, the Next server's register() too, stops on a bad variable",
  },
];

/** The layer of a repository path (relative, forward slashes), or null for a file outside the layers. */
export function layerOf(rel) {
  const all = { ...OUTSIDE, ...LAYERS };
  const key = Object.keys(all).find((k) => rel === k || rel.startsWith(`${k}/`));
  return key ? all[key] : null;
}

const pathsIn = (layer) => Object.entries({ ...OUTSIDE, ...LAYERS }).filter(([, l]) => l === layer).map(([p]) => `./${p}`);

/** The rule's zones: each layer's files may not import a path of a higher layer, except `allowed` ({ imports: [paths] }). */
export function layerZones(allowed = []) {
  const zones = [];
  LAYER_ORDER.forEach((layer, i) => {
    const target = pathsIn(layer);
    for (const higher of LAYER_ORDER.slice(0, i)) {
      for (const from of pathsIn(higher)) {
        const inside = allowed
          .flatMap((a) => a.imports)
          .map((imported) => path.relative(from, `./${imported}`))
          .filter((rel) => !rel.startsWith(".."));
        if (inside.includes("")) continue; // the whole of `from` is allowed (a file such as instrumentation.ts)
        const except = inside.map((rel) => `./${rel}`);
        const message = `Layers point one way (app → components → lib features → lib platform): ${layer} may not import ${higher} (see eslint/layers.mjs).`;
        zones.push({ target, from, ...(except.length > 0 ? { except } : {}), message });
      }
    }
  });
  return zones;
}

const RULE = "import/no-restricted-paths";

/** The flat-config entries: the rule on every file, then one entry per excepted file with its allowance. */
const layersConfig = [
  { files: ["**/*.{ts,tsx,mts,mjs,js}"], rules: { [RULE]: ["error", { basePath: ROOT, zones: layerZones() }] } },
  ...EXCEPTIONS.map((ex) => ({
    files: [ex.file],
    rules: { [RULE]: ["error", { basePath: ROOT, zones: layerZones(EXCEPTIONS.filter((e) => e.file === ex.file)) }] },
  })),
];

export default layersConfig;
