/**
 * `latchkey doctor --config <module>`: reads the app's configuration (the object it passes to
 * `Latchkey`, exported as `default` or `config` from a module) and says what is missing or unsafe
 * for production, with the fix for each. Errors make the exit status 1; warnings alone leave it 0.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AuthConfig, EmailConfig } from '../src/core/types.js'
import type { PasswordOptions } from '../src/providers/password.js'
import { resolveConfig } from '../src/server/kernel/config.js'
import { features } from '../src/server/features/index.js'

export interface Finding {
  level: 'error' | 'warning'
  what: string
  fix: string
}

const day = 86400_000
const silent = { error: () => {}, warn: () => {}, debug: () => {} }
const isLoopback = (host: string) => host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]'

const hostOf = (origin: string) => {
  try {
    return new URL(origin).host
  } catch {
    return undefined
  }
}

/** What is missing or unsafe in `config` for production, given the environment and the clock (ms). */
export function checkConfig(config: AuthConfig, env: Record<string, string | undefined>, now: number): Finding[] {
  const found: Finding[] = []
  const error = (what: string, fix: string) => found.push({ level: 'error', what, fix })
  const warning = (what: string, fix: string) => found.push({ level: 'warning', what, fix })

  const secrets = [config.secret ?? env.AUTH_SECRET].flat().filter((s): s is string => typeof s === 'string' && s !== '')
  if (!secrets.length) error('No secret: latchkey cannot sign or encrypt its cookies.', 'Set AUTH_SECRET (npx latchkey secret writes one into .env) or `secret`.')
  else if (secrets.some((s) => s.length < 32)) error('A secret is shorter than 32 characters: too short to rely on.', 'Use 32 or more random characters: npx latchkey secret (or openssl rand -base64 33).')

  const origins = [config.origin ?? env.AUTH_URL].flat().filter((o): o is string => typeof o === 'string' && o !== '')
  const trustHost = config.trustHost ?? /^(1|true)$/i.test(env.AUTH_TRUST_HOST ?? '')
  if (!origins.length && !trustHost) {
    error('No origin: links, redirects and passkeys have no trusted public origin, and a production start is refused.', "Set `origin: 'https://app.example.com'` (or AUTH_URL); `trustHost: true` only where the platform sets Host itself.")
  }
  for (const origin of origins) {
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      error(`The origin ${JSON.stringify(origin)} is not a URL.`, "Write it as scheme and host: 'https://app.example.com'.")
      continue
    }
    if (url.protocol !== 'https:' && !isLoopback(url.hostname)) error(`The origin ${url.origin} is not https: cookies would travel without Secure.`, `Serve the app over https and set origin to https://${url.host}.`)
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

  try {
    const resolved = resolveConfig({ ...config, secret: secrets.length ? secrets : 'x'.repeat(32), trustHost: true, logger: silent }, features)
    for (const method of resolved.missingMethods) error(`The adapter lacks ${method}, which the configured sign-in and sessions need.`, `Add ${method} to the adapter, or use one that has it (latchkey's openDatabase has them all).`)
  } catch (cause) {
    error(`The configuration does not start: ${(cause as Error).message}`, 'Fix what the message names.')
  }
  return found
}

/** Loads the configuration module: its `default` or `config` export. */
export async function loadConfig(path: string): Promise<AuthConfig> {
  const module = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>
  const config = (module.config ?? module.default) as unknown
  if (typeof config === 'function' && 'getSession' in config) {
    throw new Error(`${path} exports a Latchkey handler; export the configuration object you pass to Latchkey (export const config = { … })`)
  }
  if (!config || typeof config !== 'object' || !Array.isArray((config as AuthConfig).providers)) {
    throw new Error(`${path} exports no configuration: expected \`export const config\` or \`export default\` of the object passed to Latchkey, with its providers`)
  }
  return config as AuthConfig
}

/** Prints every finding with its fix; 1 when any is an error. */
export async function doctorCommand(path: string | undefined, io: { out(line: string): void; err(line: string): void; env: Record<string, string | undefined> }, now = Date.now()): Promise<number> {
  if (!path) {
    io.err('latchkey doctor: expected --config <module>, a module exporting the configuration passed to Latchkey')
    return 2
  }
  let config: AuthConfig
  try {
    config = await loadConfig(path)
  } catch (cause) {
    io.err(`latchkey doctor: could not read ${path}: ${(cause as Error).message}`)
    return 1
  }
  const found = checkConfig(config, io.env, now)
  for (const f of found) {
    io.out(`${f.level === 'error' ? 'error  ' : 'warning'} ${f.what}`)
    io.out(`        fix: ${f.fix}`)
  }
  const errors = found.filter((f) => f.level === 'error').length
  io.out(found.length ? `${errors} error(s), ${found.length - errors} warning(s).` : 'No problems found.')
  return errors ? 1 : 0
}
