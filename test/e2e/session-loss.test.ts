/**
 * The browsers' own ways of losing a session, in Chromium, Firefox and WebKit (test/support/engines):
 * - Safari's purge of a site unvisited for 7 days (IndexedDB, service-worker registrations and
 *   caches deleted, cookies kept): the next load still knows the user and registers the worker
 *   again; a device-bound session whose key went with it ends in a clean sign-out once its short
 *   cookie lapses, and the next sign-in is bound to a new key.
 * - Firefox with no service worker (its private windows, some privacy settings): the page engine
 *   signs in, tells the other tab over BroadcastChannel, and signs out.
 * - A page restored from the back-forward cache reads the session again on `pageshow` and shows a
 *   sign-out that happened while it was away, in each engine whose driver restores from bfcache.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { startAppServer, type AppServer } from '../support/app-server.js'
import { engineForTests, installedEngines, launchEngine, type Engine, type Profile, type Tab } from '../support/engines/index.js'
import { ensureBuilt } from './ensure-built.js'
import { holdsDeviceKey, markDue } from './helpers.js'

let server: AppServer
/** Device-bound sessions: a week long, extended daily, the short bound cookie living 10 minutes. */
let bound: AppServer
const cookieMaxAge = 600

beforeAll(async () => {
  await ensureBuilt()
  ;[server, bound] = await Promise.all([startAppServer(), startAppServer({ maxAge: 7 * 86400, updateAge: 86400, deviceBound: cookieMaxAge })])
}, 120_000)
afterAll(async () => {
  await server?.close()
  await bound?.close()
})


const loaded = (tab: Tab) => tab.waitFor(() => (window as any).ready === true && window.client.status !== 'loading')
const controlled = (tab: Tab) => tab.waitFor(() => navigator.serviceWorker?.controller?.scriptURL.includes('/latchkey-sw.js') === true)
const statusIs = (tab: Tab, status: string) => tab.waitFor((s) => window.client.status === s, status)
const emailOf = (tab: Tab) => tab.evaluate(() => window.client.session?.user.email ?? null)
const signIn = (tab: Tab, username: string) => tab.evaluate((u) => window.client.signIn('credentials', { username: u, password: 'secret', redirect: false }).then((r) => r.ok), username)
const signOut = (tab: Tab) => tab.evaluate(() => window.client.signOut({ redirect: false }).then(() => undefined))
const count = (app: AppServer, key: string) => app.requests.get(key) ?? 0

