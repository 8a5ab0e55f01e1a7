/**
 * `sso()`: enterprise sign-in per organization (the server's latchkey/plugins/sso), the sign-in
 * half: home-realm discovery by an address's domain, and the sign-in through a connection. In
 * `<latchkey-signin>` an address whose domain has a connection is offered its organization's
 * sign-in as the primary way (alone where the organization requires it).
 */
import type { ClientPlugin } from '../plugin.js'
import type { AuthClient, SignInResult, WayInOffer } from '../auth-client.js'
import type { AppProvider } from '../types.js'

/** GET /sso-discover's answer: the connection of the domain, or null. */
export interface SsoDiscovery {
  domain: string
  connection: { id: string; name: string; kind: 'oidc' | 'saml'; required: boolean; provider: string; organization: string } | null
}

/** `client.sso`: its docs are on `KnownNamespaces`, at the end of this file. */
export interface SsoClient {
  discover(email: string, options?: { fresh?: boolean }): Promise<SsoDiscovery>
  signIn(options: { email?: string; connection?: string; provider?: string; callbackUrl?: string }): Promise<SignInResult | undefined>
}

const isSso = (p: AppProvider) => (p.type as string) === 'sso'

/** The domain of an address, lower case; null for what is no address. */
const domainOf = (email: string) => {
  const at = email.lastIndexOf('@')
  const domain = at > 0 ? email.slice(at + 1).trim().toLowerCase() : ''
  return domain || null
}

/** The offer for an address: the connection, primary; alone where it is required. */
async function offers(client: AuthClient, identifier: string, options?: { fresh?: boolean }): Promise<WayInOffer | null> {
  const sso = (client as AuthClient & { sso?: SsoClient }).sso
  if (!sso || !domainOf(identifier)) return null
  const { connection } = await sso.discover(identifier, options)
  return connection && { alone: connection.required, detail: connection }
}

/** The plugin that adds `client.sso`. */
export const sso = (): ClientPlugin<'sso', SsoClient> => ({
  name: 'sso',
  // Another way refused as the connection requires: discovery is asked again, its kept answer dropped.
  waysIn: [{ knows: isSso, renderer: 'sso', identifier: 'email', offers, offersAgainOn: ['SsoRequired'] }],
  setup: ({ client, get }) => {
    // Per page: each domain asked once. A failed ask is forgotten, so the next one asks again.
    const asked = new Map<string, Promise<SsoDiscovery>>()
    return {
      discover(email, options) {
        const domain = domainOf(email)
        if (!domain) return Promise.resolve({ domain: '', connection: null })
        if (options?.fresh) asked.delete(domain)
        let answer = asked.get(domain)
        if (!answer) {
          // The domain alone goes to the server, never the address.
          answer = get<SsoDiscovery>(`/sso-discover?domain=${encodeURIComponent(domain)}`)
          asked.set(domain, answer)
          answer.catch(() => asked.delete(domain))
        }
        return answer
      },
      async signIn({ email, connection, provider, callbackUrl }) {
        const id = provider ?? Object.values(await client.getProviders()).find(isSso)?.id ?? 'sso'
        return client.signIn(id, { ...(connection ? { connection } : { email: email ?? '' }), callbackUrl: callbackUrl ?? location.href })
      },
    }
  },
})

declare module '../plugin.js' {
  interface KnownNamespaces {
    /**
     * `client.sso`: `discover(email)` answers the connection of the address's domain (asking the
     * server once per domain, with the domain only; `{ fresh: true }` asks again), or `connection: null`; `signIn({ email })` (or
     * `{ connection }`, an id) sends the browser to the organization's identity provider.
     */
    readonly sso: SsoClient
  }
}
