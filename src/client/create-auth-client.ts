/**
 * `createAuthClient()`: the browser SDK over the Auth.js REST protocol. Session reads go to the
 * service worker when the page's controller includes latchkey's, else to the same engine run in
 * the page.
 */
import { AuthClientError } from './errors.js'
import { post, request, type Reply } from './request.js'
import { channelName } from './channel-name.js'
import type { WorkerRegistrationResult } from './register-worker.js'
import type { Engine } from './session-engine.js'
import type { AccountInfo, AppProvider, AuthStatus, PasskeyInfo, Session, SessionInfo, SessionState } from './types.js'
import type { PasskeyClient } from './passkey/client.js'
import type { ElementMessages, Language } from '../locales/index.js'
import { workerBridge } from './worker-bridge.js'

export interface AuthClientOptions {
  /** Where the server's routes live: a path, or an absolute URL. Default `/auth`. */
  basePath?: string
  /**
   * Default (true): use the page's service worker when it includes latchkey's (see
   * docs/service-worker.md), registering nothing. A script (`'/latchkey-sw.js'`): register
   * latchkey's own worker first, unless another script is the worker at that scope.
   * false: keep sessions in the page. Always false where `basePath` is on another origin.
   */
  serviceWorker?: string | boolean
  /**
   * The elements' language (a BCP 47 tag), over the page's `lang` and the browser's; an element's
   * own `lang` attribute comes first. Default: none (docs/elements.md, "Languages").
   */
  locale?: string
  /** Messages of a shipped language the app words its own way: `{ en: { signOut: 'Log out' } }`. */
  messages?: { [tag in Language]?: Partial<ElementMessages> }
  /** Languages the app adds, each a whole catalogue (a missing key is a type error): `{ it: { ... } }`. */
  languages?: Record<string, ElementMessages>
}

/** What the elements speak: the `locale`, `messages` and `languages` options as given. */
export type AuthClientLanguages = Pick<AuthClientOptions, 'locale' | 'messages' | 'languages'>

export interface SignInOptions extends Record<string, unknown> {
  callbackUrl?: string
  /** false: credentials and email answer `{ ok, error, url }` instead of navigating. */
  redirect?: boolean
}

export interface SignInResult {
  ok: boolean
  error: string | undefined
  status: number
  url: string | null
}

export interface SignOutOptions {
  callbackUrl?: string
  redirect?: boolean
}

