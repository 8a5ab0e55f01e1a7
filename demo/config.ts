/** The demo's settings, from the environment. Every one has a default that works on a laptop. */
import { join, resolve } from 'node:path'

/** Set by demo/start.mjs, which runs the demo as a bundle in .latchkey/node/; unset under tsx. */
declare const __DEMO_DIR__: string | undefined
declare const __DEMO_BUNDLE__: string | undefined
const demoDir = typeof __DEMO_DIR__ === 'string' ? __DEMO_DIR__ : import.meta.dirname
const bundle = typeof __DEMO_BUNDLE__ === 'string' ? __DEMO_BUNDLE__ : undefined

const root = resolve(demoDir, '..')
const port = Number(process.env.PORT ?? 3000)
const dataDir = resolve(process.env.LATCHKEY_DATA_DIR ?? join(root, '.latchkey'))

export const settings = {
  root,
  port,
  idpPort: Number(process.env.IDP_PORT ?? 3001),
  /** localhost, not 127.0.0.1: a secure context (service worker) and the passkeys' RP ID. */
  origin: process.env.ORIGIN ?? `http://localhost:${port}`,
  /** Where the data lives: the embedded database in `<dataDir>/db` (unless DATABASE_URL is set). */
  dataDir,
  databaseUrl: process.env.DATABASE_URL || undefined,
  /** The built browser files (SPA, drop-in script, worker); rebuilt only when their sources change. */
  buildDir: join(root, '.latchkey', 'build'),
  /** The Demo IdP's process: the bundle run by plain Node, or the source under tsx (the same loader as this process). */
  idpProcess: bundle ? { entry: join(bundle, 'idp-process.mjs'), execArgv: [] as string[] } : { entry: join(demoDir, 'idp-process.ts'), execArgv: process.execArgv },
  secret: process.env.AUTH_SECRET ?? 'latchkey-demo-secret-not-for-production',
  smtpUrl: process.env.SMTP_URL || undefined,
  smtpFrom: process.env.SMTP_FROM ?? 'latchkey demo <demo@localhost>',
  /** The breached-password range API for sign-ups: a mirror's URL, or `off`. Default: the public one. */
  breachedPasswords: process.env.BREACHED_PASSWORDS_URL || undefined,
  /** Short on purpose, so the session panel shows the worker refreshing: one hour, extended every minute. */
  session: { maxAge: Number(process.env.SESSION_MAX_AGE ?? 3600), updateAge: Number(process.env.SESSION_UPDATE_AGE ?? 60) },
  idpClient: { client_id: 'latchkey-demo', client_secret: 'latchkey-demo-secret' },
}

export type Settings = typeof settings
