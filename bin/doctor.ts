/**
 * `latchkey doctor <module>`: imports the app's server module (or a module exporting the
 * configuration it passes to `Latchkey`) and says, for each Latchkey instance, what is missing or
 * unsafe for production, with the fix. The checks the server makes at start-up are the server's
 * own functions, called here; NODE_ENV=production makes what is only fine while developing (a
 * loopback origin, the memory adapter) an error. Errors make the exit status 1; warnings alone
 * leave it 0. docs/cli.md says how it loads the module.
 */
import type { AuthConfig, EmailConfig } from '../src/core/types.js'
import { inMemory } from '../src/adapters/memory.js'
import type { PasswordOptions } from '../src/providers/password.js'
import { checkSecrets, MIN_SECRET_LENGTH, resolveConfig, type ResolvedConfig } from '../src/server/kernel/config.js'
import { isLoopback, noTrustedOrigin, originSettings } from '../src/server/kernel/public-origin.js'
import { clientAddressSource } from '../src/server/kernel/rate-limit/client-address.js'
import { instanceParts } from '../src/server/latchkey.js'
import { loadApp, type LoadedApp } from './load-app.js'

export interface Finding {
  level: 'error' | 'warning'
  what: string
  fix: string
}

/**
 * How requests reach an instance, where doctor saw it created: 'node' when the node binding
 * (toNodeHandler) took it, 'web' when it is called with Web Requests; undefined for a module that
 * only exports a configuration.
 */
export type Served = 'node' | 'web' | undefined

const day = 86400_000
const silent = { error: () => {}, warn: () => {}, debug: () => {} }
const sentence = (text: string) => text[0]!.toUpperCase() + text.slice(1)

const hostOf = (origin: string) => {
  try {
    return new URL(origin).host
  } catch {
    return undefined
  }
}

