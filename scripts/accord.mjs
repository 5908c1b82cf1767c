#!/usr/bin/env node
// The `accord` command (package.json "bin"). It runs the TypeScript CLI in lib/cli through tsx,
// so the CLI and the web app share one lib/ without a separate build step.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
register({ tsconfig: path.join(root, "tsconfig.json") });
const { main } = await import(pathToFileURL(path.join(root, "lib/cli/main.ts")).href);
process.exitCode = await main(process.argv.slice(2));
