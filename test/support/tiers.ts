/**
 * Which tier (vitest project) each test file runs in. The rule, from what a file starts:
 * - slow: it installs the package (npm pack, a git URL), runs another runtime, or runs for a set
 *   time (fuzz, soak); only `npm test` and CI run it. This wins over browser.
 * - browser: it starts a browser (Chromium, Firefox, WebKit), whether or not it also starts a server.
 * - http: it starts a server (the app's, an IdP, SMTP, a range server), a process or a database
 *   (PGlite, PostgreSQL, Redis).
 * - unit: none of these; it calls the handler, the kernel or the client in process.
 * A folder names its files' tier; a file named here overrides its folder. test/tiers.test.ts
 * fails when a file has no tier, or when its source shows a browser, a server or a database that
 * its tier does not allow.
 */
import { readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

export const tierNames = ['unit', 'http', 'browser', 'slow'] as const
export type Tier = (typeof tierNames)[number]

const folders: Record<string, Tier> = {
  'test/adapters/': 'http',
  'test/bindings/': 'unit',
  'test/client/': 'unit',
  'test/core/': 'unit',
  'test/dbsc/': 'http',
  'test/e2e/': 'browser',
  'test/examples/': 'http',
  'test/hardening/': 'slow',
  'test/integration/': 'http',
  'test/migrate/': 'unit',
  'test/node/': 'http',
  'test/oauth/': 'http',
  'test/package/': 'slow',
  'test/plugins/': 'http',
  'test/providers/': 'unit',
  'test/rate-limit/': 'unit',
  'test/runtimes/': 'slow',
  'test/server/': 'unit',
  'test/webauthn/': 'browser',
}

const files: Record<string, Tier> = {
  'test/tiers.test.ts': 'unit',
  'test/adapters/env-file.test.ts': 'unit',
  'test/adapters/memory.test.ts': 'unit',
  'test/adapters/store-outage.test.ts': 'unit',
  'test/bindings/react-stale.test.ts': 'browser',
  'test/dbsc/proof.test.ts': 'unit',
  'test/examples/demo-notice.test.ts': 'unit',
  'test/hardening/races.test.ts': 'http',
  'test/integration/cluster.test.ts': 'slow',
  'test/integration/database-outage.test.ts': 'slow',
  'test/integration/graceful-shutdown.test.ts': 'slow',
  'test/migrate/authjs-adapter-as-is.test.ts': 'http',
  'test/migrate/authjs-browser.test.ts': 'browser',
  'test/migrate/authjs-database.test.ts': 'http',
  'test/node/incoming.test.ts': 'unit',
  'test/oauth/checks.test.ts': 'unit',
  'test/oauth/profile.test.ts': 'unit',
  'test/package/check-package.test.ts': 'unit',
  'test/plugins/contract.test.ts': 'unit',
  'test/plugins/oauth-server.test.ts': 'unit',
  'test/plugins/organizations-permissions.test.ts': 'unit',
  'test/plugins/oauth-server-attacks.test.ts': 'unit',
  'test/plugins/oauth-server-connected-apps.test.ts': 'unit',
  'test/plugins/oauth-server-device.test.ts': 'unit',
  'test/plugins/oauth-server-device-browser.test.ts': 'browser',
  'test/plugins/oauth-server-dpop.test.ts': 'unit',
  'test/plugins/scim-attacks.test.ts': 'unit',
  'test/plugins/scim-scimmy.test.ts': 'unit',
  'test/plugins/scim-lifecycle.test.ts': 'unit',
  'test/plugins/oauth-server-cors.test.ts': 'unit',
  'test/plugins/oauth-server-cors-browser.test.ts': 'browser',
  'test/plugins/oauth-server-dpop-jkt.test.ts': 'unit',
  'test/plugins/oauth-server-limits.test.ts': 'unit',
  'test/plugins/phone-browser.test.ts': 'browser',
  'test/providers/email.test.ts': 'http',
  'test/rate-limit/check.test.ts': 'http',
  'test/rate-limit/postgres.test.ts': 'http',
  'test/rate-limit/redis.test.ts': 'http',
  'test/rate-limit/redis-faults.test.ts': 'http',
  'test/server/access-token.test.ts': 'http',
  'test/server/app-session.test.ts': 'http',
  'test/server/first-proof.test.ts': 'http',
  'test/server/fresh-session.test.ts': 'http',
  'test/server/password-breached.test.ts': 'http',
  'test/server/password-sender.test.ts': 'http',
  'test/server/password.test.ts': 'http',
  'test/server/session-adapters.test.ts': 'http',
  'test/server/sessions-route.test.ts': 'http',
  'test/server/trusted-origin.test.ts': 'http',
}

/**
 * The files that take longest, longest first (measured in one run of the whole suite, 2026-11-27;
 * the package installs by their set-up). Each tier starts them first: one started last would run
 * on alone at the tier's end.
 */
export const longest = [
  'test/package/git-install.test.ts',
  'test/package/fresh-react-app.test.ts',
  'test/e2e/a11y.test.ts',
  'test/e2e/demo.test.ts',
  'test/e2e/demo-accounts.test.ts',
  'test/server/password.test.ts',
  'test/server/session-adapters.test.ts',
  'test/e2e/engines.test.ts',
  'test/e2e/session-loss.test.ts',
  'test/e2e/password.test.ts',
  'test/adapters/embedded-lock.test.ts',
  'test/e2e/mfa.test.ts',
  'test/e2e/profile.test.ts',
  'test/package/typed-elements.test.ts',
  'test/package/installed.test.ts',
  'test/e2e/tabs.test.ts',
  'test/runtimes/guide.test.ts',
  'test/runtimes/runtimes.test.ts',
  'test/integration/cluster.test.ts',
  'test/e2e/languages.test.ts',
  'test/dbsc/store-growth.test.ts',
  'test/package/docs-types.test.ts',
  'test/e2e/sign-in.test.ts',
  'test/e2e/app-worker.test.ts',
  'test/plugins/phone.test.ts',
  'test/dbsc/protocol.test.ts',
  'test/oauth/stale-link.test.ts',
  'test/hardening/soak.test.ts',
  'test/adapters/cli.test.ts',
  'test/hardening/fuzz.test.ts',
]

/** The tier of a test file (a path relative to the repository, with `/`); undefined: none. */
export function tierOf(file: string): Tier | undefined {
  if (files[file]) return files[file]
  const folder = Object.keys(folders).find((prefix) => file.startsWith(prefix))
  return folder ? folders[folder] : undefined
}

export const root = join(import.meta.dirname, '../..')

/** Every test file under test/, relative to the repository. */
export function testFiles(): string[] {
  return readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts') && !file.split(sep).includes('node_modules'))
    .map((file) => relative(root, join(root, 'test', file)).split(sep).join('/'))
    .sort()
}

/** The test files of one tier. */
export const filesOf = (tier: Tier) => testFiles().filter((file) => tierOf(file) === tier)

/** Entries that name no existing file (a renamed or deleted test). */
export const staleEntries = () => [...Object.keys(files), ...longest].filter((file) => !testFiles().includes(file))
