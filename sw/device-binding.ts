/**
 * Device-bound sessions for browsers that do not bind them natively (DBSC): the worker holds a
 * non-extractable P-256 key in IndexedDB (never exported, never posted to a page), registers it
 * with the server through the same routes and proof format as a browser would, renews the short
 * bound cookie before it lapses while a tab is open, and answers a request that came back with
 * `Secure-Session-Challenge` by refreshing and replaying it once.
 */
import { createDeviceKey } from '../src/client/dbsc/device-key.js'
import { signProof } from '../src/client/dbsc/sign-proof.js'
import { fromOrigin } from '../src/client/from-origin.js'
import { openStore } from '../src/client/open-store.js'
import { timingHeader } from '../src/core/session-rule.js'

interface StoredKey {
  /** The server's session_identifier for this binding. */
  id: string
  privateKey: CryptoKey
  /** The session's `signedInAt`: a new sign-in is a new session to bind. */
  signedInAt: string
}

/** How long after a session appears the browser's own DBSC may register before the worker does. */
const nativeGrace = 2_000
/** Renew when this share of the bound cookie's life is left (a minute of the default ten). */
const renewLeft = 0.1
const challengeHeader = 'secure-session-challenge'
const registrationHeader = 'secure-session-registration'

export interface DeviceBinding {
  /** A session (by its `signedInAt`) is known: bind it where the server announced binding, unless it or the browser already did. */
  signedIn(signedInAt: string): void
  signedOut(): Promise<void>
  /** Whether this worker holds the key of the binding `id` (gone when the site's storage was purged). */
  holds(id: string): Promise<boolean>
  /** `fetch` that answers a DBSC challenge (403 or 401 with Secure-Session-Challenge) by refreshing and replaying once. */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>
  /** Resolves once no registration or renewal is under way. */
  idle(): Promise<void>
}

export function deviceBinding(base: string, origin: string, hasTabs: () => Promise<boolean>): DeviceBinding {
  const db = openStore('latchkey-device', 'keys')
  const url = (path: string) => new URL(base + path, origin).href
  let timer: ReturnType<typeof setTimeout> | undefined
  let binding: Promise<void> | undefined
  let refreshing: Promise<boolean> | undefined
  /** The sign-in last seen through (bound by us, by the browser, or not to be bound). */
  let seen: string | undefined
  /** The server said device binding is off: ask no more in this worker's life. */
  let off = false
  /**
   * The server offered binding: a sign-in's registration header, or latchkey's timing header
   * marked `dbsc` (a sign-in by navigation shows only that, on the next session read). Neither
   * latchkey with binding off nor Auth.js sends them, and both would log a request for a challenge.
   */
  let announced = false
  const heard = (response: Response) => {
    if (fromOrigin(response, origin) && (response.headers.has(registrationHeader) || /;\s*(dbsc|bound=)/.test(response.headers.get(timingHeader) ?? ''))) announced = true
  }

  const stored = async (): Promise<StoredKey | undefined> => (await db()).get('keys', 'current')

  /** The bound cookie's expiry from `Latchkey-Session: …; bound=<ms>`, as a delay on the server's clock. */
  const schedule = (response: Response) => {
    const bound = /bound=(\d+)/.exec(response.headers.get('latchkey-session') ?? '')
    if (!bound) return
    const serverNow = Date.parse(response.headers.get('date') ?? '') || Date.now()
    clearTimeout(timer)
    timer = setTimeout(async () => {
      if (await hasTabs()) await refresh().catch(() => false)
    }, Math.max((Number(bound[1]) - serverNow) * (1 - renewLeft), 1_000))
  }

  /** Signs the server's refresh challenge with the stored key; true when a new bound cookie came. */
  const refresh = (given?: { challenge: string; id: string }): Promise<boolean> =>
    (refreshing ??= (async () => {
      const key = await stored()
      if (!key || (given && given.id !== key.id)) return false
      // Sec- headers are the browser's own: a worker's fetch may not set them.
      const headers = { 'latchkey-session-id': sf(key.id) }
      let challenge = given?.challenge
      if (!challenge) {
        const asked = await fetch(url('/dbsc/refresh'), { method: 'POST', credentials: 'include', headers })
        challenge = parseChallenge(asked.headers.get(challengeHeader))?.challenge
        if (!challenge) return false
      }
      let answer: Response | undefined
      // Twice at most: a session holds one challenge, so one asked for by a request that passed at the
      // same time replaces ours, and the refusal carries the new one.
      for (let tries = 0; tries < 2 && challenge; tries++) {
        const proof = await signProof(key.privateKey, { challenge })
        answer = await fetch(url('/dbsc/refresh'), { method: 'POST', credentials: 'include', headers: { ...headers, 'secure-session-response': sf(proof) } })
        if (answer.ok) break
        challenge = answer.status === 403 ? parseChallenge(answer.headers.get(challengeHeader))?.challenge : undefined
      }
      if (answer?.ok) schedule(answer)
      return !!answer?.ok
    })().finally(() => (refreshing = undefined)))

  const register = async (signedInAt: string) => {
    if ((await stored())?.signedInAt === signedInAt) return
    await new Promise((r) => setTimeout(r, nativeGrace))
    const asked = await fetch(url('/dbsc/challenge'), { credentials: 'include', headers: { accept: 'application/json' } })
    if (asked.status === 404) off = true
    // 409: already bound (the browser did it natively, or an earlier registration of ours).
    if (!asked.ok) return
    const { challenge, path } = (await asked.json()) as { challenge: string; path: string }
    const { privateKey, publicKey } = await createDeviceKey()
    const proof = await signProof(privateKey, { challenge, publicKey })
    const answer = await fetch(new URL(path, origin).href, { method: 'POST', credentials: 'include', headers: { 'secure-session-response': sf(proof) } })
    if (!answer.ok) return
    const { session_identifier: id } = (await answer.json()) as { session_identifier: string }
    await (await db()).put('keys', { id, privateKey, signedInAt } satisfies StoredKey, 'current')
    schedule(answer)
  }

  return {
    signedIn(signedInAt) {
      if (off || !announced || seen === signedInAt || binding) return
      seen = signedInAt
      binding = register(signedInAt)
        .catch(() => {})
        .finally(() => (binding = undefined))
    },
    async signedOut() {
      clearTimeout(timer)
      seen = undefined
      await (await db()).delete('keys', 'current')
    },
    holds: async (id) => (await stored())?.id === id,
    async idle() {
      while (binding || refreshing) await Promise.allSettled([binding, refreshing])
    },
    async fetch(input, init) {
      const request = new Request(input, init)
      const replay = request.clone()
      const response = await fetch(request)
      heard(response)
      const asked = (response.status === 403 || response.status === 401) && fromOrigin(response, origin) && parseChallenge(response.headers.get(challengeHeader))
      if (!asked || !(await refresh(asked).catch(() => false))) return response
      return fetch(replay)
    },
  }
}

/** An sf-string: the challenges and ids here are base64url, so quoting is all it needs. */
const sf = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`

/** `"challenge";id="session id"`. */
function parseChallenge(header: string | null): { challenge: string; id: string } | undefined {
  const m = header ? /^\s*"((?:[^"\\]|\\.)*)"\s*;\s*id="((?:[^"\\]|\\.)*)"/.exec(header) : null
  return m ? { challenge: m[1].replace(/\\(.)/g, '$1'), id: m[2].replace(/\\(.)/g, '$1') } : undefined
}