/** What is missing or unsafe in `config` for production, given the environment and the clock (ms). */
export function checkConfig(config: AuthConfig, env: Record<string, string | undefined>, now: number, served?: Served): Finding[] {
  const found: Finding[] = []
  const error = (what: string, fix: string) => found.push({ level: 'error', what, fix })
  const warning = (what: string, fix: string) => found.push({ level: 'warning', what, fix })
  const production = env.NODE_ENV === 'production'
  /** An error in production, a warning elsewhere: right while developing, wrong once deployed. */
  const notInProduction = production ? error : warning
  const asDeployed = production ? '' : ' Fine while developing; with NODE_ENV=production this is an error.'

  const { secrets, problem } = checkSecrets(config.secret, env)
  if (problem) error(sentence(problem.what), problem.fix)

  let origins: string[] = []
  let trustHost = false
  try {
    ;({ origins, trustHost } = originSettings(config, env))
  } catch {
    // An origin that is no URL: resolveConfig below throws the same and it is reported there.
  }
  if (!origins.length && !trustHost) error(sentence(noTrustedOrigin.what), noTrustedOrigin.fix)
  for (const origin of origins) {
    const url = new URL(origin)
    if (isLoopback(url.host)) {
      notInProduction(`The origin ${origin} is this machine: links, redirects and passkeys would point at each visitor's own computer.${asDeployed}`, "Set `origin` (or AUTH_URL) to the app's public https origin, for example https://app.example.com.")
    } else if (url.protocol !== 'https:') {
      error(`The origin ${origin} is not https: cookies would travel without Secure.`, `Serve the app over https and set origin to https://${url.host}.`)
    }
  }

  if ((config.adapter as { [inMemory]?: boolean } | undefined)?.[inMemory]) {
    notInProduction(
      `The adapter is a MemoryAdapter: users, accounts and sessions live in this process only, lost at every restart and unseen by a second server.${asDeployed}`,
      "Use openDatabase() from latchkey/adapters/postgres: the embedded database on one machine, DATABASE_URL for a PostgreSQL server.",
    )
  }

  for (const entry of config.providers ?? []) {
    const provider = (typeof entry === 'function' ? entry({}) : entry) as { id?: string; type?: string }
    if (provider?.type === 'email' && !(provider as EmailConfig).from) {
      error(`The email provider "${provider.id}" has no sender: its emails have no From address.`, `Set \`from: 'App <login@example.com>'\` on it, an address your mail service may send from.`)
    }
  }

  for (const entry of config.providers ?? []) {
    const provider = (typeof entry === 'function' ? entry({}) : entry) as { id?: string; kind?: string; options?: PasswordOptions }
    if (provider?.kind !== 'password') continue
    if (provider.options?.requireVerifiedEmail === false) {
      warning(
        `The password provider "${provider.id}" signs in unconfirmed addresses (requireVerifiedEmail: false): anyone can sign up with someone else's address and hold the account, and what they add to it, until its owner proves the address.`,
        'Remove `requireVerifiedEmail: false` (addresses are confirmed by their link or code by default).',
      )
    }
    if (provider.options?.breached === false) {
      warning(`The password provider "${provider.id}" accepts passwords known from breaches (breached: false): they are the first ones guessed.`, 'Remove `breached: false` (only five hex digits of a hash leave the server).')
    }
  }
  const sendsEmail = (config.providers ?? []).some((entry) => {
    const provider = (typeof entry === 'function' ? entry({}) : entry) as { type?: string; kind?: string }
    return provider?.type === 'email' || provider?.kind === 'password'
  })
  if (sendsEmail && !config.theme?.name) {
    const host = origins.length ? hostOf(origins[0]) : undefined
    warning(
      `The emails name the app by its host${host ? ` (${host})` : ''}: no theme.name is set.`,
      "Set `theme: { name: 'Your App' }`, and a logo and brandColor if you like (docs/configuration.md#theme).",
    )
  }

  const trusted = typeof config.mfa === 'object' ? config.mfa.trustDevices : undefined
  if (typeof trusted === 'number' && trusted > 90 * 86400) {
    warning(`A trusted device skips the second factor for ${Math.round(trusted / 86400)} days (mfa.trustDevices): over 90 days, a copied device cookie outlasts most reasons to ask again.`, 'Set mfa.trustDevices to 90 days (7776000) or less; the default is 30 days.')
  }

  if (config.rateLimit === false) warning('Rate limits are off: sign-in attempts and emails are unbounded.', 'Remove `rateLimit: false` (limits are on by default).')

  const old = config.migrateFrom?.authjs
  if (old) {
    const until = old.until instanceof Date ? old.until.getTime() : Date.parse(String(old.until))
    if (Number.isNaN(until)) error('migrateFrom.authjs.until is not a date.', 'Set it to the switch-over day plus Auth.js\'s session lifetime, as an ISO 8601 instant.')
    else if (until <= now) error(`The Auth.js migration window ended on ${new Date(until).toISOString()}: it reads nothing now, and keeps the old secret in the configuration.`, 'Remove migrateFrom.authjs and Auth.js\'s secret.')
    else if (until - now > 90 * day) warning(`The Auth.js migration window runs until ${new Date(until).toISOString()}, over 90 days away: longer than any Auth.js session lasts by default (30 days).`, 'End it at the switch-over day plus the longest session Auth.js gave (its session.maxAge).')
    const database = (config.session?.strategy ?? (config.adapter ? 'database' : 'jwt')) === 'database'
    if (database && config.adapter && typeof config.adapter.replaceSessionToken !== 'function') {
      warning('The adapter has no replaceSessionToken: Auth.js sessions are moved in two steps (copy, then delete), not one.', "Use latchkey's own adapter (openDatabase, PostgresAdapter), or add replaceSessionToken to yours (latchkey/adapter-test checks it).")
    }
  }

  let resolved: ResolvedConfig | undefined
  try {
    // The secret and the origin are checked above, with their fixes; the rest as the server starts.
    resolved = resolveConfig({ ...config, secret: problem ? 'x'.repeat(MIN_SECRET_LENGTH) : secrets, trustHost: true, logger: silent }, instanceParts)
    for (const method of resolved.missingMethods) error(`The adapter lacks ${method}, which the configured sign-in and sessions need.`, `Add ${method} to the adapter, or use one that has it (latchkey's openDatabase has them all).`)
  } catch (cause) {
    error(`The configuration does not start: ${(cause as Error).message}`, 'Fix what the message names.')
  }
  if (resolved) checkClientAddress(resolved, config, { production, trustHost, origins, served }, warning)
  return found
}

/**
 * Per-client rate limits count by the request's client address, from where clientAddressSource
 * says: warned when that cannot tell clients apart, as a Web handler without getClientAddress
 * (no address at all) or behind a proxy without trustProxy (every client at the proxy's address).
 */
function checkClientAddress(
  resolved: ResolvedConfig,
  config: AuthConfig,
  seen: { production: boolean; trustHost: boolean; origins: string[]; served: Served },
  warning: (what: string, fix: string) => void,
): void {
  const limits = resolved.rateLimit
  if (!limits || !Object.values(limits.rules).some((rules) => rules.some((rule) => rule.per !== 'account'))) return
  const options = config.rateLimit || {}
  if (clientAddressSource(options) !== 'socket') return
  if (seen.served === 'web') {
    warning(
      'Per-client rate limits do not apply: this instance is called with Web Requests (it was not handed to toNodeHandler from latchkey/node), and a Request carries no client address.',
      "Pass rateLimit.getClientAddress, (request) => the client's address as your runtime gives it (request.headers.get('cf-connecting-ip') on Cloudflare); behind proxies of yours, rateLimit.trustProxy reads X-Forwarded-For instead.",
    )
    return
  }
  // trustProxy: false says node takes the connections itself.
  if (options.trustProxy === false) return
  const https = seen.origins.some((origin) => origin.startsWith('https:') && !isLoopback(new URL(origin).host))
  const why = seen.trustHost ? 'trustHost is set, so a proxy or platform stands in front of the server' : seen.production && https ? 'the origin is https, and TLS usually ends at a proxy or load balancer in front of node' : undefined
  if (!why) return
  warning(
    `Per-client rate limits may not tell clients apart: ${why}, and without rateLimit.trustProxy every request counts as coming from the proxy's address, so one client's attempts hold back all the others.`,
    'Set rateLimit.trustProxy to the number of proxies of yours that append to X-Forwarded-For (1 for one load balancer), or true where your proxy replaces the header; or pass rateLimit.getClientAddress. If node takes the connections itself, set trustProxy: false to say so.',
  )
}

