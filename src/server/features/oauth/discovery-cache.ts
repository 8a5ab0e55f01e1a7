/**
 * The discovery cache alone, without oauth4webapi: `formTargets` reads it synchronously on
 * every page, so it is loaded at start-up while the discovery requests load on first sign-in.
 */
import type { AuthorizationServer } from 'oauth4webapi'

export const maxAgeMs = 60 * 60 * 1000

/** `known` is the metadata once the request has brought it. */
export interface Entry {
  at: number
  server: Promise<AuthorizationServer>
  known?: AuthorizationServer
}

export const cache = new Map<string, Entry>()

export function cacheKey(wellKnown: string, configuredIssuer: string | undefined): string {
  return `${wellKnown}\u0000${configuredIssuer ?? ''}`
}

/** The metadata at `wellKnown` if a discovery already brought it and it is fresh; never a request. */
export function discoveredAlready(wellKnown: string, configuredIssuer: string | undefined): AuthorizationServer | undefined {
  const hit = cache.get(cacheKey(wellKnown, configuredIssuer))
  return hit && Date.now() - hit.at < maxAgeMs ? hit.known : undefined
}

/** Forgets every discovered document (tests, or an app that knows metadata changed). */
export function clearDiscoveryCache(): void {
  cache.clear()
}
