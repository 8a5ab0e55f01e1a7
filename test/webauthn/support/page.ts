/** The test page's script: the passkey client, the raw browser ceremonies, and session helpers. */
import { startAuthentication, startRegistration } from '@simplewebauthn/browser'
import { passkey, PasskeyError } from '../../../src/client/passkey/index.js'
// The passkey plugin's own client, without a session client: these tests count the page's requests.
import { createPasskeyClient } from '../../../src/client/passkey/client.js'
import { createAuthClient } from '../../../src/client/create-auth-client.js'

let sdk: ReturnType<typeof makeClient> | undefined
const makeClient = () => createAuthClient({ serviceWorker: false, plugins: [passkey()] })

const csrf = async (): Promise<string> => ((await (await fetch('/auth/csrf', { credentials: 'include' })).json()) as { csrfToken: string }).csrfToken

/** Runs a client call and returns its outcome as plain data, so the test can read errors. */
async function outcome<T>(run: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; name: string; code?: string; reason?: string; message: string }> {
  try {
    return { ok: true, value: await run() }
  } catch (e) {
    const error = e as Error
    return error instanceof PasskeyError
      ? { ok: false, name: error.name, code: error.code, reason: error.reason, message: error.message }
      : { ok: false, name: error.name, message: error.message }
  }
}

Object.assign(window, {
  passkey: createPasskeyClient({ basePath: '/auth', getCsrfToken: csrf }),
  webauthn: { startAuthentication, startRegistration },
  outcome,
  pending: {} as Record<string, Promise<unknown>>,
  session: async () => (await fetch('/auth/session', { credentials: 'include' })).json(),
  signOut: async () => {
    await fetch('/auth/signout', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', 'x-auth-return-redirect': '1' },
      body: JSON.stringify({ csrfToken: await csrf() }),
    })
  },
  /** The SDK's client with the passkey plugin, sessions kept in the page (made on demand, once, so other tests do without it). */
  authClient: () => (sdk ??= makeClient()),
  /** Signs in with the credentials provider (a password), as a form post would. */
  signInWithPassword: async (username: string) => {
    const res = await fetch('/auth/callback/credentials', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', 'x-auth-return-redirect': '1' },
      body: JSON.stringify({ csrfToken: await csrf(), username, password: 'right' }),
    })
    return res.status
  },
  /** Records every Signal API call (then lets the browser's own method run), in `window.signals`. */
  recordSignals: () => {
    const calls: Array<{ method: string; options: unknown }> = []
    const api = PublicKeyCredential as unknown as Record<string, (o: unknown) => Promise<void>>
    for (const method of ['signalUnknownCredential', 'signalAllAcceptedCredentials', 'signalCurrentUserDetails']) {
      const own = api[method]
      api[method] = (options: unknown) => {
        calls.push({ method, options })
        return own ? own.call(PublicKeyCredential, options) : Promise.resolve()
      }
    }
    Object.assign(window, { signals: calls })
  },
  ready: true,
})
