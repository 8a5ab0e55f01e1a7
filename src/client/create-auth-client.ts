/**
 * `createAuthClient()`: the browser SDK over the Auth.js REST protocol. Session reads go to the
 * service worker when the page's controller includes latchkey's, else to the same engine run in
 * the page.
 */
import { AuthClientError } from './errors.js'
import { post, request, type Reply } from './request.js'
import { notLatchkeyAdvice, warnOnce } from './why-unreachable.js'
import { channelName } from './channel-name.js'
import type { WorkerRegistrationResult } from './register-worker.js'
import type { Engine } from './session-engine.js'
import type { AppProvider, Session, SessionState } from './types.js'
import type { AuthClient, SignInOptions, SignInResult, WayIn } from './auth-client.js'
import type { AuthClientSetup, AuthClientWith, ClaimedSignIn, ClientKernel, ClientPlugin } from './plugin.js'
import { workerBridge } from './worker-bridge.js'

/** The plugin that claims the sign-ins of each kind the core cannot run itself: named when the app did not pass it. */
const claimedBy: Record<string, string> = { webauthn: 'passkey' }
const errorOf = (url: string | null) => (url ? (new URL(url, location.href).searchParams.get('error') ?? undefined) : undefined)

function navigate(url: string) {
  location.href = url
  // A hash-only change does not reload the page.
  if (url.includes('#')) location.reload()
}

/**
 * The client, with the namespace of each plugin passed. The session is typed as the server's
 * `SessionOf<typeof auth>` with `server: typeOf<typeof auth>()`, or `createAuthClient<typeof auth>()`
 * where no plugin is passed (TypeScript infers all type arguments or none).
 */
export function createAuthClient<A = unknown, const P extends readonly ClientPlugin[] = []>(options: AuthClientSetup<P, A> = {}): AuthClientWith<P, A> {
  const { basePath = '/auth', serviceWorker: asked = true, plugins = [] as unknown as P, server: _, ...spoken } = options
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
  let serverPlugins: Promise<readonly string[] | undefined> | undefined

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
    const once = async () => post<T>(url, await client.getCsrfToken(), fields, json, base)
    let reply: Reply<T>
    try {
      reply = await once()
    } catch (e) {
      if ((e as AuthClientError).code === 'MissingCSRF') return once()
      throw e
    }
    return errorOf((reply.data as { url?: string } | null)?.url ?? null) === 'MissingCSRF' ? once() : reply
  }

  const claims: Array<[(provider: AppProvider) => boolean, ClaimedSignIn]> = []

  const client: AuthClient<any> = {
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
    // Any failure (Auth.js or an older latchkey has no such route) is "unknown", kept: the elements then go by the client's plugins, as they did before it.
    getPlugins: () => (serverPlugins ??= request<{ plugins: string[] }>(base + '/plugins').then((r) => r.data.plugins, () => undefined)),
    getCsrfToken: async () => (await request<{ csrfToken: string }>(base + '/csrf')).data.csrfToken,
    async getSession() {
      const next = await read()
      if (!next.error) apply(next)
      else if (!state) {
        schedule(next.due)
        const advice = next.error === 'NotLatchkey' ? notLatchkeyAdvice(sessionUrl) : undefined
        if (advice) warnOnce('not-latchkey', advice)
        throw new AuthClientError(next.error, advice ?? 'The session could not be read')
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
      const claimed = claims.find(([knows]) => knows(provider))
      if (claimed) {
        const { url } = await claimed[1](provider, { ...fields, callbackUrl })
        // Without a worker to see the sign-in's response pass, say that the session changed.
        await settle(`/callback/${providerId}`, new Response(null, { status: 204 }))
        if (redirect) navigate(url)
        return { ok: true, error: undefined, status: 200, url }
      }
      const claimant = claimedBy[provider.type]
      if (claimant) throw new AuthClientError('UnknownProvider', `A ${provider.type} sign-in needs the ${claimant} plugin: createAuthClient({ plugins: [${claimant}()] })`)
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
    waysIn: [],
  }
  const kernel: ClientKernel = {
    client,
    base,
    get: async (path) => (await request<any>(base + path)).data,
    send: (path, fields, json) => send(base + path, fields, json),
    settle: (path, response = new Response(null, { status: 204 })) => settle(path, response),
    claimSignIn: (knows, signIn) => void claims.push([knows, signIn]),
    use(plugin) {
      if (plugin.name in client) throw new Error(`latchkey: two plugins, or a plugin and the client, are both named "${plugin.name}"`)
      ;(client as unknown as Record<string, unknown>)[plugin.name] = plugin.setup(kernel)
      ;(client.waysIn as WayIn[]).push(...(plugin.waysIn ?? []))
    },
  }
  plugins.forEach(kernel.use)
  new BroadcastChannel(channelName(sessionUrl)).onmessage = (e) => apply(e.data)
  // A page restored from the back-forward cache was frozen: it heard nothing meanwhile (a sign-out
  // in another tab, a session that fell due) and its timer did not run. Read the session again:
  // the shared record answers, or the server once it is due.
  addEventListener('pageshow', (e) => void (e.persisted && client.getSession().catch(() => {})))
  // Start at once: status leaves 'loading', and the due timer keeps the session alive.
  client.getSession().then(firstRead, firstRead)
  return client as AuthClientWith<P, A>
}
