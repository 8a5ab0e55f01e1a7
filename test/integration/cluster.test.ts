/**
 * Many instances, the way Keycloak tests its clusters (issue 46, item 7): three latchkey processes
 * (A, B, C) behind haproxy, which checks their readiness route, on a PostgreSQL cluster of the
 * test's own (port 5452) with a streaming replica (5453) reached through one address that the
 * failover moves, and a Redis of its own (6392) holding the rate limits; `trustProxy: 1`, so each
 * client is the address haproxy saw (test/support/cluster.ts starts it all, as the cluster bench
 * does).
 *
 * Straight to each process's port: a session's life spread over the three; every one-time secret
 * used at once on two processes has one winner; one rate limit across the three. Then a mixed load
 * of many users through haproxy while one fault after the other is injected: kill -9 of A (then
 * started again), a PostgreSQL restart, a failover (the primary stopped, the address moved to the
 * replica before its promotion, so writes meet 25006 read-only, then promoted), a Redis restart,
 * SIGTERM to B (drained, started again). Nothing lost, undone or duplicated; no request over 5 s;
 * 5xx only inside a fault's window; after the database and Redis faults the same processes serve.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  createUsers,
  failed,
  faultSummary,
  injectFaults,
  loopback,
  MixedLoad,
  probeAnswers,
  publicOrigin,
  sessionCookie,
  startCluster,
  storedToken,
  type Cluster,
  type FaultWindow,
  type LoadAnswer,
  type Member,
} from '../support/cluster.js'
import { Jar } from '../support/jar.js'
import { secretOf, totp } from '../support/totp.js'
import { softwareAssertion, softwareRegistration } from '../webauthn/support/software-authenticator.js'

const day = 86_400_000
const asJson = { 'x-auth-return-redirect': '1' }
/** A 5xx this long after a window's end still belongs to it (an answer already on its way). */
const graceMs = 1000

let cluster: Cluster
let a: Member
let b: Member
let c: Member
beforeAll(async () => {
  cluster = await startCluster({ name: 'lkcluster', pgPort: 5452, redisPort: 6392 })
  ;[a, b, c] = cluster.members as [Member, Member, Member]
}, 120_000)
afterAll(() => cluster?.stop(), 60_000)

/** Each browser comes from an address of its own, as haproxy would say it (X-Forwarded-For, believed under trustProxy: 1). */
let addresses = 0
function browser(): Jar {
  const address = loopback(3, addresses++)
  return new Jar((request) => {
    request.headers.set('x-forwarded-for', address)
    return fetch(request, { redirect: 'manual' })
  }, publicOrigin)
}
const at = (member: Member, path: string) => `${member.origin}${path}`
/** The same browser twice: its cookies copied into another jar of its address. */
function copyOf(jar: Jar): Jar {
  const copy = browser()
  jar.cookies.forEach((value, name) => copy.cookies.set(name, value))
  return copy
}
const signedIn = (res: Response) => res.headers.getSetCookie().some((cookie) => cookie.startsWith(`${sessionCookie}=`) && !/Max-Age=0/.test(cookie))
const csrfOn = async (jar: Jar, member: Member) => ((await (await jar.get(at(member, '/auth/csrf'))).json()) as { csrfToken: string }).csrfToken
const sessionOn = async (jar: Jar, member: Member) => (await jar.get(at(member, '/auth/session'))).json()
const setClock = (offset: number) => import('node:fs/promises').then((fs) => fs.writeFile(cluster.clockFile, String(offset)))
async function signInOn(jar: Jar, member: Member, username: string, password: string): Promise<Response> {
  return jar.postForm(at(member, '/auth/callback/credentials'), { csrfToken: await csrfOn(jar, member), username, password }, asJson)
}

