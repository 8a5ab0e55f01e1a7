/**
 * The app's public origin: the one place that reads a request's Host (and, only under
 * `trustHost`, X-Forwarded-Host and X-Forwarded-Proto). Every absolute URL latchkey builds
 * (email links, OAuth `redirect_uri`, passkey relying parties, redirects) starts from it, so a
 * forged Host must never become one.
 */
import type { AuthConfig } from '../../core/types.js'
import { configurationError } from '../../core/errors.js'
import { problemError, type Problem } from './problem.js'
import type { Incoming, OriginRule } from './types.js'

export type { OriginRule } from './types.js'

/** The configured origins (`origin`, else AUTH_URL), parsed, and `trustHost` (else AUTH_TRUST_HOST). Throws on an origin that is no http(s) URL. */
export function originSettings(config: Pick<AuthConfig, 'origin' | 'trustHost'>, env: Record<string, string | undefined>): { origins: string[]; trustHost: boolean } {
  const given = config.origin ?? env.AUTH_URL
  const origins = (Array.isArray(given) ? given : given === undefined || given === '' ? [] : [given]).map(originOfSetting)
  return { origins, trustHost: config.trustHost ?? /^(1|true)$/i.test(env.AUTH_TRUST_HOST ?? '') }
}

/** Neither an origin nor `trustHost`: refused at a production start, named by `latchkey doctor`. */
export const noTrustedOrigin: Problem = {
  code: 'UntrustedHost',
  what: "no trusted origin: without one latchkey would build links from the request's Host header, which anyone can forge, so in production it refuses to start.",
  fix: 'Set `origin` (or AUTH_URL) to the app\'s public origin, for example "https://app.example.com"; on a platform that sets Host itself, set `trustHost: true` (or AUTH_TRUST_HOST=true) instead.',
}

/**
 * Reads `origin` (or `AUTH_URL`) and `trustHost` (or `AUTH_TRUST_HOST`). A production start
 * (`NODE_ENV=production`) with neither is refused: there, only loopback hosts would be answered.
 */
export function resolveOriginRule(config: Pick<AuthConfig, 'origin' | 'trustHost'>, env: Record<string, string | undefined> = processEnv()): OriginRule {
  const { origins, trustHost } = originSettings(config, env)
  if (!origins.length && !trustHost && env.NODE_ENV === 'production') throw problemError(noTrustedOrigin)
  const hosts = new Map<string, string>()
  for (const origin of origins) if (!hosts.has(hostOf(origin))) hosts.set(hostOf(origin), origin)
  return { hosts, first: origins[0], trustHost }
}

/**
 * The public origin for this request, or null when its Host is not trusted:
 * - a configured origin whose host is the request's, else the first configured origin when the
 *   Host is a loopback one (a proxy on the same machine) or `trustHost` is set;
 * - without configured origins: the forwarded or Host origin under `trustHost`, else the
 *   request's own origin only when its host is a loopback one (development).
 * X-Forwarded-* is never read unless `trustHost` is set and no origin is configured.
 */
export function publicOrigin(rule: OriginRule, incoming: Incoming): string | null {
  const own = incoming.origin
  const host = hostOf(own)
  if (rule.first !== undefined) {
    const matched = rule.hosts.get(host)
    if (matched !== undefined) return matched
    return rule.trustHost || isLoopback(host) ? rule.first : null
  }
  if (rule.trustHost) return forwardedOrigin(incoming) ?? own
  return isLoopback(host) ? own : null
}

/**
 * The refusal of a cross-origin call (an Origin that is neither `origin` nor trusted), in words
 * only: it decides nothing, and names the request's Origin only when that is a plain http(s)
 * origin. Where the request arrived under the page's own host (its Host or X-Forwarded-Host is the
 * Origin's: a proxy of the page's origin forwarded it), `origin` should be the page's URL; else
 * the fix is that or `trustedOrigins`, and a dev proxy (which sends the page to the server's own
 * URLs when `origin` is the server's) is the likelier of the two on one machine.
 */
export function crossOriginRefusal(incoming: Incoming, origin: string): string {
  const page = plainOrigin(incoming.header('origin'))
  if (!page) return `Cross-origin calls are allowed only from ${origin} and the configured trustedOrigins`
  const host = hostOf(page)
  const proxied = host === hostOf(incoming.origin) || host === firstValue(incoming.header('x-forwarded-host'))
  const setOrigin = `set origin (or AUTH_URL) to ${page}, the page's URL, so latchkey builds its URLs on the page's origin`
  if (proxied) return `The page at ${page} reaches latchkey through a proxy on its own origin, but origin is ${origin}, so latchkey's URLs send it to another origin: ${setOrigin}`
  return (
    `Cross-origin calls are allowed only from ${origin} and the configured trustedOrigins, and ${page} is neither. ` +
    `If the page at ${page} reaches latchkey through a proxy on its own origin (a dev server's proxy), ${setOrigin}; if it calls this server directly, add ${page} to trustedOrigins`
  )
}

/** `value` when it is a serialized http(s) origin of plain characters; else null. */
function plainOrigin(value: string | null): string | null {
  return value && /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/i.test(value) ? value.toLowerCase() : null
}

/** `proto://host` from the first X-Forwarded-Proto and X-Forwarded-Host values, when both parse as one origin. */
function forwardedOrigin(incoming: Incoming): string | null {
  const host = firstValue(incoming.header('x-forwarded-host'))
  const proto = firstValue(incoming.header('x-forwarded-proto'))
  if (!host && !proto) return null
  const scheme = proto ?? incoming.origin.slice(0, incoming.origin.indexOf(':'))
  if (scheme !== 'http' && scheme !== 'https') return null
  try {
    const url = new URL(`${scheme}://${host ?? hostOf(incoming.origin)}/`)
    return url.username || url.password || url.href !== `${url.origin}/` ? null : url.origin
  } catch {
    return null
  }
}

function firstValue(header: string | null): string | undefined {
  const value = header?.split(',')[0].trim()
  return value || undefined
}

/** `host[:port]` of a serialized origin. */
function hostOf(origin: string): string {
  const start = origin.indexOf('://')
  return start < 0 ? '' : origin.slice(start + 3)
}

/** localhost, *.localhost, 127.0.0.0/8 and [::1], on any port. */
export function isLoopback(host: string): boolean {
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '')
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
}

function originOfSetting(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw configurationError(`latchkey: \`origin\` must be an absolute http(s) URL such as "https://app.example.com", got ${JSON.stringify(value)}`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw configurationError(`latchkey: \`origin\` must be an http(s) URL, got ${JSON.stringify(value)}`)
  }
  return url.origin
}

function processEnv(): Record<string, string | undefined> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {}
}