interface Io {
  out(line: string): void
  err(line: string): void
  env: Record<string, string | undefined>
}

/** A configuration the module exports as `config` or `default`, when it creates no instance. */
function exportedConfig(exports: Record<string, unknown>): AuthConfig | undefined {
  const config = (exports.config ?? exports.default) as AuthConfig | undefined
  return config && typeof config === 'object' && Array.isArray(config.providers) ? config : undefined
}

/** Loads the module, prints every finding with its fix, closes what the module opened; 1 when any finding is an error. */
export async function doctorCommand(target: string | undefined, io: Io, now = Date.now()): Promise<number> {
  if (!target) {
    io.err("latchkey doctor: expected a module: the app's server module (latchkey doctor ./server.js), or one exporting the configuration passed to Latchkey")
    return 2
  }
  let app: LoadedApp
  try {
    app = await loadApp(target)
  } catch (cause) {
    io.err(`latchkey doctor: could not load ${target}: ${(cause as Error).message}`)
    return 1
  }
  const exported = app.instances.length ? undefined : exportedConfig(app.exports)
  const checks = exported ? [{ config: exported, handler: true, served: undefined }] : app.instances.map((i) => ({ config: i.config, handler: i.handler !== undefined, served: i.handler === undefined ? undefined : i.nodeBinding ? ('node' as const) : ('web' as const) }))
  try {
    if (!checks.length) {
      io.err(
        app.failure
          ? `latchkey doctor: could not load ${target}: ${app.failure.message}`
          : `latchkey doctor: ${target} created no Latchkey instance while it loaded, and exports no configuration (\`export const config\` or \`export default\` of the object passed to Latchkey, with its providers). An app that creates its instance later, on the first request as on Workers, can export its configuration for doctor.`,
      )
      return 1
    }
    if (app.listened) io.err(`latchkey doctor: ${target} started ${app.listened === 1 ? 'a server' : `${app.listened} servers`}; doctor moved ${app.listened === 1 ? 'it' : 'them'} to a free loopback port and closes ${app.listened === 1 ? 'it' : 'them'} after the check.`)
    const all: Finding[] = []
    checks.forEach(({ config, served }, index) => {
      const found = checkConfig(config, io.env, now, served)
      if (checks.length > 1) io.out(`Latchkey instance ${index + 1} of ${checks.length} (basePath ${config.basePath ?? '/auth'}):`)
      print(found, io)
      all.push(...found)
    })
    // A failure of the last Latchkey(config) call is its configuration's, which the checks name; any other is said here.
    const last = checks.at(-1)!
    if (app.failure && (last.handler || !all.some((f) => f.level === 'error'))) {
      const failed: Finding = { level: 'error', what: `${target} failed while it loaded: ${app.failure.message}`, fix: 'Fix what the message names; the configuration created before the failure is checked above.' }
      print([failed], io)
      all.push(failed)
    }
    const errors = all.filter((f) => f.level === 'error').length
    io.out(all.length ? `${errors} error(s), ${all.length - errors} warning(s).` : 'No problems found.')
    return errors ? 1 : 0
  } finally {
    await closeApp(app, checks.map((c) => c.config))
  }
}

function print(found: Finding[], io: Io): void {
  for (const f of found) {
    io.out(`${f.level === 'error' ? 'error  ' : 'warning'} ${f.what}`)
    io.out(`        fix: ${f.fix}`)
  }
}

/**
 * Closes what importing the module opened and doctor can reach: its servers, and each adapter
 * with a `close` (openDatabase's: a pg pool would otherwise hold the process for its idle
 * timeout). The CLI exits after anyway, for what the module keeps out of reach.
 */
async function closeApp(app: LoadedApp, configs: AuthConfig[]): Promise<void> {
  const adapters = new Set(configs.map((c) => c.adapter as { close?: () => Promise<void> } | undefined))
  const closing = [...adapters].map(async (adapter) => (typeof adapter?.close === 'function' ? adapter.close() : undefined))
  let timer: NodeJS.Timeout | undefined
  const bound = new Promise((done) => (timer = setTimeout(done, 3000)))
  await Promise.race([Promise.allSettled([...closing, app.close()]), bound])
  clearTimeout(timer)
}