describe('three processes behind haproxy, on a PostgreSQL primary with a replica and one Redis', () => {
  test('sign in on A, read on B, extend on C, sign out on A: gone on B and C', async () => {
    const jar = browser()
    expect((await signInOn(jar, a, 'ada', 'lovelace')).status).toBe(200)
    const cookie = jar.cookies.get(sessionCookie)!
    const readOnB = await jar.get(at(b, '/auth/session'))
    expect(readOnB.headers.getSetCookie()).toEqual([])
    const created = Date.parse(((await readOnB.json()) as { expires: string }).expires)
    try {
      await setClock(day + 60_000)
      const extendOnC = await jar.get(at(c, '/auth/session'))
      expect(signedIn(extendOnC)).toBe(true)
      const extended = Date.parse(((await extendOnC.json()) as { expires: string }).expires)
      expect(extended).toBeGreaterThanOrEqual(created + day + 60_000)
      expect(Date.parse(((await sessionOn(jar, a)) as { expires: string }).expires)).toBe(extended)
      expect(await cluster.query('SELECT 1 AS found FROM sessions WHERE session_token = $1', [storedToken(cookie)])).toEqual([{ found: 1 }])
      const signOut = await jar.postForm(at(a, '/auth/signout'), { csrfToken: await csrfOn(jar, a) }, asJson)
      expect(signOut.status).toBe(200)
      expect(jar.cookies.has(sessionCookie)).toBe(false)
      // The cookie, kept by someone, reads as no session on the other two.
      for (const member of [b, c]) {
        const replay = browser()
        replay.cookies.set(sessionCookie, cookie)
        expect(await sessionOn(replay, member)).toBeNull()
      }
      expect(await cluster.query('SELECT 1 FROM sessions WHERE session_token = $1', [storedToken(cookie)])).toEqual([])
    } finally {
      await setClock(0)
    }
  })

  describe('every one-time secret, used at once on two processes, has one winner', () => {
    test('an email link, opened by the asking browser on A and on B', async () => {
      const jar = browser()
      const sent = cluster.expectMail('link-race@example.com')
      expect((await jar.postForm(at(a, '/auth/signin/email'), { csrfToken: await csrfOn(jar, a), email: 'link-race@example.com' }, asJson)).status).toBe(200)
      const link = new URL((await sent.mail).url!)
      const answers = await Promise.all([a, b].map((member) => copyOf(jar).get(at(member, `${link.pathname}${link.search}`))))
      expect(answers.filter(signedIn)).toHaveLength(1)
      expect(answers.find((res) => !signedIn(res))!.headers.get('location')).toMatch(/error=Verification$/)
    })

    test('an email code, posted on B and on C', async () => {
      const jar = browser()
      const sent = cluster.expectMail('code-race@example.com')
      const csrfToken = await csrfOn(jar, b)
      expect((await jar.postForm(at(b, '/auth/signin/email'), { csrfToken, email: 'code-race@example.com' }, asJson)).status).toBe(200)
      const { code } = await sent.mail
      const answers = await Promise.all([b, c].map((member) => copyOf(jar).postForm(at(member, '/auth/callback/email'), { csrfToken, email: 'code-race@example.com', code: code! }, asJson)))
      expect(answers.filter(signedIn)).toHaveLength(1)
      expect(((await answers.find((res) => !signedIn(res))!.json()) as { error: string }).error).toMatch(/^(InvalidCode|Verification)$/)
    })

    /** A Password sign-up on A: the browser, its CSRF token, and the token of the confirmation link it was sent. */
    async function signUpOnA(email: string) {
      const jar = browser()
      const csrfToken = await csrfOn(jar, a)
      const confirm = cluster.expectMail(email, 'verify-email')
      expect((await jar.postForm(at(a, '/auth/password/sign-up'), { csrfToken, email, password: 'first passphrase' }, asJson)).status).toBe(200)
      return { jar, csrfToken, token: new URL((await confirm.mail).url!).searchParams.get('token')! }
    }

    test('a sign-up’s confirmation link, posted on A and on C: one confirms', async () => {
      const email = 'confirm-race@example.com'
      const { jar, csrfToken, token } = await signUpOnA(email)
      const answers = await Promise.all([a, c].map((member) => copyOf(jar).postForm(at(member, '/auth/password/verify'), { csrfToken, email, token }, asJson)))
      const said = await Promise.all(answers.map(async (res) => `${res.status} ${((await res.json()) as { ok?: true; error?: string }).error ?? 'ok'}`))
      expect(said.sort()).toEqual(['200 ok', '400 InvalidCode'])
    })

    test('a password reset link, posted on A and on C with two new passwords: one is set', async () => {
      const email = 'reset-race@example.com'
      const { jar, csrfToken } = await signUpOnA(email)
      const reset = cluster.expectMail(email, 'reset-password')
      expect((await jar.postForm(at(a, '/auth/password/forgot'), { csrfToken, email }, asJson)).status).toBe(200)
      const token = new URL((await reset.mail).url!).searchParams.get('token')!
      const passwords = ['second passphrase', 'third passphrase']
      const answers = await Promise.all(
        [a, c].map((member, i) => copyOf(jar).postForm(at(member, '/auth/password/reset'), { csrfToken, email, token, password: passwords[i]! }, asJson)),
      )
      const oks = await Promise.all(answers.map(async (res) => res.status === 200 && ((await res.json()) as { ok?: boolean }).ok === true))
      expect(oks.filter(Boolean)).toHaveLength(1)
      // The winner's password signs in, on any process; the loser's does not.
      const signIn = async (password: string, member: Member) => {
        const someone = browser()
        return (await someone.postForm(at(member, '/auth/callback/password'), { csrfToken: await csrfOn(someone, member), email, password }, asJson)).status
      }
      expect(await signIn(passwords[oks.indexOf(true)]!, b)).toBe(200)
      expect(await signIn(passwords[oks.indexOf(false)]!, b)).toBe(401)
    })

    test('a passkey challenge, its signed answer posted on B and on C', async () => {
      const owner = browser()
      const options = async (jar: Jar, member: Member, query: Record<string, string>) =>
        ((await (await jar.get(at(member, `/auth/webauthn-options/passkey?${new URLSearchParams(query)}`))).json()) as { options: any }).options
      const post = async (jar: Jar, member: Member, action: string, data: unknown, csrfToken: string) => jar.postJson(at(member, '/auth/callback/passkey'), { action, data, csrfToken }, asJson)
      const key = softwareRegistration(await options(owner, a, { action: 'register', email: 'passkey-race@example.com' }), publicOrigin)
      expect((await post(owner, a, 'register', key.response, await csrfOn(owner, a))).status).toBe(200)
      const jar = browser()
      const assertion = softwareAssertion(key, await options(jar, b, { action: 'authenticate' }), publicOrigin)
      const csrfToken = await csrfOn(jar, b)
      const answers = await Promise.all([b, c].map((member) => post(copyOf(jar), member, 'authenticate', assertion, csrfToken)))
      expect(answers.filter(signedIn)).toHaveLength(1)
      expect(answers.find((res) => !signedIn(res))!.status).toBeGreaterThanOrEqual(400)
    })

    test('a recovery code, on B and on C, each browser past the password on its own process', async () => {
      const enrolling = browser()
      await signInOn(enrolling, a, 'mia', 'mia-pw')
      const mfa = async (fields: Record<string, string>) => (await enrolling.postForm(at(a, '/auth/mfa'), { csrfToken: await csrfOn(enrolling, a), ...fields })).json()
      const started = (await mfa({ action: 'enroll' })) as { factor: { id: string }; uri: string }
      const confirmed = (await mfa({ action: 'confirm', id: started.factor.id, code: totp(secretOf(started.uri), Date.now()) })) as { newRecoveryCodes: string[] }
      const recoveryCode = confirmed.newRecoveryCodes[0]!
      const [onB, onC] = [browser(), browser()]
      expect(await Promise.all([signInOn(onB, b, 'mia', 'mia-pw'), signInOn(onC, c, 'mia', 'mia-pw')].map(async (res) => ((await (await res).json()) as { error: string }).error))).toEqual([
        'SecondFactorRequired',
        'SecondFactorRequired',
      ])
      const tokens = await Promise.all([csrfOn(onB, b), csrfOn(onC, c)])
      const answers = await Promise.all(([[onB, b], [onC, c]] as const).map(([jar, member], i) => jar.postForm(at(member, '/auth/mfa/verify'), { csrfToken: tokens[i]!, recoveryCode }, asJson)))
      expect(answers.filter(signedIn)).toHaveLength(1)
      expect(answers.map((res) => res.status).sort()).toEqual([200, 400])
    })
  })

  describe('one rate limit across three processes', () => {
    test('the sixth email to one address in 15 minutes is refused, the asks spread over A, B and C from six addresses', async () => {
      const answers: number[] = []
      for (const member of [a, b, c, a, b, c]) {
        const jar = browser()
        answers.push((await jar.postForm(at(member, '/auth/signin/email'), { csrfToken: await csrfOn(jar, member), email: 'limited@example.com' }, asJson)).status)
      }
      expect(answers).toEqual([200, 200, 200, 200, 200, 429])
    })

    test('after ten wrong passwords from one address, spread over A, B and C, the eleventh attempt is refused, right password or not', async () => {
      const jar = browser()
      const answers: number[] = []
      for (let i = 0; i < 10; i++) answers.push((await signInOn(jar, cluster.members[i % 3]!, 'soak-777', 'wrong')).status)
      expect(answers).toEqual(Array(10).fill(401))
      expect((await signInOn(jar, c, 'soak-777', 'soak-777-pw')).status).toBe(429)
      // Another address is not held back by it.
      expect((await signInOn(browser(), a, 'soak-777', 'soak-777-pw')).status).toBe(200)
    })
  })

  test('a mixed load through haproxy survives kill -9, a PostgreSQL restart, a failover, a Redis restart and SIGTERM', async () => {
    // Seeded before the faults: sessions that must stay, and sign-outs that must stay done.
    const seeded = new MixedLoad(cluster, createUsers(40, 5000), 0)
    for (const user of seeded.users) await seeded.signIn(user)
    const stayOut = seeded.users.filter((user) => user.n % 4 === 0 || user.n % 4 === 1)
    for (const user of stayOut) await seeded.signOut(user)
    expect(seeded.users.map((user) => user.state)).toEqual(seeded.users.map((user) => (stayOut.includes(user) ? 'out' : 'in')))
    const stayIn = seeded.users.filter((user) => !stayOut.includes(user))
    expect(seeded.problems).toEqual([])

    const load = new MixedLoad(cluster, createUsers(200), 8)
    let windows: FaultWindow[]
    try {
      windows = await injectFaults(cluster)
    } finally {
      await load.stop()
    }
    const answers = load.answers
    for (const { window, requests, failed: bad, failedFor } of faultSummary(windows, answers)) {
      console.log(`${window.name}: window ${window.end - window.start} ms, ${requests} requests, ${bad} failed (5xx or no answer) over ${failedFor} ms; ${window.note}`)
    }
    console.log(`${answers.length} requests through haproxy in ${answers.at(-1)!.end - answers[0]!.at} ms, ${answers.filter(failed).length} failed, all inside a fault`)

    // Each request was answered, in time, as it should be; a 5xx (or no answer) only inside a fault.
    expect(load.problems).toEqual([])
    expect([...answers, ...probeAnswers].filter((answer) => answer.end - answer.at > 5000)).toEqual([])
    const outside = answers.filter(failed).filter((answer) => !windows.some((w) => answer.at <= w.end + graceMs && answer.end >= w.start))
    expect(outside.map((answer) => `${answer.kind} ${answer.status ?? answer.error} at ${answer.at}: ${answer.body}`)).toEqual([])
    // And each failure says what it is: latchkey's 503 StoreUnavailable with Retry-After, haproxy's own 502 or 503 (no
    // process to send to), or, for requests under way on the process killed, no answer. Never a 500.
    const inWindow = (answer: LoadAnswer) => windows.find((w) => answer.at <= w.end + graceMs && answer.end >= w.start)?.name
    const said = (answer: LoadAnswer) =>
      answer.error !== undefined
        ? `no answer in ${inWindow(answer)}`
        : answer.body.startsWith('<html>')
          ? `haproxy ${answer.status}`
          : `${answer.status} ${/"error":"(\w+)"/.exec(answer.body)?.[1]} Retry-After ${answer.retryAfter}`
    const kinds = new Map<string, number>()
    for (const answer of answers.filter(failed)) kinds.set(said(answer), (kinds.get(said(answer)) ?? 0) + 1)
    console.log(`failed as: ${[...kinds].map(([kind, count]) => `${kind} ×${count}`).join(', ')}`)
    const allowed = /^(503 StoreUnavailable Retry-After 3|haproxy 50[23]|no answer in kill -9)$/
    expect([...kinds.keys()].filter((kind) => !allowed.test(kind))).toEqual([])
    for (const w of windows) expect(answers.filter((answer) => answer.at >= w.end && answer.at < w.end + 1000).length, `load went on after ${w.name}`).toBeGreaterThan(0)
    const byName = new Map(windows.map((w) => [w.name, w]))
    // The drain failed nothing; the database and Redis faults were survived by the processes that met them.
    expect(faultSummary([byName.get('SIGTERM')!], answers)[0]!.failed).toBe(0)
    expect(byName.get('SIGTERM')!.note).toMatch(/exited 0/)
    for (const name of ['PostgreSQL restart', 'failover', 'Redis restart']) expect(byName.get(name)!.restarted, name).toEqual([])
    expect(byName.get('kill -9')!.restarted).toEqual(['A'])
    // The outages were met: 503s from latchkey, writes refused by the replica before its promotion.
    for (const name of ['PostgreSQL restart', 'failover']) expect(faultSummary([byName.get(name)!], answers)[0]!.failed, name).toBeGreaterThan(0)
    // The replica before its promotion, and Redis while down: a sign-in answers 503 StoreUnavailable, at once.
    for (const name of ['failover', 'Redis restart']) {
      const during = byName.get(name)!.during!
      expect([during.status, (JSON.parse(during.body) as { error: string }).error, during.retryAfter], name).toEqual([503, 'StoreUnavailable', '3'])
      expect(during.end - during.at, name).toBeLessThan(2000)
    }
    const errors = cluster.errors()
    expect(errors.some((line) => /\[25006\]$/.test(line))).toBe(true)
    const expected = [
      /^error (AdapterError|StoreUnavailable): The database did not answer; try again in a few seconds( \[\w{5}\])?$/,
      /^error StoreUnavailable: Readiness: the store did not answer its ping/,
      /^error StoreUnavailable: The rate-limit store failed: redisRateLimitStore: Redis did not answer/,
    ]
    expect(errors.filter((line) => !expected.some((pattern) => pattern.test(line.slice(3))))).toEqual([])

    // Nothing lost, nothing undone, nobody twice.
    for (const member of cluster.members) {
      for (const user of stayIn) {
        const jar = browser()
        user.cookies.forEach((value, name) => jar.cookies.set(name, value))
        expect(((await sessionOn(jar, member)) as { user?: { email: string } } | null)?.user?.email, `${user.username} on ${member.name}`).toBe(user.email)
      }
      for (const token of [...seeded.users, ...load.users].flatMap((user) => user.ended)) {
        const jar = browser()
        jar.cookies.set(sessionCookie, token)
        expect(await sessionOn(jar, member)).toBeNull()
      }
    }
    const held = stayIn.map((user) => storedToken(user.cookies.get(sessionCookie)!))
    expect(await cluster.query('SELECT session_token FROM sessions WHERE session_token = ANY($1)', [held])).toHaveLength(held.length)
    const ended = [...seeded.users, ...load.users].flatMap((user) => user.ended.map(storedToken))
    expect(ended.length).toBeGreaterThan(50)
    expect(await cluster.query('SELECT session_token FROM sessions WHERE session_token = ANY($1)', [ended])).toEqual([])
    for (const user of load.users.filter((u) => u.state === 'in')) await load.read(user)
    expect(load.problems).toEqual([])
    expect(await cluster.query('SELECT email, count(*) FROM users GROUP BY email HAVING count(*) > 1')).toEqual([])
    const mailUsers = load.users.filter((user) => user.way === 'email' && user.id)
    expect((await cluster.query<{ count: string }>('SELECT count(*) FROM users WHERE email = ANY($1)', [mailUsers.map((user) => user.email)]))[0]!.count).toBe(String(mailUsers.length))
  }, 120_000)
})