export interface AuthClient extends Readonly<AuthClientLanguages> {
  readonly status: AuthStatus
  /** The last session known, without asking. */
  readonly session: Session | null | undefined
  /** What the session engine last said: the session, `due` (local clock, ms: when it is next refreshed) and `stale`. */
  readonly state: SessionState | undefined
  readonly basePath: string
  /** What became of the `serviceWorker` script to register; `skipped` says why and what to do. */
  readonly workerRegistration: Promise<WorkerRegistrationResult>
  getProviders(): Promise<Record<string, AppProvider>>
  getCsrfToken(): Promise<string>
  getSession(): Promise<Session | null>
  /** With `redirect: false` there is always a result (an OAuth sign-in still navigates to the provider). */
  signIn(providerId: string | undefined, options: SignInOptions & { redirect: false }): Promise<SignInResult>
  signIn(providerId?: string, options?: SignInOptions): Promise<SignInResult | undefined>
  signOut(options?: SignOutOptions): Promise<{ url: string }>
  update(data?: unknown): Promise<Session | null>
  onSessionChange(listener: (session: Session | null) => void): () => void
  /**
   * The passkey client (src/client/passkey), attached by the app so the core stays small:
   * `client.passkey = createPasskeyClient({ basePath, getCsrfToken: client.getCsrfToken })`.
   * `signIn('passkey')` then runs its ceremony.
   */
  passkey?: PasskeyClient
  /**
   * The signed-in user's sessions, one per device (database strategy). Ending another needs a
   * recent sign-in (`SessionNotFresh` otherwise); ending this one signs out here, in every tab.
   * Signing out everywhere: `revokeOthers()`, then `signOut()`.
   */
  sessions: {
    list(): Promise<SessionInfo[]>
    revoke(id: string): Promise<SessionInfo[]>
    revokeOthers(): Promise<SessionInfo[]>
  }
  /**
   * The signed-in user's linked accounts (never tokens). `link` is a sign-in with that provider
   * while signed in: it navigates to the provider and back. Linking and unlinking need a recent
   * sign-in (`SessionNotFresh`: show `<latchkey-signin confirm>`, then retry); unlinking the last
   * way to sign in is refused (`LastSignInMethod`).
   */
  accounts: {
    list(): Promise<AccountInfo[]>
    link(provider: string, options?: SignInOptions): Promise<SignInResult | undefined>
    unlink(provider: string): Promise<AccountInfo[]>
  }
  /**
   * The signed-in user's passkeys (registering one is the passkey client's ceremony). Removing one
   * needs a recent sign-in (`SessionNotFresh`); removing the last way to sign in is refused.
   */
  passkeys: {
    list(): Promise<PasskeyInfo[]>
    remove(id: string): Promise<PasskeyInfo[]>
    /** Names one of the user's passkeys (an empty name clears it; at most 64 characters); answers the whole list. */
    rename(id: string, name: string): Promise<PasskeyInfo[]>
  }
  /**
   * Email codes: after `signIn('email', { email, redirect: false })`, the code from that email
   * signs this browser in, wherever the email was read. Refused with an `AuthClientError` whose
   * code is `InvalidCode`, `CodeExpired` (ask again), `TooManyAttempts` (ask again) or `RateLimited`.
   */
  email: {
    verify(options: { email: string; code: string; provider?: string; callbackUrl?: string }): Promise<SignInResult>
  }
  /**
   * Second factors (the server's `mfa` on). A sign-in that answers `SecondFactorRequired` goes on
   * with `verify({ code })` (the authenticator app's), `verify({ recoveryCode })` or, with the
   * passkey client attached, `verify({ passkey: true })` (one of the user's passkeys or security
   * keys); `methods()` says which this sign-in takes. `trustDevice: true` asks not to be asked
   * again in this browser for a while. Refused with `InvalidCode` (start again after five).
   * The signed-in user manages their factors: `enroll()` answers the app's `uri`, a `qr` (SVG)
   * and the `secret`; `confirm(id, code)` confirms it (the first factor's answer carries
   * `newRecoveryCodes`, shown once); `remove(id, proof)`, `recoveryCodes(proof)` (a new set; both
   * take a second factor, `{ code }` or `{ recoveryCode }`) and `forgetDevice(id)` (a trusted device asks again). Enrolling, removing and new codes need a
   * recent sign-in (`SessionNotFresh`).
   */
  /**
   * Email-and-password accounts (the server's `Password()` provider, docs/passwords.md). Signing
   * in stays `signIn('password', { email, password, redirect: false })`: refused with
   * `CredentialsSignin`, or `EmailNotVerified` until the address is confirmed. `signUp` answers the
   * same whether or not the address has an account (its owner is emailed instead); `verify` takes
   * the code from the confirmation email and `resend` sends it again; `forgot` emails a code that
   * `reset` takes with the new password (every session of the user ends). Signed in, `status()`
   * says whether the user has a password and `set()` sets or changes it (a recent sign-in, else
   * `SessionNotFresh`; `currentPassword` where there is one), ending the other sessions. Refusals
   * are an `AuthClientError` with the server's code: `PasswordTooShort`, `PasswordTooLong`,
   * `PasswordBreached`, `InvalidCode`, `CodeExpired`, `TooManyAttempts`, `RateLimited`,
   * `CredentialsSignin` (a wrong `currentPassword`).
   */
  password: PasswordClient
  mfa: {
    verify(proof: MfaProof & { callbackUrl?: string; trustDevice?: boolean }): Promise<{ url: string }>
    methods(): Promise<MfaMethods>
    list(): Promise<MfaState>
    enroll(label?: string): Promise<MfaEnrolment>
    confirm(id: string, code: string): Promise<MfaState>
    remove(id: string, proof: MfaCode): Promise<MfaState>
    recoveryCodes(proof: MfaCode): Promise<MfaState>
    forgetDevice(id: string): Promise<MfaState>
  }
}

/** `client.password`: see `AuthClient.password`. */
export interface PasswordClient {
  signUp(account: { email: string; password: string; name?: string }): Promise<void>
  verify(proof: { email: string; code: string }): Promise<void>
  resend(email: string): Promise<void>
  forgot(email: string): Promise<void>
  reset(change: { email: string; code: string; password: string }): Promise<void>
  status(): Promise<{ hasPassword: boolean }>
  set(change: { password: string; currentPassword?: string }): Promise<{ hasPassword: boolean }>
}

