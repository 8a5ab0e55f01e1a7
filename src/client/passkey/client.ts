/**
 * The passkey client: registration, sign-in (with a button or from the autofill), and managing the
 * signed-in user's passkeys, against latchkey's WebAuthn routes: `client.passkey`, made by the
 * passkey plugin (plugin.ts), which also refreshes the session after `client.signIn('passkey')`.
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
import { clientCapabilities, type ClientCapabilities } from './capabilities.js'
import { signalAccepted, signalUnknown } from './signals.js'
import type { PasskeyInfo, PasskeySignals } from '../../core/types.js'

/** Which kind of authenticator the browser offers first (WebAuthn `hints`). */
export type PasskeyHint = 'security-key' | 'client-device' | 'hybrid'

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
  /** Replaces the provider's configured `hints` for this call. */
  hints?: PasskeyHint[]
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
  /** Replaces the provider's configured `hints` for this call. */
  hints?: PasskeyHint[]
}

export interface PasskeyResult {
  /** Where the server suggests going next (the validated callbackUrl). */
  url: string
}

/** `client.passkey`: its docs are on `KnownNamespaces`, at the end of this file. */
export interface PasskeyClient {
  register(options?: RegisterOptions): Promise<PasskeyResult>
  signIn(options?: SignInOptions): Promise<PasskeyResult>
  /**
   * After a sign-in by password, email or OAuth: asks the password manager the user just used to
   * create a passkey without a prompt (conditional create), where `capabilities()` reports
   * `conditionalCreate`; `PasskeyUnsupported` elsewhere. The server must offer it (`automaticUpgrade`)
   * and accepts it only right after that sign-in, once.
   */
  upgrade(options?: { callbackUrl?: string; provider?: string }): Promise<PasskeyResult>
  /** The signed-in user's passkeys; also tells the browser's passkey manager which ones still work, and the user's names (Signal API). */
  list(): Promise<PasskeyInfo[]>
  remove(id: string): Promise<PasskeyInfo[]>
  /** Names one of the user's passkeys (an empty name clears it); answers the whole list. */
  rename(id: string, name: string): Promise<PasskeyInfo[]>
  /**
   * The second step of a sign-in waiting for it (the server's `mfa`): one of the user's passkeys
   * or security keys signs a challenge made for this step. `trustDevice`: don't ask again here for a while.
   */
  secondFactor(options?: { callbackUrl?: string; trustDevice?: boolean }): Promise<PasskeyResult>
  /** Aborts the ceremony in progress (its promise rejects with code 'PasskeyCancelled'). */
  cancel(): void
  supported(): boolean
  autofillSupported(): Promise<boolean>
  /** `PublicKeyCredential.getClientCapabilities()`, with a fallback where the browser lacks it. */
  capabilities(): Promise<ClientCapabilities>
}

