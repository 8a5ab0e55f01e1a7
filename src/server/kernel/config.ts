/** Turns an `AuthConfig` into the resolved, checked form that every request uses. */
import type {
  Adapter,
  AdapterUser,
  AuthConfig,
  CredentialsConfig,
  EmailConfig,
  JWT,
  Logger,
  OAuthConfig,
  SessionOptions,
  WebAuthnConfig,
} from '../../core/types.js'
import { AuthError, configurationError } from '../../core/errors.js'
import { problemError, type Problem } from './problem.js'
import { absentMethods, codeKeeping, codeMethods, requiredAdapterMethods } from './adapter-methods.js'
import type { LatchkeyPlugin, ResolvedConfig, ResolvedProvider } from './types.js'
import type { CookieKey } from './cookies.js'
import { createLogger } from './logger.js'
import { TokenCache } from './token-cache.js'
import { resolveOriginRule } from './public-origin.js'
import { checkPluginMessages, resolvePageLanguages } from './page-language.js'
import { resolveRateLimit } from './rate-limit/config.js'
import { resolveTheme } from './theme.js'
import type { RateLimitActionSpec } from './rate-limit/rules.js'
import { kernelCookies } from './cookies.js'

export type { ResolvedConfig, ResolvedProvider, SessionBinding } from './types.js'

const day = 24 * 60 * 60

/**
 * `builtIn`: the plugins every instance has (latchkey.ts); the configuration's `plugins` and its
 * providers' join them. None leaves every provider without its sign-in method (unit tests).
 */
export function resolveConfig(config: AuthConfig, builtIn: readonly LatchkeyPlugin[] = []): ResolvedConfig {
  if (!config || typeof config !== 'object') throw configurationError('latchkey: expected a configuration object')
  const logger = createLogger(config.logger)
  const secrets = readSecrets(config.secret)
  const basePath = normaliseBasePath(config.basePath ?? '/auth')
  const providers = new Map<string, ResolvedProvider>()
  for (const entry of config.providers ?? []) {
    // `providers: [GitHub]`, as Auth.js allows: called with no options, its fields come from the environment.
    const provider = (typeof entry === 'function' ? entry({}) : entry) as ResolvedProvider
    if (!provider || typeof provider.id !== 'string' || !/^[a-z0-9][a-z0-9_-]*$/i.test(provider.id)) {
      throw configurationError(`latchkey: a provider needs an id of letters, digits, "-" and "_", got ${JSON.stringify(provider?.id)}`)
    }
    if (providers.has(provider.id)) throw configurationError(`latchkey: two providers share the id "${provider.id}"`)
    providers.set(provider.id, provider)
  }
  const features = gatherPlugins(builtIn, config, providers)
  const strategy = config.session?.strategy ?? (config.adapter ? 'database' : 'jwt')
  if (strategy === 'database' && !config.adapter) {
    throw configurationError('latchkey: session.strategy "database" needs an adapter')
  }
  const maxAge = config.session?.maxAge ?? 30 * day
  const updateAge = config.session?.updateAge ?? day
  const freshAge = config.session?.freshAge ?? 3600
  if (!(freshAge >= 0)) throw configurationError(`latchkey: expected session.freshAge >= 0 seconds, got ${freshAge}`)
  if (!(maxAge > 0) || !(updateAge >= 0) || updateAge > maxAge) {
    throw configurationError(`latchkey: expected 0 <= session.updateAge <= session.maxAge and maxAge > 0, got maxAge ${maxAge}, updateAge ${updateAge}`)
  }
  const resolved: ResolvedConfig = {
    basePath,
    secrets,
    providers,
    session: { strategy, maxAge, updateAge, freshAge, generateSessionToken: config.session?.generateSessionToken },
    deviceBound: resolveDeviceBound(config.session?.deviceBound, strategy),
    adapter: config.adapter,
    callbacks: config.callbacks ?? {},
    events: config.events ?? {},
    pages: config.pages ?? {},
    redirectProxyUrl: config.redirectProxyUrl,
    trustedOrigins: new Set((config.trustedOrigins ?? []).map((o) => new URL(o).origin)),
    originRule: resolveOriginRule(config),
    useSecureCookies: config.useSecureCookies,
    maxBodySize: config.maxBodySize ?? 64 * 1024,
    pageLanguages: resolvePageLanguages(config, logger),
    theme: resolveTheme(config.theme),
    logger,
    now: config.now ?? Date.now,
    missingMethods: [],
    cookies: claimCookies(features),
    plugins: features,
    errorCodes: new Set(features.flatMap((f) => f.errorCodes ?? [])),
    methods: new Map(features.flatMap((f) => (f.method ? f.method.types.map((t) => [t, f.method!] as const) : []))),
    sessionPlugins: features.filter((f) => typeof f.sessionFields === 'function'),
    sessionTokens: new TokenCache(),
    // Features' per-instance state, by key (state.ts).
    state: new Map(),
    // Infrastructure, not a feature: every instance counts, whichever features it has.
    rateLimit: resolveRateLimit(config.rateLimit, config.adapter, registeredActions(features), logger),
  }
  for (const feature of features) feature.configure?.(config, resolved)
  if (builtIn.length) {
    for (const p of providers.values()) {
      const kind = (p as { kind?: string }).kind ?? p.type
      if (!resolved.methods.has(kind)) throw configurationError(`latchkey: provider "${p.id}" has ${kind === p.type ? 'type' : 'kind'} "${String(kind)}", which no sign-in method runs; expected one of ${[...resolved.methods.keys()].join(', ')}`)
    }
  }
  const required = requiredAdapterMethods(resolved)
  resolved.missingMethods = absentMethods(config.adapter, required)
  if (codeKeeping(config.adapter) === 'tokens' && codeMethods.some((m) => required.includes(m))) logger.warn(codesInTokensNote)
  if (resolved.missingMethods.length) {
    // A plugin with a schema brings its methods to the adapters made with it: say so, it is the usual miss.
    const missing = new Set(resolved.missingMethods)
    const bringers = features.filter((f) => f.schema && f.adapterMethods?.(resolved).some((m) => missing.has(m))).map((f) => `"${f.id}"`)
    const hint = bringers.length ? ` (make the adapter with plugin ${bringers.join(', ')}, whose schema adds methods: plugins: [...] in its options)` : ''
    logger.error(new AuthError('MissingAdapterMethods', `latchkey: the adapter lacks ${resolved.missingMethods.join(', ')}; sign-ins and routes that need them will fail${hint}`))
  }
  return resolved
}

