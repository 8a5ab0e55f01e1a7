/**
 * The signing keys of access tokens, and the JWKS that publishes them. Without `signingKeys` in
 * the options, keys are made here and kept in the adapter, their private halves sealed (AES-GCM)
 * under a key derived from the app's secret, so a leaked table signs nothing. The newest key
 * signs; a new one is made once the newest is `keyRotationDays` old, and an old public key stays
 * published until every token it signed has expired (the next key's age > access token lifetime
 * plus a minute of clock skew), then it is deleted. Every process reads the keys from the store
 * (cached a minute; a token naming an unknown `kid` reads them again), so all sign with one key.
 */
import { base64url, exportJWK, generateKeyPair, importJWK, type CryptoKey as JoseKey, type JWK, type JWSHeaderParameters } from 'jose'
import { deriveKey, instanceKey, randomToken, type ResolvedConfig } from 'latchkey/server'
import { oauthStore, serverOptions } from './instance.js'
import type { ResolvedOAuthServer } from './options.js'
import type { StoredKey } from './store.js'

export interface SigningKey {
  kid: string
  alg: string
  key: JoseKey | Uint8Array
  publicJwk: JWK
}

interface KeySet {
  signing: SigningKey
  /** Every key whose tokens may still be unexpired, the signing one first. */
  published: SigningKey[]
  loadedAt: number
}

const cacheMs = 60_000
const freshAfterMs = 5_000
const skewSeconds = 60
const defaultAlg = 'RS256'
const sealSalt = 'oauth-server signing key'

const keySet = instanceKey<Promise<KeySet>>('oauth-server signing keys')

async function seal(config: ResolvedConfig, jwk: JWK): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const key = (await deriveKey(config.secrets[0]!, sealSalt)) as CryptoKey
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(JSON.stringify(jwk))))
  return `${base64url.encode(iv)}.${base64url.encode(sealed)}`
}

async function unseal(config: ResolvedConfig, sealed: string): Promise<JWK | null> {
  const [iv, data] = sealed.split('.').map((part) => base64url.decode(part))
  for (const secret of config.secrets) {
    try {
      const key = (await deriveKey(secret, sealSalt)) as CryptoKey
      const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: iv as Uint8Array<ArrayBuffer> }, key, data as Uint8Array<ArrayBuffer>)
      return JSON.parse(new TextDecoder().decode(plain)) as JWK
    } catch {
      // The next secret in rotation.
    }
  }
  return null
}

function publicHalf(jwk: JWK, kid: string, alg: string): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, key_ops: _ops, ext: _ext, ...rest } = jwk
  return { ...rest, kid, alg, use: 'sig' }
}

async function fromJwk(jwk: JWK, kid: string, alg: string): Promise<SigningKey> {
  return { kid, alg, key: await importJWK(jwk, alg), publicJwk: publicHalf(jwk, kid, alg) }
}

async function loadKeys(config: ResolvedConfig, options: ResolvedOAuthServer): Promise<KeySet> {
  const now = config.now()
  if (options.signingKeys) {
    const keys = await Promise.all(options.signingKeys.map((jwk) => fromJwk(jwk, jwk.kid!, jwk.alg!)))
    return { signing: keys[0]!, published: keys, loadedAt: now }
  }
  const adapter = oauthStore(config)
  let stored = await adapter.listOAuthKeys()
  const newest = stored[0]
  if (!newest || newest.createdAt.getTime() + options.keyRotationSeconds * 1000 <= now) {
    // Two processes may both make one at a rotation: both are published, the newest signs.
    const { privateKey } = await generateKeyPair(defaultAlg, { extractable: true })
    const jwk = await exportJWK(privateKey)
    const kid = randomToken(12)
    await adapter.addOAuthKey({ kid, alg: defaultAlg, publicJwk: publicHalf(jwk, kid, defaultAlg), sealedPrivate: await seal(config, jwk), createdAt: new Date(now) })
    stored = await adapter.listOAuthKeys()
  }
  // A key's tokens are all expired once the key after it has signed for longer than a token lives.
  const retired: StoredKey[] = []
  const kept = stored.filter((key, i) => {
    const next = stored[i - 1]
    const gone = next !== undefined && next.createdAt.getTime() + (options.accessTokenTtl + skewSeconds) * 1000 < now
    if (gone) retired.push(key)
    return !gone
  })
  if (retired.length) await adapter.deleteOAuthKeys(retired.map((k) => k.kid))
  const loaded: SigningKey[] = []
  for (const key of kept) {
    const jwk = await unseal(config, key.sealedPrivate)
    // A key sealed under a secret no longer configured can sign nothing here; its public half still verifies.
    if (jwk) loaded.push(await fromJwk(jwk, key.kid, key.alg))
    else loaded.push({ kid: key.kid, alg: key.alg, key: await importJWK(key.publicJwk, key.alg), publicJwk: key.publicJwk })
  }
  const signing = loaded.find((k) => k.key instanceof Uint8Array || k.key.type === 'private')
  if (!signing) throw new Error('latchkey: oauthServer has no signing key it can unseal with the configured secrets')
  return { signing, published: loaded, loadedAt: now }
}

/**
 * The instance's keys: cached a minute; `fresh` reads them again (a `kid` not seen yet), at most
 * once in 5 seconds, so tokens naming made-up kids cost the store nothing more.
 */
export function keys(config: ResolvedConfig, fresh = false): Promise<KeySet> {
  const held = keySet.find(config)
  const options = serverOptions.get(config)
  const load = () => {
    const loading = loadKeys(config, options)
    keySet.set(config, loading)
    // A failure is not kept: the next request tries again.
    loading.catch(() => keySet.find(config) === loading && config.state.delete(keySet))
    return loading
  }
  if (!held) return load()
  return held.then((set) => {
    const age = config.now() - set.loadedAt
    return age >= cacheMs || age < 0 || (fresh && age >= freshAfterMs) ? load() : set
  })
}

/** The public keys as a JWKS (RFC 7517). */
export async function jwks(config: ResolvedConfig): Promise<{ keys: JWK[] }> {
  return { keys: (await keys(config)).published.map((k) => k.publicJwk) }
}

/** jose's key getter for a token signed here: by its `kid`, reading the store again once for a new one. */
export function verificationKey(config: ResolvedConfig) {
  return async (header: JWSHeaderParameters) => {
    const find = (set: KeySet) => set.published.find((k) => k.kid === header.kid && k.alg === header.alg)
    const found = find(await keys(config)) ?? find(await keys(config, true))
    if (!found) throw new Error('no such key')
    // The public half only: a private key verifies nothing in Web Crypto.
    return importJWK(found.publicJwk, found.alg)
  }
}
