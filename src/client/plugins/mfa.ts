/** `mfa()`: second factors (the server's `mfa` on, docs/mfa.md). */
import { AuthClientError } from '../errors.js'
import type { ClientPlugin } from '../plugin.js'
import type { PasskeyClient } from '../passkey/client.js'

/** `client.mfa`: its docs are on `KnownNamespaces`, at the end of this file. */
export interface MfaClient {
  verify(proof: MfaProof & { callbackUrl?: string; trustDevice?: boolean }): Promise<{ url: string }>
  methods(): Promise<MfaMethods>
  list(): Promise<MfaState>
  enroll(label?: string): Promise<MfaEnrolment>
  confirm(id: string, code: string): Promise<MfaState>
  remove(id: string, proof: MfaCode): Promise<MfaState>
  recoveryCodes(proof: MfaCode): Promise<MfaState>
  forgetDevice(id: string): Promise<MfaState>
}

/** A second factor: a code from the authenticator app, one of the recovery codes, or a passkey (the passkey plugin runs it). */
export type MfaProof = MfaCode | { passkey: true }
/** A second factor typed in: a code from the authenticator app, or a recovery code. */
export type MfaCode = { code: string } | { recoveryCode: string }

/** What the sign-in waiting in this browser takes (GET /mfa/verify). */
export interface MfaMethods {
  /** The user must first set up an authenticator app (`mfa.required`): enrol, then confirm. */
  setup: boolean
  methods: Array<'otp' | 'recovery' | 'passkey'>
  /** How long, in seconds, "don't ask again on this device" lasts; false where it is not offered. */
  trustDevices: number | false
}

/** A browser the user trusted to skip the second step. */
export interface TrustedDevice {
  id: string
  /** "Chrome on Linux". */
  device: string
  createdAt: string
  expiresAt: string
  /** This browser. */
  current: boolean
}

export interface MfaFactor {
  id: string
  type: 'totp'
  label: string | null
  confirmed: boolean
  createdAt: string
}

export interface MfaState {
  factors: MfaFactor[]
  /** Recovery codes left. */
  recoveryCodes: number
  /** Passkeys and security keys that can answer the second step. */
  passkeys: number
  trustedDevices: TrustedDevice[]
  /** A new set, answered once: after the first factor's confirmation, and from `recoveryCodes(proof)`. */
  newRecoveryCodes?: string[]
}

export interface MfaEnrolment {
  factor: MfaFactor
  /** The `otpauth://` URI an authenticator app scans. */
  uri: string
  /** The URI as a QR code, an SVG document. */
  qr: string
  /** The secret in base32, for typing into the app. */
  secret: string
}

/** The plugin that adds `client.mfa`. */
export const mfa = (): ClientPlugin<'mfa', MfaClient> => ({
  name: 'mfa',
  setup({ client, get, send, settle }) {
    const manage = async <T = MfaState>(fields: Record<string, string>) => (await send<T>('/mfa', fields)).data
    return {
      async verify({ callbackUrl = location.href, trustDevice, ...proof }) {
        if ('passkey' in proof) {
          const passkey = (client as { passkey?: PasskeyClient }).passkey
          if (!passkey) throw new AuthClientError('UnknownProvider', 'A passkey as second factor needs the passkey plugin: createAuthClient({ plugins: [passkey(), mfa()] })')
          const reply = await passkey.secondFactor({ callbackUrl, trustDevice })
          await settle('/mfa/verify')
          return reply
        }
        const trust = trustDevice ? { trustDevice: 'true' } : {}
        const { data, response } = await send<{ url: string }>('/mfa/verify', { ...proof, ...trust, callbackUrl } as Record<string, string>)
        await settle('/mfa/verify', response)
        return data
      },
      methods: () => get<MfaMethods>('/mfa/verify'),
      list: () => get<MfaState>('/mfa'),
      enroll: (label) => manage<MfaEnrolment>({ action: 'enroll', ...(label && { label }) }),
      confirm: (id, code) => manage({ action: 'confirm', id, code }),
      remove: (id, proof) => manage({ action: 'remove', id, ...proof } as Record<string, string>),
      recoveryCodes: (proof) => manage({ action: 'recovery-codes', ...proof } as Record<string, string>),
      forgetDevice: (id) => manage({ action: 'forget-device', id }),
    }
  },
})

declare module '../plugin.js' {
  interface KnownNamespaces {
    /**
     * `client.mfa`. A sign-in that answers `SecondFactorRequired` goes on with `verify({ code })` (the
     * authenticator app's), `verify({ recoveryCode })` or, with the passkey plugin, `verify({ passkey:
     * true })` (one of the user's passkeys or security keys); `methods()` says which this sign-in
     * takes. `trustDevice: true` asks not to be asked again in this browser for a while. Refused with
     * `InvalidCode` (start again after five), or `CodeAlreadyUsed` for a right app code used already
     * (wait for the app's next one). The signed-in user manages their factors: `enroll()`
     * answers the app's `uri`, a `qr` (SVG) and the `secret`; `confirm(id, code)` confirms it (the
     * first factor's answer carries `newRecoveryCodes`, shown once); `remove(id, proof)`,
     * `recoveryCodes(proof)` (a new set; both take a second factor, `{ code }` or `{ recoveryCode }`)
     * and `forgetDevice(id)` (a trusted device asks again). Enrolling, removing and new codes need a
     * recent sign-in (`SessionNotFresh`).
     */
    readonly mfa: MfaClient
  }
}
