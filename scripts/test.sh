#!/usr/bin/env bash
# `npm test`: lint, type check, unit and integration tests (Vitest; SQLite, plus PostgreSQL when DATABASE_URL_PG is set),
# then Playwright end-to-end tests in Debian's Chromium against the built app.
set -euo pipefail
cd "$(dirname "$0")/.."
export AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true NEXT_TELEMETRY_DISABLED=1

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "accord test: installing Debian's Chromium for the browser tests (apt-get install chromium)…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "accord test: the browser tests need Chromium at $CHROMIUM." >&2
    echo "  Install it with: sudo apt-get install -y chromium   (or set CHROMIUM_PATH to a Chromium binary)" >&2
    exit 1
  fi
fi

[ -f generated/sqlite/client.ts ] && [ -f generated/postgres/client.ts ] || node scripts/prisma-generate.mjs

if [ -n "${DATABASE_URL_PG:-}" ]; then echo "accord test: PostgreSQL integration tests on $DATABASE_URL_PG"; else echo "accord test: DATABASE_URL_PG not set: integration tests on SQLite only"; fi

echo "== lint (ESLint)"
npx eslint .

echo "== type check"
npx tsc --noEmit -p .

echo "== unit and integration tests (Vitest)"
npx vitest run

echo "== end-to-end tests (Playwright + Chromium)"
node scripts/build-if-needed.mjs
npx playwright test
