/**
 * Related origin requests (WebAuthn L3 §5.11): a page on another origin may use this RP ID when
 * `https://<RP ID>/.well-known/webauthn` lists its origin. `relatedOrigins` of the WebAuthn
 * providers is that list; the same origins are the only others a ceremony's response may come
 * from (relying-party.ts). The route (well-known-route.ts) answers at the origin's root, so the app routes
 * `/.well-known/webauthn` of the RP ID's host to the handler (docs/passkeys.md).
 */
import type { WebAuthnConfig } from '../../../core/types.js'
import { configurationError } from '../../../core/errors.js'

/** At start-up: each related origin is an origin (scheme, host, port; no path), over https except on localhost. */
export function checkRelatedOrigins(provider: WebAuthnConfig): void {
  const list = provider.relatedOrigins
  if (list === undefined) return
  const where = `relatedOrigins of the WebAuthn provider "${provider.id}"`
  if (!Array.isArray(list)) throw configurationError(`latchkey: ${where} must be an array of origins`)
  for (const origin of list) {
    let url: URL | null = null
    try {
      url = new URL(origin)
    } catch {}
    const local = url?.hostname === 'localhost' || !!url?.hostname.endsWith('.localhost')
    if (!url || url.origin !== origin || (url.protocol !== 'https:' && !(local && url.protocol === 'http:'))) {
      throw configurationError(`latchkey: ${where} must hold origins such as https://example.co.uk (scheme and host, no path or trailing slash), got ${JSON.stringify(origin)}`)
    }
  }
}