/** Said once at start-up, where one-time codes are kept in verification tokens (kernel/codes-in-tokens.ts). */
export const codesInTokensNote =
  'CodesInVerificationTokens: the adapter has no createVerificationCode and useVerificationCode (Auth.js adapters have not), so one-time codes are kept in its verification tokens, ' +
  'their tries still counted; adding the two methods keeps one row per code instead of one per try, deletes a replaced code at once, says when the tries are spent, ' +
  'and, with deleteVerificationCodes, purges expired codes (docs/data.md#one-time-email-codes)'

/**
 * The built-in plugins, then the configuration's, then those its providers bring, each once. Two
 * different plugins under one id are refused: what they register would be told apart by id only.
 */
function gatherPlugins(builtIn: readonly LatchkeyPlugin[], config: AuthConfig, providers: Map<string, ResolvedProvider>): LatchkeyPlugin[] {
  const given = config.plugins ?? []
  if (!Array.isArray(given)) throw configurationError('latchkey: expected plugins to be a list of plugins')
  const brought = [...providers.values()].flatMap((p) => ((p as { plugin?: unknown }).plugin ? [(p as { plugin: unknown }).plugin] : []))
  const byId = new Map<string, LatchkeyPlugin>()
  for (const plugin of [...builtIn, ...given, ...brought] as LatchkeyPlugin[]) {
    if (!plugin || typeof plugin !== 'object' || typeof plugin.id !== 'string' || !/^[a-z0-9][a-z0-9-]*$/i.test(plugin.id)) {
      throw configurationError(`latchkey: a plugin needs an id of letters, digits and "-", got ${JSON.stringify((plugin as { id?: unknown } | undefined)?.id)}`)
    }
    if (plugin.uses && !plugin.uses(config, providers)) continue
    const held = byId.get(plugin.id)
    if (held && held !== plugin) throw configurationError(`latchkey: two different plugins have the id "${plugin.id}"; list each plugin once`)
    if (!held) checkPluginMessages(plugin)
    byId.set(plugin.id, plugin)
  }
  return [...byId.values()]
}