export function createPasskeyClient(config: PasskeyClientOptions): PasskeyClient {
  const base = (config.basePath ?? '/auth').replace(/\/+$/, '')
  const providerOf = (id?: string) => encodeURIComponent(id ?? config.provider ?? 'passkey')

  async function options<T>(provider: string, action: 'register' | 'authenticate', params: Record<string, string>, signal: AbortSignal, hints?: PasskeyHint[]) {
    const query = new URLSearchParams({ ...params, action })
    const reply = await serialized(() => call<{ action: string; options: T & { hints?: string[] }; enableConditionalUI?: boolean }>(`${base}/webauthn-options/${provider}?${query}`))
    if (signal.aborted) throw cancelled()
    // Hints only steer the browser's dialog; the server does not sign or check them.
    if (hints) reply.options.hints = hints
    return reply
  }

  type Listed = { passkeys: PasskeyInfo[]; signals?: PasskeySignals[] }
  /** A /passkeys answer: its list, after telling the passkey manager what it holds. */
  async function listed(reply: Promise<Listed>) {
    const { passkeys, signals } = await reply
    await signalAccepted(signals)
    return passkeys
  }
  const act = async (fields: Record<string, string>) => listed(postJson<Listed>(`${base}/passkeys`, { ...fields, csrfToken: await config.getCsrfToken() }))

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

  const client: PasskeyClient = {
    register(opts = {}) {
      return ceremony(async (signal) => {
        const provider = providerOf(opts.provider)
        const params: Record<string, string> = { ...opts.params }
        if (opts.email) params.email = opts.email
        const { options: optionsJSON } = await options<PublicKeyCredentialCreationOptionsJSON>(provider, 'register', params, signal, opts.hints)
        return registered(provider, optionsJSON, await startRegistration({ optionsJSON }), opts.callbackUrl, signal)
      })
    },

    async upgrade(opts = {}) {
      if (!(await clientCapabilities()).conditionalCreate) throw unsupported('no automatic passkey upgrade (conditional create) here')
      return ceremony(async (signal) => {
        const provider = providerOf(opts.provider)
        const { options: optionsJSON } = await options<PublicKeyCredentialCreationOptionsJSON>(provider, 'register', { upgrade: '1' }, signal)
        return registered(provider, optionsJSON, await startRegistration({ optionsJSON, useAutoRegister: true }), opts.callbackUrl, signal)
      }, true)
    },

    signIn(opts = {}) {
      return ceremony(async (signal) => {
        const provider = providerOf(opts.provider)
        if (opts.conditional && !(await browserSupportsWebAuthnAutofill())) throw unsupported('this browser has no passkey autofill')
        const params: Record<string, string> = {}
        if (opts.email && !opts.conditional) params.email = opts.email
        const reply = await options<PublicKeyCredentialRequestOptionsJSON>(provider, 'authenticate', params, signal, opts.hints)
        if (opts.conditional && reply.enableConditionalUI === false) throw unsupported(`provider "${decodeURIComponent(provider)}" turned the autofill off`)
        // The library's own look for the input uses document.querySelector, which cannot see into
        // shadow roots such as <latchkey-signin>'s; the browser finds the input itself.
        const data = await startAuthentication({ optionsJSON: reply.options, useBrowserAutofill: opts.conditional === true, verifyBrowserAutofillInput: false })
        try {
          const result = await finish(provider, 'authenticate', data, opts.callbackUrl, signal, opts.confirm)
          // Signed in: the passkey manager learns which of this user's passkeys still work (not awaited; never fails the sign-in).
          void client.list().catch(() => {})
          return result
        } catch (error) {
          // Removed on the server (or on another device): this device may stop offering it.
          if (error instanceof PasskeyError && error.reason === 'unknown-credential') await signalUnknown(reply.options.rpId ?? location.hostname, data.id)
          throw error
        }
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

    list: () => listed(call<Listed>(`${base}/passkeys`)),
    remove: (id) => act({ action: 'remove', id }),
    rename: (id, name) => act({ action: 'rename', id, name }),
    cancel: cancelCeremony,
    supported: browserSupportsWebAuthn,
    async autofillSupported() {
      const { conditionalGet } = await clientCapabilities()
      return conditionalGet ?? browserSupportsWebAuthnAutofill()
    },
    capabilities: clientCapabilities,
  }

  /** Posts a new passkey; one the server refused is stored nowhere, so the device need not keep offering it. */
  async function registered(provider: string, optionsJSON: PublicKeyCredentialCreationOptionsJSON, data: { id: string }, callbackUrl: string | undefined, signal: AbortSignal) {
    try {
      return await finish(provider, 'register', data, callbackUrl, signal)
    } catch (error) {
      if (!(error instanceof PasskeyError) || !error.refused) throw error
      await signalUnknown(optionsJSON.rp.id ?? location.hostname, data.id)
      throw registrationRefused(error)
    }
  }
  return client
}

declare module '../plugin.js' {
  interface KnownNamespaces {
    /**
     * `client.passkey` (the passkey plugin): registering, signing in, and the signed-in user's
     * passkeys. Every list, removal, rename and passkey sign-in also tells the browser's passkey
     * manager which passkeys still work, and the user's names (Signal API). Removing one needs a
     * recent sign-in (`SessionNotFresh`); removing the last way to sign in is refused.
     */
    readonly passkey: PasskeyClient
  }
}
