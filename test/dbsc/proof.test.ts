/**
 * DBSC's wire pieces, against proofs made the way the specification describes a user agent
 * making them (a software key in the test process): the proof JWT, and the structured headers.
 */
import { generateKeyPairSync } from 'node:crypto'
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose'
import { describe, expect, it } from 'vitest'
import { createDeviceKey } from '../../src/client/dbsc/device-key.js'
import { signProof } from '../../src/client/dbsc/sign-proof.js'
import { verifyRefreshProof, verifyRegistrationProof } from '../../src/server/features/dbsc/proof.js'
import { challengeHeader, parseSfString, registrationHeader, sfString } from '../../src/server/features/dbsc/structured-fields.js'

async function deviceKey(alg: 'ES256' | 'RS256' = 'ES256') {
  const { privateKey, publicKey } = await generateKeyPair(alg)
  return { privateKey, jwk: await exportJWK(publicKey) }
}

function proof(privateKey: CryptoKey, claims: Record<string, unknown>, header: Record<string, unknown>) {
  return new SignJWT(claims).setProtectedHeader({ typ: 'dbsc+jwt', alg: 'ES256', ...header } as never).sign(privateKey)
}

describe('registration proofs', () => {
  it('answer the public key and the signed challenge', async () => {
    for (const alg of ['ES256', 'RS256'] as const) {
      const { privateKey, jwk } = await deviceKey(alg)
      const got = await verifyRegistrationProof(await proof(privateKey, { jti: 'challenge-1' }, { alg, jwk }))
      expect(got.jti).toBe('challenge-1')
      expect(got.jwk).toEqual(alg === 'ES256' ? { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } : { kty: 'RSA', n: jwk.n, e: jwk.e })
    }
  })

  it('refuse a proof whose header key did not sign it', async () => {
    const signer = await deviceKey()
    const other = await deviceKey()
    await expect(verifyRegistrationProof(await proof(signer.privateKey, { jti: 'c' }, { jwk: other.jwk }))).rejects.toThrow(/not signed by the session key/)
  })

  it('refuse a missing key, a private key, the wrong type, alg none or HS256, a short RSA key, no jti', async () => {
    const { privateKey, jwk } = await deviceKey()
    const cases: Array<[Promise<string> | string, RegExp]> = [
      [proof(privateKey, { jti: 'c' }, {}), /carries its public key/],
      [proof(privateKey, { jti: 'c' }, { jwk: { ...jwk, d: 'AAAA' } }), /must be a public key/],
      [proof(privateKey, { jti: 'c' }, { jwk, typ: 'JWT' }), /typ: dbsc\+jwt/],
      [proof(privateKey, {}, { jwk }), /challenge in `jti`/],
      [unsigned({ typ: 'dbsc+jwt', alg: 'none', jwk }, { jti: 'c' }), /ES256 or RS256/],
      [unsigned({ typ: 'dbsc+jwt', alg: 'HS256', jwk }, { jti: 'c' }), /ES256 or RS256/],
      [unsigned({ typ: 'dbsc+jwt', alg: 'RS256', jwk }, { jti: 'c' }), /RSA/],
      ['not-a-jwt', /expected a JWT/],
    ]
    // jose will not sign with a 1024-bit key; the check refuses it before any signature is read.
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' })
    cases.push([unsigned({ typ: 'dbsc+jwt', alg: 'RS256', jwk: weak }, { jti: 'c' }), /2048 bits/])
    for (const [jwt, message] of cases) await expect(verifyRegistrationProof(await jwt)).rejects.toThrow(message)
  })
})

describe('refresh proofs', () => {
  it('are checked against the stored key, and carry no key of their own', async () => {
    const device = await deviceKey()
    const stored: JWK = (await verifyRegistrationProof(await proof(device.privateKey, { jti: 'r' }, { jwk: device.jwk }))).jwk
    expect(await verifyRefreshProof(await proof(device.privateKey, { jti: 'next' }, {}), stored)).toBe('next')
    await expect(verifyRefreshProof(await proof(device.privateKey, { jti: 'next' }, { jwk: device.jwk }), stored)).rejects.toThrow(/must not carry/)
    const thief = await deviceKey()
    await expect(verifyRefreshProof(await proof(thief.privateKey, { jti: 'next' }, {}), stored)).rejects.toThrow(/not signed by the session key/)
  })
})

describe('structured fields', () => {
  it('write the registration and challenge headers as the specification shows them', () => {
    expect(registrationHeader('/auth/dbsc/register', 'cv')).toBe('(ES256 RS256);path="/auth/dbsc/register";challenge="cv"')
    expect(challengeHeader('new challenge', 'my session')).toBe('"new challenge";id="my session"')
    expect(sfString('a"b\\c')).toBe('"a\\"b\\\\c"')
    expect(() => sfString('line\nbreak')).toThrow(/printable ASCII/)
  })

  it('read an sf-string, ignoring parameters, and refuse anything else', () => {
    expect(parseSfString('"session-id"')).toBe('session-id')
    expect(parseSfString(' "a\\"b";x=1;y="z" ')).toBe('a"b')
    for (const bad of [null, 'session-id', '"open', '"a"junk', '"a\\n"', '"tab\there"']) expect(parseSfString(bad)).toBeNull()
  })
})

function unsigned(header: object, payload: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part(header)}.${part(payload)}.`
}

describe("the worker's proofs (WebCrypto, non-extractable key)", () => {
  it('register and refresh as the server expects, and the private key cannot be exported', async () => {
    const { privateKey, publicKey } = await createDeviceKey()
    await expect(crypto.subtle.exportKey('jwk', privateKey)).rejects.toThrow()
    const registered = await verifyRegistrationProof(await signProof(privateKey, { challenge: 'reg-1', publicKey }))
    expect(registered.jti).toBe('reg-1')
    expect(await verifyRefreshProof(await signProof(privateKey, { challenge: 'next' }), registered.jwk)).toBe('next')
    const other = await createDeviceKey()
    await expect(verifyRefreshProof(await signProof(other.privateKey, { challenge: 'next' }), registered.jwk)).rejects.toThrow(/not signed/)
  })
})