/** The rate-limited actions the plugins register, each by one plugin. */
function registeredActions(plugins: readonly LatchkeyPlugin[]): Record<string, RateLimitActionSpec> {
  const actions: Record<string, RateLimitActionSpec> = {}
  const owners = new Map<string, string>()
  for (const plugin of plugins) {
    for (const [action, spec] of Object.entries(plugin.rateLimits ?? {})) {
      const held = owners.get(action)
      if (held) throw configurationError(`latchkey: plugins "${held}" and "${plugin.id}" both register the rate-limited action "${action}"; give one of them another name`)
      owners.set(action, plugin.id)
      actions[action] = spec
    }
  }
  return actions
}

/** The instance's cookies, by name: each declared once, none of them the kernel's own. */
function claimCookies(features: readonly LatchkeyPlugin[]): ResolvedConfig['cookies'] {
  const claimed = new Map<string, { key: CookieKey; owner: string }>()
  const kernel = new Set<string>(Object.values(kernelCookies))
  for (const feature of features) {
    for (const key of feature.cookies ?? []) {
      if (kernel.has(key.name)) throw configurationError(`latchkey: plugin "${feature.id}" declares the cookie latchkey.${key.name}, which is the kernel's own; give the plugin's cookie another name`)
      const held = claimed.get(key.name)
      if (held) throw configurationError(`latchkey: plugins "${held.owner}" and "${feature.id}" both declare the cookie latchkey.${key.name}; each cookie has one owner, so give one of them another name`)
      claimed.set(key.name, { key, owner: feature.id })
    }
  }
  return claimed
}

/** The shortest secret latchkey signs with, in characters: the start-up check and `latchkey doctor` both read it. */
export const MIN_SECRET_LENGTH = 16

const makeOne = 'npx latchkey secret writes one into .env, or: openssl rand -base64 33'

/** The secrets `secret` (else AUTH_SECRET in `env`) gives, and what is wrong with them: none given, or one too short. */
export function checkSecrets(secret: AuthConfig['secret'], env: Record<string, string | undefined>): { secrets: string[]; problem?: Problem } {
  const given = secret ?? env.AUTH_SECRET
  const secrets = (Array.isArray(given) ? given : [given]).filter((s): s is string => typeof s === 'string' && s.length > 0)
  if (!secrets.length) {
    return { secrets, problem: { code: 'MissingSecret', what: 'a secret is required: without one latchkey cannot sign or encrypt its cookies.', fix: `Set \`secret\` in the configuration or AUTH_SECRET in the environment (${makeOne}).` } }
  }
  const short = secrets.find((s) => s.length < MIN_SECRET_LENGTH)
  if (short !== undefined) {
    return {
      secrets,
      problem: {
        code: 'WeakSecret',
        what: `a secret of ${short.length} characters is too short to sign and encrypt with; each secret must be at least ${MIN_SECRET_LENGTH} characters long.`,
        fix: `Use a random one (${makeOne}).`,
      },
    }
  }
  return { secrets }
}

function readSecrets(secret: AuthConfig['secret']): string[] {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {}
  const { secrets, problem } = checkSecrets(secret, env)
  if (problem) throw problemError(problem)
  return secrets
}

function normaliseBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  if (!trimmed.startsWith('/')) throw configurationError(`latchkey: basePath must start with "/", got ${JSON.stringify(path)}`)
  return trimmed
}

function resolveDeviceBound(option: SessionOptions['deviceBound'], strategy: 'jwt' | 'database'): ResolvedConfig['deviceBound'] {
  if (!option) return null
  if (strategy !== 'database') throw configurationError('latchkey: session.deviceBound needs the database session strategy (an adapter)')
  const given = option === true ? {} : option
  const cookieMaxAge = given.cookieMaxAge ?? 600
  if (!(cookieMaxAge >= 10)) throw configurationError(`latchkey: expected session.deviceBound.cookieMaxAge >= 10 seconds, got ${cookieMaxAge}`)
  return { cookieMaxAge, requireFor: given.requireFor }
}
