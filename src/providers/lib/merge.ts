import type { OAuthConfig } from '../../core/types.js'
import { needsClientSecret } from './client-secret.js'

type Endpoint = string | { url?: string; params?: Record<string, unknown>; request?: unknown } | undefined

const endpointKeys = ['authorization', 'token', 'userinfo'] as const

/** True for a plain object (not an array, a function or null). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Merges an endpoint: a string replaces the default URL only (its params and request are kept);
 * an object is merged over the default, its `params` merged key by key.
 */
export function mergeEndpoint(base: Endpoint, override: Endpoint): Endpoint {
  if (override === undefined) return base
  if (base === undefined) return override
  const b = typeof base === 'string' ? { url: base } : base
  if (typeof override === 'string') {
    return typeof base === 'string' ? override : { ...b, url: override }
  }
  const params = b.params || override.params ? { ...b.params, ...override.params } : undefined
  return { ...b, ...override, ...(params ? { params } : {}) }
}

/**
 * Builds a provider from its defaults and the user's options. Every option wins over the
 * default; `authorization`, `token` and `userinfo` are merged as endpoints, `style` and `client`
 * key by key. `options` is set to `recorded`: all the user gave, by default `options` (a provider
 * passes its own extra options, like `tenantId`, there but not in `options`). Undefined option
 * values are ignored. The result needs a clientSecret unless the provider calls `secretOptional`.
 */
export function mergeProvider<C extends OAuthConfig<any>>(defaults: C, options: object = {}, recorded: object = options): C {
  const opts = options as Record<string, unknown>
  const result: Record<string, unknown> = { ...defaults }
  for (const [key, value] of Object.entries(opts)) {
    if (value === undefined) continue
    if ((endpointKeys as readonly string[]).includes(key)) {
      result[key] = mergeEndpoint(result[key] as Endpoint, value as Endpoint)
    } else if ((key === 'style' || key === 'client') && isObject(value) && isObject(result[key])) {
      result[key] = { ...(result[key] as object), ...value }
    } else {
      result[key] = value
    }
  }
  result.options = recorded
  ;(result as Record<symbol, unknown>)[needsClientSecret] = true
  return result as C
}
