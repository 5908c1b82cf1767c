import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // Tests run server modules outside React's server environment.
      "server-only": fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url)),
    },
  },
  test: {
    include: ["lib/**/*.test.ts", "components/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    globalSetup: ["./scripts/test-global-setup.ts"],
    // Timeouts catch a hang, not slowness: on two shared cores under load (2 busy loops + other work, load 15-19) the
    // heavier integration tests ran 60-90 s where they take 5-15 s idle. CI's own limit is 90 minutes.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  },
});
