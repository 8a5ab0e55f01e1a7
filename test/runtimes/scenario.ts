/**
 * One sign-in scenario, driven over HTTP against a running app (app.ts) as a browser would, for
 * one instance: providers, CSRF, a credentials sign-in, the session read and its in-step
 * extension, sign-out, and an email link through the fetch-based sender. Answers what it saw;
 * the test asserts it.
 */
import { parseTiming, type SessionTiming } from '../../src/core/session-rule.js'
import { Jar } from '../support/jar.js'

export interface Mail {
  to: string
  url: string
}

const sessionCookie = 'latchkey.session-token'
const csrfCookie = 'latchkey.csrf-token'
const returnRedirect = { 'x-auth-return-redirect': '1' }

export async function runScenario(origin: string, base: '/jwt' | '/db' | '/pglite', mails: Mail[]) {
  const jar = new Jar((request) => fetch(request), origin)
  const advance = (seconds: number) => fetch(`${origin}/clock?advance=${seconds}`, { method: 'POST' })
  const read = async () => {
    const res = await jar.get(`${base}/session`)
    return { session: (await res.json()) as { user: { email: string }; expires: string } | null, setCookie: res.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookie}=`)), timing: parseTiming(res.headers.get('latchkey-session')) }
  }
  const csrf = async () => ((await (await jar.get(`${base}/csrf`)).json()) as { csrfToken: string }).csrfToken

  const providers = (await (await jar.get(`${base}/providers`)).json()) as Record<string, { type: string; signinUrl: string; callbackUrl: string }>
  const csrfToken = await csrf()
  const csrfIssued = jar.cookies.has(csrfCookie)

  const credentials = { username: 'ada', password: 'right' }
  const forged = await jar.postForm(`${base}/callback/credentials`, { ...credentials, csrfToken: 'forged' }, returnRedirect)
  const refused = { status: forged.status, body: (await forged.json()) as { url?: string; error?: string }, signedIn: jar.cookies.has(sessionCookie) }
  const wrong = await jar.postForm(`${base}/callback/credentials`, { username: 'ada', password: 'wrong', csrfToken }, returnRedirect)
  const wrongPassword = { status: wrong.status, body: (await wrong.json()) as { url?: string; error?: string }, signedIn: jar.cookies.has(sessionCookie) }

  const signedIn = await jar.postForm(`${base}/callback/credentials`, { ...credentials, csrfToken, callbackUrl: `${origin}/home` }, returnRedirect)
  const signIn = { status: signedIn.status, body: (await signedIn.json()) as { url?: string }, token: jar.cookies.get(sessionCookie) ?? '', timing: parseTiming(signedIn.headers.get('latchkey-session')) }
  const first = await read()
  await advance(300) // not due yet (updateAge 600): answered as it stands
  const notDue = await read()
  await advance(400) // 700 s after sign-in: due, so extended to now + maxAge
  const due = await read()
  const again = await read()

  const out = await jar.postForm(`${base}/signout`, { csrfToken: await csrf() }, returnRedirect)
  const signOut = { status: out.status, timing: parseTiming(out.headers.get('latchkey-session')), cookieLeft: jar.cookies.has(sessionCookie), after: await read() }

  const before = mails.length
  const asked = await jar.postForm(`${base}/signin/email`, { email: 'grace@example.com', csrfToken: await csrf(), callbackUrl: `${origin}/home` }, returnRedirect)
  const emailAsk = { status: asked.status, body: (await asked.json()) as { url?: string }, mails: mails.slice(before) }
  const link = emailAsk.mails[0]?.url
  const followed = link ? await jar.get(link) : undefined
  const emailLink = { status: followed?.status, location: followed?.headers.get('location'), after: await read() }
  const reused = link ? await jar.get(link) : undefined

  return {
    providers,
    csrf: { token: csrfToken, issued: csrfIssued },
    refused,
    wrongPassword,
    signIn,
    first,
    notDue,
    due,
    again,
    signOut,
    emailAsk,
    emailLink,
    reusedLink: { status: reused?.status, location: reused?.headers.get('location') },
  }
}

export type ScenarioReport = Awaited<ReturnType<typeof runScenario>>
export type { SessionTiming }
