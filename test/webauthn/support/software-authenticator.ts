/**
 * A software authenticator for the cases a browser will not produce: a registration without user
 * presence (what conditional create allows), or from a chosen AAGUID. It makes a P-256 key and an
 * attestation of format `none`, as @simplewebauthn/server verifies it.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'
import { toBase64Url } from '../../../src/core/encoding.js'

export interface Made {
  /** What `startRegistration` would have answered. */
  response: Record<string, unknown>
  id: string
  /** The key's private half, for `softwareAssertion`. */
  privateKey: KeyObject
}

const UP = 0x01
const UV = 0x04
const AT = 0x40

/** A registration for `options` (from GET /webauthn-options), made on `origin`. */
export function softwareRegistration(options: { challenge: string; rp: { id?: string } }, origin: string, { presence = true, verified = true, aaguid = '00000000-0000-0000-0000-000000000000' } = {}): Made {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string }
  const cose = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, new Uint8Array(Buffer.from(jwk.x, 'base64url'))],
    [-3, new Uint8Array(Buffer.from(jwk.y, 'base64url'))],
  ])
  const credentialId = new Uint8Array(randomBytes(32))
  const flags = (presence ? UP : 0) | (verified ? UV : 0) | AT
  const authData = Buffer.concat([
    createHash('sha256').update(options.rp.id ?? new URL(origin).hostname).digest(),
    Buffer.from([flags, 0, 0, 0, 0]),
    Buffer.from(aaguid.replace(/-/g, ''), 'hex'),
    Buffer.from([credentialId.length >> 8, credentialId.length & 0xff]),
    credentialId,
    isoCBOR.encode(cose),
  ])
  const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', new Uint8Array(authData)]]) as never)
  const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false })
  const id = toBase64Url(credentialId)
  return {
    id,
    privateKey,
    response: {
      id,
      rawId: id,
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: toBase64Url(new TextEncoder().encode(clientDataJSON)), attestationObject: toBase64Url(attestationObject), transports: ['internal'] },
    },
  }
}

/**
 * A sign-in by the key `made` for `options` (from GET /webauthn-options?action=authenticate), made
 * on `origin`; `verified: false` is a key that only checked presence (a security key without a PIN).
 */
export function softwareAssertion(made: Made, options: { challenge: string; rpId?: string }, origin: string, { verified = true, counter = 1, userHandle }: { verified?: boolean; counter?: number; userHandle?: string } = {}) {
  const count = Buffer.alloc(4)
  count.writeUInt32BE(counter)
  const authData = Buffer.concat([createHash('sha256').update(options.rpId ?? new URL(origin).hostname).digest(), Buffer.from([UP | (verified ? UV : 0)]), count])
  const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }))
  const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]), made.privateKey)
  return {
    id: made.id,
    rawId: made.id,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: toBase64Url(clientDataJSON),
      authenticatorData: toBase64Url(authData),
      signature: toBase64Url(signature),
      ...(userHandle && { userHandle }),
    },
  }
}
