/**
 * `private_key_jwt` client authentication (RFC 7523, OpenID Connect Core 9): the Demo IdP holds
 * only the client's public keys and takes the code exchange when the assertion is signed with
 * the matching private key, given as a JWK or as a CryptoKey.
 */
import { exportJWK, generateKeyPair, type JWK } from 'jose'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { OAuthConfig, PrivateJWK } from '../../src/core/types.js'
import { clearDiscoveryCache } from '../../src/server/features/oauth/discovery.js'
import { startIdp, type Idp } from '../support/idp.js'
import { alice, beginSignIn, Browser, countingAdapter, recordingLogger, sessionOf, signIn, startApp, type App } from './harness.js'

const secret = 'a-test-secret-of-enough-length-0123456789'

let app: App
let idp: Idp
let log: ReturnType<typeof recordingLogger>
let rsa: { private: PrivateJWK; public: JWK }
let ec: { private: PrivateJWK; public: JWK }
let cryptoKey: CryptoKeyPair
let stranger: PrivateJWK

async function jwkPair(alg: 'RS256' | 'ES256', kid: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  // The EC key goes without "alg": latchkey infers ES256 from its curve.
  const extra = alg === 'RS256' ? { kid, alg } : { kid }
  return { private: { ...(await exportJWK(privateKey)), ...extra } as PrivateJWK, public: { ...(await exportJWK(publicKey)), ...extra, alg } }
}

const ids = ['pk-rsa', 'pk-ec', 'pk-cryptokey', 'pk-stranger', 'pk-none', 'pk-public']

function provider(id: string, clientPrivateKey: unknown): OAuthConfig<any> {
  return {
    id,
    name: id,
    type: 'oidc',
    issuer: idp.issuer,
    jwks_endpoint: undefined,
    clientId: id,
    client: { token_endpoint_auth_method: 'private_key_jwt' },
    token: { clientPrivateKey: clientPrivateKey as PrivateJWK },
  }
}

beforeAll(async () => {
  app = await startApp()
  rsa = await jwkPair('RS256', 'rsa-1')
  ec = await jwkPair('ES256', 'ec-1')
  stranger = (await jwkPair('RS256', 'rsa-1')).private
  cryptoKey = (await generateKeyPair('ES256')) as CryptoKeyPair
  const client = (id: string, keys: JWK[]) => ({ client_id: id, redirect_uris: [`${app.auth}/callback/${id}`], token_endpoint_auth_method: 'private_key_jwt' as never, jwks: { keys } })
  idp = await startIdp({
    clients: [
      client('pk-rsa', [rsa.public]),
      client('pk-ec', [ec.public]),
      client('pk-cryptokey', [{ ...(await exportJWK(cryptoKey.publicKey)), alg: 'ES256' }]),
      client('pk-stranger', [rsa.public]),
      client('pk-none', [rsa.public]),
      client('pk-public', [rsa.public]),
    ],
  })
})

afterAll(async () => {
  await Promise.all([app?.close(), idp?.close()])
})

beforeEach(() => {
  clearDiscoveryCache()
  log = recordingLogger()
  app.use({
    secret,
    adapter: countingAdapter().adapter,
    logger: log.logger,
    providers: [
      provider('pk-rsa', rsa.private),
      provider('pk-ec', ec.private),
      provider('pk-cryptokey', cryptoKey.privateKey),
      provider('pk-stranger', stranger),
      provider('pk-none', undefined),
      provider('pk-public', rsa.public),
    ],
  })
})

describe('private_key_jwt', () => {
  for (const [id, what] of [
    ['pk-rsa', 'an RSA JWK'],
    ['pk-ec', 'an EC JWK without alg'],
    ['pk-cryptokey', 'a CryptoKey'],
  ] as const) {
    it(`signs in with ${what}`, async () => {
      const browser = new Browser()
      const done = await signIn(browser, app, id, alice)
      expect(done.error, log.lines.join('\n')).toBeUndefined()
      expect((await sessionOf(browser, app))?.user.email).toBe(alice.email)
    })
  }

  it('is refused by the provider when another key signs, and signs nobody in', async () => {
    const browser = new Browser()
    const done = await signIn(browser, app, 'pk-stranger', alice)
    expect(done.error).toBe('OAuthCallbackError')
    expect(await sessionOf(browser, app)).toBeNull()
    expect(log.lines.join('\n')).toMatch(/invalid_client/)
  })

  it('without a private key, refuses to start the sign-in as a configuration error that names no key material', async () => {
    for (const id of ['pk-none', 'pk-public']) {
      // The app answers with its error page rather than the provider's authorization URL.
      const sent = await beginSignIn(new Browser(), app, id)
      expect(sent.searchParams.get('error'), id).toBe('Configuration')
    }
    const logged = log.lines.join('\n')
    expect(logged).toMatch(/private_key_jwt needs token.clientPrivateKey.*got none/)
    expect(logged).toMatch(/without its private part/)
    expect(logged).not.toContain(rsa.public.n as string)
    expect(logged).not.toContain(rsa.private.d)
  })
})
