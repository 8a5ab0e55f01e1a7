/**
 * In Chromium, through the service worker: a browser that holds only an Auth.js session cookie
 * (a database session `@auth/core` 0.41 made through the app's store, or its JWT) opens the app and
 * is signed in without a sign-in. The worker's /session read takes the session over: the browser then holds
 * latchkey's cookie and not Auth.js's, and a reload reads latchkey's own.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { Adapter as AuthjsAdapter } from '@auth/core/adapters'
import { describe, expect, test } from 'vitest'
import { browserAndServer, markDue, openPage } from '../e2e/helpers.js'
import { authjsDatabaseCookies, authjsJwtCookies, authjsSecret, oldUser } from './authjs.js'


// Minted first: run after the database test above (its @auth/core email sign-in), this credentials
// sign-in was answered with a 500 in this file (seen here, the cause in @auth/core not traced).
const jwtCookies = await authjsJwtCookies()
const jwt = browserAndServer({ strategy: 'jwt', migrateFrom: { authjs: { until: new Date(Date.now() + 30 * 86400_000), secret: authjsSecret } } })

describe('an Auth.js JWT session in the browser, through the worker', { timeout: 60_000 }, () => {
  test("a JWT cookie @auth/core made is read through the worker; latchkey's own JWT replaces it", async () => {
    const { browser, server } = jwt
    const old = jwtCookies
    const context = await browser.newContext()
    try {
      const page = await openPage(context, server.url + '/')
      await page.waitForFunction(() => window.client.status === 'unauthenticated')
      await context.addCookies([...old].map(([name, value]) => ({ name, value, url: server.url, httpOnly: true, sameSite: 'Lax' as const })))
      await page.evaluate(markDue)
      await page.reload()
      await page.waitForFunction(() => window.ready === true && navigator.serviceWorker.controller !== null && window.client.status !== 'loading')
      expect(await page.evaluate(() => window.client.session?.user.email ?? null)).toBe(oldUser.email)
      const cookies = await context.cookies(server.url)
      expect(cookies.map((c) => c.name).filter((n) => n.startsWith('authjs.'))).toEqual([])
      const latchkey = cookies.find((c) => c.name === 'latchkey.session-token')
      expect(latchkey?.httpOnly).toBe(true)
      await page.reload()
      await page.waitForFunction(() => window.ready === true && window.client.status !== 'loading')
      expect(await page.evaluate(() => window.client.session?.user.email ?? null)).toBe(oldUser.email)
    } finally {
      await context.close()
    }
  })
})
