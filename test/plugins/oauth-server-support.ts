/**
 * An authorization server under test (src/plugins/oauth-server) and a browser for its front half:
 * a cookie jar that signs in with credentials and answers the consent page. oauth4webapi, an
 * independent client, speaks to it through `fetch`, which goes straight to the handler.
 */
import * as oauth from 'oauth4webapi'
import { expect } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Adapter, AuthConfig } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import { Latchkey } from 'latchkey/server'
import { oauthServer, type OAuthServer, type OAuthServerOptions } from 'latchkey/plugins/oauth-server'
import { Jar } from '../support/jar.js'
import { testSecret } from '../support/server.js'

export const origin = 'http://localhost:3000'
export const mcp = `${origin}/mcp`
export const otherApi = 'https://api.example.com'
export const secret = 'confidential-secret-'.padEnd(48, 'x')

export const clients: OAuthServerOptions['clients'] = [
  { clientId: 'cli', name: 'Ada’s CLI', redirectUris: ['http://127.0.0.1/callback', 'https://cli.example.com/cb'], logoUri: 'https://cli.example.com/logo.png' },
  { clientId: 'web', name: 'Web App', clientSecret: secret, redirectUris: ['https://web.example.com/cb'] },
  { clientId: 'svc', name: 'Service', clientSecret: `${secret}-svc`, grantTypes: ['client_credentials'], redirectUris: [], scopes: ['tools:read'] },
  { clientId: 'rs', name: 'Resource server', clientSecret: `${secret}-rs`, grantTypes: ['client_credentials'], redirectUris: [], introspectAny: true },
]

/** A logger that keeps each warning and error as a line: `error <name>: <message>`, `warn <text>`. */
export const recordingLogger = (logs: string[]) => ({ error: (e: Error) => logs.push(`error ${e.name}: ${e.message}`), warn: (w: string) => logs.push(`warn ${w}`), debug: () => {} })

/** The test users: a credentials provider that signs in ada and bo by name alone. */
export const testUsers = () =>
  Credentials({ credentials: { username: {} }, authorize: async ({ username }) => (username === 'ada' || username === 'bo' ? { id: `user-${username}`, email: `${username}@example.com` } : null) })

export function authServer(
  overrides: Partial<OAuthServerOptions> = {},
  config: Partial<AuthConfig> = {},
  { store = (plugin) => MemoryAdapter({ plugins: [plugin] }), clock = { now: Date.parse('2026-06-01T00:00:00Z') } }: { store?: (plugin: OAuthServer) => Adapter; clock?: { now: number } } = {},
) {
  const logs: string[] = []
  const plugin = oauthServer({
    clients,
    scopes: { 'tools:read': 'Read your tools', 'tools:write': { en: 'Change your tools', fr: 'Modifier vos outils' } },
    resources: [mcp, otherApi],
    ...overrides,
  })
  const adapter = store(plugin)
  const handler = Latchkey({
    secret: testSecret,
    origin,
    adapter,
    plugins: [plugin],
    rateLimit: false,
    now: () => clock.now,
    logger: recordingLogger(logs),
    providers: [testUsers()],
    ...config,
  })
  const as = async () => {
    const fetched = await oauth.discoveryRequest(new URL(origin), { algorithm: 'oauth2', [oauth.customFetch]: fetcher, [oauth.allowInsecureRequests]: true })
    return oauth.processDiscoveryResponse(new URL(origin), fetched)
  }
  const fetcher = (url: string | URL, init?: RequestInit) => handler(new Request(url, init))
  return { handler, plugin, adapter, clock, logs, as, fetcher, options: { [oauth.customFetch]: fetcher, [oauth.allowInsecureRequests]: true } as const }
}

export type AuthServer = ReturnType<typeof authServer>

/** A browser: a cookie jar on the handler, signed in as `user` once `signIn` ran. */
export async function browser(server: AuthServer, user = 'ada'): Promise<Jar> {
  const jar = new Jar(server.handler, origin)
  const signedIn = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: user })
  expect(signedIn.status).toBe(302)
  return jar
}

/** The consent page's hidden fields. */
export function consentFields(page: string): { csrfToken: string; request: string } {
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)?.[1]
  return { csrfToken: field('csrfToken')!, request: field('request')! }
}

/** Follows the browser from the authorization URL through consent (allowing) to the redirect; answers its URL. */
export async function authorizeInBrowser(jar: Jar, url: string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  const start = await jar.get(url)
  expect(start.status, await start.clone().text()).toBe(302)
  const consent = await jar.get(start.headers.get('location')!)
  if (consent.status === 302) return new URL(consent.headers.get('location')!)
  expect(consent.status).toBe(200)
  const answered = await jar.postForm('/auth/oauth2/consent', { ...consentFields(await consent.text()), decision })
  expect(answered.status).toBe(302)
  return new URL(answered.headers.get('location')!)
}

export interface Pkce {
  verifier: string
  challenge: string
}

export async function pkce(): Promise<Pkce> {
  const verifier = oauth.generateRandomCodeVerifier()
  return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier) }
}

/** An authorization URL for the public client `cli`. */
export function authorizationUrl(as: oauth.AuthorizationServer, params: Record<string, string | undefined>): string {
  const url = new URL(as.authorization_endpoint!)
  const all: Record<string, string | undefined> = { client_id: 'cli', response_type: 'code', redirect_uri: 'http://127.0.0.1:43117/callback', scope: 'tools:read', code_challenge_method: 'S256', resource: mcp, state: 'st-1', ...params }
  for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v)
  return url.href
}

export const cli: oauth.Client = { client_id: 'cli', token_endpoint_auth_method: 'none' }
export const web: oauth.Client = { client_id: 'web' }
