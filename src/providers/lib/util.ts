import type { TokenSet } from '../../core/types.js'

/** The URL without trailing slashes. */
export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '')
}

/** `<issuer>/.well-known/openid-configuration`, or undefined when there is no issuer yet. */
export function discovery(issuer: string | undefined): string | undefined {
  return issuer ? `${trimSlash(issuer)}/.well-known/openid-configuration` : undefined
}

/** `<base><path>`, or undefined when there is no base yet (the app gives it later). */
export function under(base: string | undefined, path: string): string | undefined {
  return base ? `${trimSlash(base)}${path}` : undefined
}

/** `Authorization: Bearer <access_token>` (or another scheme). */
export function authHeader(tokens: TokenSet, scheme = 'Bearer'): Record<string, string> {
  return { Authorization: `${scheme} ${tokens.access_token ?? ''}` }
}

/** GETs (or sends) JSON; a non-2xx answer throws an error naming the provider and the status. */
export async function fetchJson<T = any>(provider: string, url: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers)
  if (!headers.has('Accept')) headers.set('Accept', 'application/json')
  const response = await fetch(url, { ...init, headers })
  if (!response.ok) {
    const body = await response.text().catch(() => '')
    throw new Error(`${provider}: ${init.method ?? 'GET'} ${new URL(url).pathname} failed with HTTP ${response.status}${body ? `: ${body.slice(0, 200)}` : ''}`)
  }
  return (await response.json()) as T
}


/** Joins name parts, skipping empty ones; null when nothing is left. */
export function joinName(...parts: Array<string | null | undefined>): string | null {
  const name = parts.filter((p) => typeof p === 'string' && p.trim() !== '').join(' ')
  return name === '' ? null : name
}

/**
 * The URL of an endpoint as the provider now has it (the user may have replaced it), else the
 * fallback. Custom `request` functions use it so that overriding the URL still works.
 */
export function endpointUrl(endpoint: unknown, fallback: string): string {
  if (typeof endpoint === 'string') return endpoint
  const url = (endpoint as { url?: unknown } | undefined)?.url
  return typeof url === 'string' ? url : fallback
}

/** The URL with these query parameters added (or replaced). */
export function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url)
  for (const [key, value] of Object.entries(params)) u.searchParams.set(key, value)
  return u.href
}