describe.each(installedEngines('test/e2e/session-loss.test.ts'))('%s', { timeout: 90_000 }, (name) => {
  const { newProfile } = engineForTests(name)

  test('the site data purged, cookies kept: the next load knows the user and registers the worker again', async () => {
    const profile = await newProfile()
    const tab = await profile.newTab(server.url + '/')
    await loaded(tab)
    await controlled(tab)
    expect(await signIn(tab, `${name}-purged`)).toBe(true)
    await statusIs(tab, 'authenticated')

    await tab.clearSiteData()
    await tab.reload()
    await loaded(tab)
    expect(await emailOf(tab)).toBe(`${name}-purged@example.com`)
    expect(await tab.evaluate(() => window.client.workerRegistration.then((r) => r.status))).toBe('registered')
    await controlled(tab)
    // The new worker serves the session: a second tab hears the sign-out through it.
    const two = await profile.newTab(server.url + '/')
    await loaded(two)
    await controlled(two)
    expect(await emailOf(two)).toBe(`${name}-purged@example.com`)
    await signOut(tab)
    await statusIs(two, 'unauthenticated')
  })

  test('a device-bound session whose key was purged ends in a clean sign-out when its short cookie lapses; the next sign-in binds a new key', async () => {
    const registered = () => count(bound, 'POST /auth/dbsc/register (proof)')
    const tab = await (await newProfile()).newTab(bound.url + '/')
    await loaded(tab)
    await controlled(tab)
    const before = registered()
    expect(await signIn(tab, `${name}-bound`)).toBe(true)
    await expect.poll(registered, { timeout: 15_000 }).toBe(before + 1)
    // The server counts the proof as it arrives; the worker stores the key only after the server
    // bound the session and answered. Purge before that, and a key stored late outlives the purge.
    await tab.waitFor(holdsDeviceKey, undefined, 15_000)

    await tab.clearSiteData()
    await tab.reload()
    await loaded(tab)
    // The short cookie still lives: the user is known, with no key to renew it.
    expect(await emailOf(tab)).toBe(`${name}-bound@example.com`)
    await controlled(tab)
    const signOuts = count(bound, 'POST /auth/signout')
    bound.advance((cookieMaxAge + 1) * 1000)
    // The app's next call meets the lapsed cookie: the worker has no key for the challenge, reads
    // the session again, and ends it rather than answer "refresh required" for ever.
    expect(await tab.evaluate(() => fetch('/api/me').then((r) => r.status))).toBe(401)
    await statusIs(tab, 'unauthenticated')
    expect(await tab.evaluate(() => window.client.state?.ended)).toBe('DeviceKeyMissing')
    expect(count(bound, 'POST /auth/signout')).toBe(signOuts + 1)
    // The server ended the session and cleared its cookie: a plain read says signed out, not 403.
    expect(await tab.evaluate(() => fetch('/auth/session').then(async (r) => `${r.status} ${await r.text()}`))).toBe('200 null')

    expect(await signIn(tab, `${name}-bound`)).toBe(true)
    await expect.poll(registered, { timeout: 15_000 }).toBe(before + 2)
    // The refresh after the lapse signs with the new key: wait until the worker stored it.
    await tab.waitFor(holdsDeviceKey, undefined, 15_000)
    bound.advance((cookieMaxAge + 1) * 1000)
    expect(await tab.evaluate(() => fetch('/api/me').then((r) => r.status))).toBe(200)
  })

  test('a page restored from the back-forward cache reads the session again: a sign-out on another device shows', async () => {
    const profile = await newProfile()
    const user = `${name}-bfcache`
    const away = await profile.newTab(server.url + '/?bfcache')
    await loaded(away)
    await controlled(away)
    expect(await signIn(away, user)).toBe(true)
    // Firefox keeps no page in the cache that has a request under way when it is left: let the
    // signed-in page's elements finish reading their lists first.
    await away.waitFor(() => !!document.querySelector('latchkey-mfa')?.shadowRoot?.querySelector('button[part~="enroll"]'))
    await server.idle()
    await away.goto(server.url + '/offline.html')
    // While the page sits in the cache, another device ends the session and the shared record
    // falls due. No tab is told (a sign-out in this browser would be, and Chromium and Firefox
    // evict a cached page that a BroadcastChannel message reaches): only a read on restore shows it.
    await server.endSessions(user)
    await away.evaluate(markDue)
    await away.back()
    await away.waitFor(() => (window as any).ready === true)
    expect(await away.evaluate(() => window.restored)).toBe(1)
    await statusIs(away, 'unauthenticated')
  })
})

describe.runIf(installedEngines('test/e2e/session-loss.test.ts').includes('firefox'))('firefox with no service worker (dom.serviceWorkers.enabled = false)', () => {
  let engine: Engine
  let profile: Profile | undefined
  beforeAll(async () => void (engine = await launchEngine('firefox', { serviceWorkers: false })))
  afterAll(async () => {
    await profile?.close()
    await engine?.close()
  })

  test('the page engine signs in, the other tab hears it over BroadcastChannel, and signs out', async () => {
    profile = await engine.newProfile()
    // The page asks for latchkey's worker, as the other tests' pages do; Firefox has none to give.
    const [one, two] = [await profile.newTab(server.url + '/'), await profile.newTab(server.url + '/')]
    for (const tab of [one, two]) await loaded(tab)
    expect(await one.evaluate(() => typeof navigator.serviceWorker)).toBe('undefined')
    expect(await one.evaluate(() => window.client.workerRegistration.then((r) => r.status))).toBe('off')
    expect(await signIn(one, 'firefox-nosw')).toBe(true)
    await statusIs(two, 'authenticated')
    expect(await emailOf(two)).toBe('firefox-nosw@example.com')
    await two.reload()
    await loaded(two)
    expect(await emailOf(two)).toBe('firefox-nosw@example.com')
    await signOut(two)
    await statusIs(one, 'unauthenticated')
  })
})