/** A second factor: a code from the authenticator app, one of the recovery codes, or a passkey (the passkey client runs it). */
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

const codeMessages: Record<string, string> = {
  InvalidCode: 'The code is not right',
  CodeExpired: 'The code has expired; ask for a new one',
  TooManyAttempts: 'Too many wrong codes; ask for a new one',
}


const errorOf = (url: string | null) => (url ? (new URL(url, location.href).searchParams.get('error') ?? undefined) : undefined)

function navigate(url: string) {
  location.href = url
  // A hash-only change does not reload the page.
  if (url.includes('#')) location.reload()
}

export function createAuthClient({ basePath = '/auth', serviceWorker: asked = true, ...spoken }: AuthClientOptions = {}): AuthClient {
  const base = new URL(basePath.replace(/\/+$/, ''), location.href).href
  // A worker sees and keeps sessions of its own origin only: on another, the page keeps them.
  const serviceWorker = new URL(base).origin === location.origin && asked
  if (typeof asked === 'string' && !serviceWorker) {
    console.warn(`latchkey: ${asked} was not registered: basePath ${base} is on another origin, and a service worker keeps sessions for its own origin only; the page keeps them instead. To use the worker, proxy the sign-in routes through this origin.`)
  }
  const sessionUrl = base + '/session'
  const listeners = new Set<(session: Session | null) => void>()
  let firstRead!: () => void
  const firstReadDone = new Promise<void>((resolve) => (firstRead = resolve))
  const register = () =>
    import('./register-worker.js').then(
      ({ registerWorker }) => registerWorker(`${serviceWorker}?base=${encodeURIComponent(new URL(base).pathname)}`),
      (e): WorkerRegistrationResult => ({ status: 'failed', message: String(e) }),
    )
  // A page a worker already controls learns its session first: the registration's import and
  // browser calls would otherwise stand in the way of a reload's first read.
  const workerRegistration: Promise<WorkerRegistrationResult> =
    typeof serviceWorker === 'string' ? (navigator.serviceWorker?.controller ? firstReadDone.then(register) : register()) : Promise.resolve({ status: 'off' })
  const bridge = serviceWorker ? workerBridge(sessionUrl) : null
  const served = async () => !!(await bridge?.serving())
  /**
   * This page's navigation may have signed in or out (an OAuth callback's redirect): a worker
   * would have seen it pass, the page must ask once. Local clock, ms; 0 once asked.
   */
  let loaded = performance.timeOrigin + ((performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined)?.responseStart ?? 0)
  let engine: Promise<Engine> | undefined
  const local = () =>
    (engine ??= import('./session-engine.js').then(({ createEngine }) => createEngine(sessionUrl, apply)))
  let state: SessionState | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let providers: Promise<Record<string, AppProvider>> | undefined

  /** The due instant is when this tab asks; the engine makes it one request for all tabs. */
  const schedule = (due: number) => {
    clearTimeout(timer)
    timer = setTimeout(() => client.getSession().catch(() => {}), Math.min(Math.max(due - Date.now(), 1000), 2 ** 31 - 1))
  }

  function apply(next: SessionState): void {
    const key = (s?: SessionState) => s && JSON.stringify([s.session, s.stale])
    const changed = key(next) !== key(state)
    state = next
    schedule(next.due)
    if (changed) listeners.forEach((l) => l(client.session ?? null))
  }

  const read = async (): Promise<SessionState> => {
    try {
      if (bridge) return await bridge.get()
    } catch {
      // No latchkey worker controls the page, or it did not answer twice: do the work here.
    }
    const after = loaded
    loaded = 0
    return (await local()).get(after)
  }

  /** After our own POST: a worker saw it pass; without one, the page engine looks. */
  const settle = async (path: string, response: Response) => {
    if (!(await served())) await (await local()).observe(path, 'POST', response)
    await client.getSession()
  }

  /**
   * A POST with the double-submit CSRF token. Against Auth.js, any read without a CSRF cookie
   * (the first /session of a fresh browser) sets one, and if that answer lands after /csrf's the
   * token no longer matches the cookie: a MissingCSRF answer is tried once more with a fresh token.
   */
  const send = async <T>(url: string, fields: Record<string, string>, json?: boolean): Promise<Reply<T>> => {
    const once = async () => post<T>(url, await client.getCsrfToken(), fields, json)
    let reply: Reply<T>
    try {
      reply = await once()
    } catch (e) {
      if ((e as AuthClientError).code === 'MissingCSRF') return once()
      throw e
    }
    return errorOf((reply.data as { url?: string } | null)?.url ?? null) === 'MissingCSRF' ? once() : reply
  }

  /** A list the user manages (/sessions, /accounts): GET it, or POST an action and get what is left. */
  const listed = <T>(path: string) => ({
    list: async (): Promise<T[]> => (await request<Record<string, T[]>>(base + path)).data[path.slice(1)],
    act: async (fields: Record<string, string>): Promise<T[]> => {
      const { data, response } = await send<Record<string, T[]>>(base + path, fields)
      await settle(path, response)
      return data[path.slice(1)]
    },
  })
  /** POST /password and its steps: a refusal is thrown (request.ts) with the server's code. */
  const passwordPost = <T = { ok: true }>(path: string, fields: Record<string, string>) => send<T>(`${base}/password${path}`, fields)
  const sessions = listed<SessionInfo>('/sessions')
  const accounts = listed<AccountInfo>('/accounts')
  const passkeys = listed<PasskeyInfo>('/passkeys')

  const client: AuthClient = {
    // The elements' language options, as given (AuthClientLanguages).
    ...spoken,
    basePath: base,
    workerRegistration,
    get status() {
      return !state ? 'loading' : state.session ? 'authenticated' : 'unauthenticated'
    },
    get session() {
      return state && (state.stale && state.session ? { ...state.session, stale: true } : state.session)
    },
    get state() {
      return state
    },
    getProviders: () => (providers ??= request<Record<string, AppProvider>>(base + '/providers').then((r) => r.data, (e) => {
      providers = undefined
      throw e
    })),
    getCsrfToken: async () => (await request<{ csrfToken: string }>(base + '/csrf')).data.csrfToken,
    async getSession() {
      const next = await read()
      if (!next.error) apply(next)
      else if (!state) {
        schedule(next.due)
        throw new AuthClientError(next.error, 'The session could not be read')
      }
      return client.session ?? null
    },
    signIn: (async (providerId?: string, options: SignInOptions = {}): Promise<SignInResult | undefined> => {
      const { callbackUrl = location.href, redirect = true, ...fields } = options
      if (!providerId) {
        const url = `${base}/signin?${new URLSearchParams({ callbackUrl })}`
        navigate(url)
        return redirect ? undefined : { ok: true, error: undefined, status: 200, url }
      }
      const provider = (await client.getProviders())[providerId]
      if (!provider) throw new AuthClientError('UnknownProvider', `No provider "${providerId}" at ${base}/providers`)
      if (provider.type === 'webauthn') {
        if (!client.passkey) throw new AuthClientError('UnknownProvider', 'Set client.passkey first')
        const { url } = await client.passkey.signIn({ ...fields, provider: providerId, callbackUrl })
        // Without a worker to see the ceremony's response pass, say that the session changed.
        await settle(`/callback/${providerId}`, new Response(null, { status: 204 }))
        if (redirect) navigate(url)
        return { ok: true, error: undefined, status: 200, url }
      }
      // An emailed code (or a plugin form's: `provider.form`) is entered where the sign-in ends; an address alone asks for the code.
      const sendsCode = provider.type === 'email' || !!provider.form
      const finishes = provider.type === 'credentials' || (sendsCode && fields.code !== undefined)
      const target = finishes ? provider.callbackUrl : provider.signinUrl
      const plain: Record<string, string> = { callbackUrl }
      for (const [k, v] of Object.entries(fields)) if (v != null) plain[k] = String(v)
      const { data, response } = await send<{ url: string; error?: string }>(target, plain)
      const url = data.url ?? null
      const error = data.error ?? errorOf(url)
      const mayStay = provider.type === 'credentials' || sendsCode
      // A link the server refused before leaving for the provider (a session too old to add a way in): the caller asks to confirm.
      if (error && fields.link) throw new AuthClientError(error, `Linking ${providerId} was refused: ${error}`)
      if (redirect || !mayStay) {
        // An OAuth sign-in goes on at the provider whatever `redirect` says.
        if (url) navigate(url)
        if (redirect) return
      } else if (!error) await settle(new URL(target).pathname.slice(new URL(base).pathname.length), response)
      return { ok: !error, error, status: response.status, url: error ? null : url }
    }) as AuthClient['signIn'],
    async signOut({ callbackUrl = location.href, redirect = true } = {}) {
      const { data, response } = await send<{ url: string }>(base + '/signout', { callbackUrl })
      await settle('/signout', response)
      if (redirect) navigate(data.url)
      return data
    },
    async update(data) {
      const { response } = await send<Session | null>(sessionUrl, { data } as any, true)
      await settle('/session', response)
      return client.session ?? null
    },
    onSessionChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    sessions: {
      list: sessions.list,
      revoke: (id) => sessions.act({ action: 'revoke', id }),
      revokeOthers: () => sessions.act({ action: 'revoke-others' }),
    },
    accounts: {
      list: accounts.list,
      link: (provider, options) => client.signIn(provider, { ...options, link: true }),
      unlink: (provider) => accounts.act({ action: 'unlink', provider }),
    },
    passkeys: {
      list: passkeys.list,
      remove: (id) => passkeys.act({ action: 'remove', id }),
      rename: (id, name) => passkeys.act({ action: 'rename', id, name }),
    },
    mfa: {
      async verify({ callbackUrl = location.href, trustDevice, ...proof }) {
        const trust = trustDevice ? { trustDevice: 'true' } : {}
        if ('passkey' in proof) {
          if (!client.passkey) throw new AuthClientError('UnknownProvider', 'Set client.passkey first: a passkey as second factor runs its ceremony')
          const reply = await client.passkey.secondFactor({ callbackUrl, trustDevice })
          await settle('/mfa/verify', new Response(null, { status: 204 }))
          return reply
        }
        const { data, response } = await send<{ url: string }>(base + '/mfa/verify', { ...proof, ...trust, callbackUrl } as Record<string, string>)
        await settle('/mfa/verify', response)
        return data
      },
      methods: async () => (await request<MfaMethods>(base + '/mfa/verify')).data,
      list: async () => (await request<MfaState>(base + '/mfa')).data,
      enroll: async (label) => (await send<MfaEnrolment>(base + '/mfa', { action: 'enroll', ...(label && { label }) })).data,
      confirm: async (id, code) => (await send<MfaState>(base + '/mfa', { action: 'confirm', id, code })).data,
      remove: async (id, proof) => (await send<MfaState>(base + '/mfa', { action: 'remove', id, ...proof } as Record<string, string>)).data,
      recoveryCodes: async (proof) => (await send<MfaState>(base + '/mfa', { action: 'recovery-codes', ...proof } as Record<string, string>)).data,
      forgetDevice: async (id) => (await send<MfaState>(base + '/mfa', { action: 'forget-device', id })).data,
    },
    password: {
      signUp: async ({ email, password, name }) => void (await passwordPost('/sign-up', { email, password, ...(name && { name }) })),
      verify: async ({ email, code }) => void (await passwordPost('/verify', { email, code })),
      resend: async (email) => void (await passwordPost('/verify-again', { email })),
      forgot: async (email) => void (await passwordPost('/forgot', { email })),
      // Every session of the user ends: this browser's too, where it was signed in as them.
      reset: async ({ email, code, password }) => settle('/password/reset', (await passwordPost('/reset', { email, code, password })).response),
      status: async () => (await request<{ hasPassword: boolean }>(base + '/password')).data,
      async set({ password, currentPassword }) {
        const { data, response } = await passwordPost<{ hasPassword: boolean }>('', { action: 'set', password, ...(currentPassword !== undefined && { currentPassword }) })
        await settle('/password', response)
        return data
      },
    },
    email: {
      async verify({ email, code, provider, callbackUrl = location.href }) {
        const id = provider ?? Object.values(await client.getProviders()).find((p) => p.type === 'email')?.id
        if (!id) throw new AuthClientError('UnknownProvider', `No email provider at ${base}/providers`)
        const result = await client.signIn(id, { email, code, callbackUrl, redirect: false })
        if (result.error) throw new AuthClientError(result.error, codeMessages[result.error] ?? `The code was refused: ${result.error}`)
        return result
      },
    },
  }
  new BroadcastChannel(channelName(sessionUrl)).onmessage = (e) => apply(e.data)
  // A page restored from the back-forward cache was frozen: it heard nothing meanwhile (a sign-out
  // in another tab, a session that fell due) and its timer did not run. Read the session again:
  // the shared record answers, or the server once it is due.
  addEventListener('pageshow', (e) => void (e.persisted && client.getSession().catch(() => {})))
  // Start at once: status leaves 'loading', and the due timer keeps the session alive.
  client.getSession().then(firstRead, firstRead)
  return client
}
