/**
 * The passkey client: registration, sign-in (with a button or from the autofill), and managing the
 * signed-in user's passkeys, against latchkey's WebAuthn routes. It only talks to the server; the
 * app (or the SDK, as `auth.passkey`) refreshes its session view after a sign-in.
 */
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser'
import { beginCeremony, cancelCeremony, endCeremony, serialized } from './ceremony.js'
import { cancelled, fromBrowserError, PasskeyError, registrationRefused, unsupported } from './errors.js'
import { call, postJson } from './http.js'
import type { PasskeyInfo } from '../../core/types.js'

export interface PasskeyClientOptions {
  /** Where latchkey's routes live: a path (`/auth`) or an absolute URL. Default `/auth`. */
  basePath?: string
  /** The CSRF token for POSTs (e.g. from GET {basePath}/csrf). */
  getCsrfToken: () => string | Promise<string>
  /** The WebAuthn provider id. Default `passkey`. */
  provider?: string
}

export interface RegisterOptions {
  /** The new user's email; ignored (or must match) when signed in, which adds a passkey to the own account. */
  email?: string
  /** Extra query parameters for a custom `getUserInfo` on the server. */
  params?: Record<string, string>
  callbackUrl?: string
  provider?: string
}

export interface SignInOptions {
  /** Wait for the user to pick a passkey from the autofill of an `<input autocomplete="username webauthn">`. */
  conditional?: boolean
  /** Limit the choice to this user's passkeys; without it the browser offers any passkey it has for the site. */
  email?: string
  callbackUrl?: string
  provider?: string
  /** "Confirm it's you": sign the signed-in user in again (a fresh session), or nobody. */
  confirm?: boolean
}

export interface PasskeyResult {
  /** Where the server suggests going next (the validated callbackUrl). */
  url: string
}

export interface PasskeyClient {
  register(options?: RegisterOptions): Promise<PasskeyResult>
  signIn(options?: SignInOptions): Promise<PasskeyResult>
  list(): Promise<PasskeyInfo[]>
  remove(id: string): Promise<PasskeyInfo[]>
  /**
   * The second step of a sign-in waiting for it (the server's `mfa`): one of the user's passkeys
   * or security keys signs a challenge made for this step. `trustDevice`: don't ask again here for a while.
   */
  secondFactor(options?: { callbackUrl?: string; trustDevice?: boolean }): Promise<PasskeyResult>
  /** Aborts the ceremony in progress (its promise rejects with code 'PasskeyCancelled'). */
  cancel(): void
  supported(): boolean
  autofillSupported(): Promise<boolean>
}

export function createPasskeyClient(config: PasskeyClientOptions): PasskeyClient {
  const base = (config.basePath ?? '/auth').replace(/\/+$/, '')
  const providerOf = (id?: string) => encodeURIComponent(id ?? config.provider ?? 'passkey')

  async function options<T>(provider: string, action: 'register' | 'authenticate', params: Record<string, string>, signal: AbortSignal) {
    const query = new URLSearchParams({ ...params, action })
    const reply = await serialized(() => call<{ action: string; options: T; enableConditionalUI?: boolean }>(`${base}/webauthn-options/${provider}?${query}`))
    if (signal.aborted) throw cancelled()
    return reply
  }

  async function finish(provider: string, action: 'register' | 'authenticate', data: unknown, callbackUrl: string | undefined, signal: AbortSignal, confirm?: boolean) {
    if (signal.aborted) throw cancelled()
    const body: Record<string, unknown> = { action, data, csrfToken: await config.getCsrfToken() }
    if (callbackUrl) body.callbackUrl = callbackUrl
    if (confirm) body.confirm = true
    if (signal.aborted) throw cancelled()
    const reply = await serialized(() => postJson<{ url: string }>(`${base}/callback/${provider}`, body))
    return { url: reply.url }
  }

  /** Runs a ceremony: aborts the previous one, and maps whatever fails to a `PasskeyError`. */
  async function ceremony<T>(run: (signal: AbortSignal) => Promise<T>, background = false): Promise<T> {
    if (!browserSupportsWebAuthn()) throw unsupported('WebAuthn is not available')
    const signal = beginCeremony(background)
    if (!signal) throw cancelled()
    try {
      return await run(signal)
    } catch (error) {
      if (error instanceof PasskeyError) throw error
      throw signal.aborted ? cancelled() : fromBrowserError(error)
    } finally {
      endCeremony(signal)
    }
  }

  return {
    register(opts = {}) {
      return ceremony(async (signal) => {
        const provider = providerOf(opts.provider)
        const params: Record<string, string> = { ...opts.params }
        if (opts.email) params.email = opts.email
        const { options: optionsJSON } = await options<PublicKeyCredentialCreationOptionsJSON>(provider, 'register', params, signal)
        const data = await startRegistration({ optionsJSON })
        try {
          return await finish(provider, 'register', data, opts.callbackUrl, signal)
        } catch (error) {
          if (!(error instanceof PasskeyError) || !error.refused) throw error
          // Refused, so stored nowhere: the device need not keep offering the new passkey.
          await forget(optionsJSON.rp.id ?? location.hostname, data.id)
          throw registrationRefused(error)
        }
      })
    },

    signIn(opts = {}) {
      return ceremony(async (signal) => {
        const provider = providerOf(opts.provider)
        if (opts.conditional && !(await browserSupportsWebAuthnAutofill())) throw unsupported('this browser has no passkey autofill')
        const params: Record<string, string> = {}
        if (opts.email && !opts.conditional) params.email = opts.email
        const reply = await options<PublicKeyCredentialRequestOptionsJSON>(provider, 'authenticate', params, signal)
        if (opts.conditional && reply.enableConditionalUI === false) throw unsupported(`provider "${decodeURIComponent(provider)}" turned the autofill off`)
        // The library's own look for the input uses document.querySelector, which cannot see into
        // shadow roots such as <latchkey-signin>'s; the browser finds the input itself.
        const data = await startAuthentication({ optionsJSON: reply.options, useBrowserAutofill: opts.conditional === true, verifyBrowserAutofillInput: false })
        return finish(provider, 'authenticate', data, opts.callbackUrl, signal, opts.confirm)
      }, opts.conditional === true)
    },

    secondFactor(opts = {}) {
      return ceremony(async (signal) => {
        const url = `${base}/mfa/verify`
        const { options: optionsJSON } = await serialized(async () => postJson<{ options: PublicKeyCredentialRequestOptionsJSON }>(url, { action: 'passkey-options', csrfToken: await config.getCsrfToken() }))
        if (signal.aborted) throw cancelled()
        const assertion = await startAuthentication({ optionsJSON })
        const body = { assertion, csrfToken: await config.getCsrfToken(), ...(opts.callbackUrl && { callbackUrl: opts.callbackUrl }), ...(opts.trustDevice && { trustDevice: true }) }
        return { url: (await serialized(() => postJson<{ url: string }>(url, body))).url }
      })
    },

    async list() {
      return (await call<{ passkeys: PasskeyInfo[] }>(`${base}/passkeys`)).passkeys
    },

    async remove(id) {
      return (await postJson<{ passkeys: PasskeyInfo[] }>(`${base}/passkeys`, { action: 'remove', id, csrfToken: await config.getCsrfToken() })).passkeys
    },

    cancel: cancelCeremony,
    supported: browserSupportsWebAuthn,
    autofillSupported: browserSupportsWebAuthnAutofill,
  }
}

/** Asks the browser to drop a passkey the server does not know (the Signal API); best effort, where supported. */
async function forget(rpId: string, credentialId: string): Promise<void> {
  const signal = (globalThis.PublicKeyCredential as { signalUnknownCredential?: (o: { rpId: string; credentialId: string }) => Promise<void> } | undefined)?.signalUnknownCredential
  await signal?.call(PublicKeyCredential, { rpId, credentialId }).catch(() => {})
}
