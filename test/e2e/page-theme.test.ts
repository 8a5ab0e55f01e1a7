/**
 * The server's built-in pages in the server's `theme`, in Chromium (issue 44, item 3): the app's
 * name and logo at the top (a loopback `http:` logo on another origin loads: the CSP's `img-src`
 * names it), the primary button filled with `brandColor`, the providers' buttons with their logos
 * and brand colours; `colorScheme: 'dark'` gives a dark page, `'auto'` follows the visitor's
 * `prefers-color-scheme`. axe finds no violation (contrast included) light and dark, and no page
 * reports a CSP violation.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Theme } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import GitHub from '../../src/providers/github.js'
import GitLab from '../../src/providers/gitlab.js'
import Password from '../../src/providers/password.js'
import { startApp } from '../oauth/harness.js'
import { browserAnd } from '../support/browser-and.js'
import { violations as axeViolations } from './axe.js'

const env = browserAnd(startApp)

// The logo, served from another origin on a loopback host, as during development.
let logoServer: Server
let logo: string
beforeAll(async () => {
  logoServer = createServer((_, res) => res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#0a7f5a"/></svg>'))
  await new Promise<void>((resolve) => logoServer.listen(0, '127.0.0.1', resolve))
  logo = `http://127.0.0.1:${(logoServer.address() as AddressInfo).port}/logo.svg`
})
afterAll(() => new Promise<void>((resolve) => logoServer?.close(() => resolve())))

function serve(theme: Theme) {
  env.server.use({
    secret: 'page-theme-test-secret-0123456789abcdef',
    adapter: MemoryAdapter(),
    theme: { name: 'Acme Notes', logo, brandColor: '#0a7f5a', ...theme },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      GitHub({ clientId: 'gh', clientSecret: 'gh-secret' }),
      GitLab({ clientId: 'gl', clientSecret: 'gl-secret' }),
      Credentials({ credentials: { username: { label: 'Username' } }, authorize: async (c) => ({ id: `user-${c.username}`, email: `${c.username}@example.com` }) }),
      Password({ breached: false, sendEmail: () => {} }),
    ],
  })
}

/** A page of the server with its CSP violations, as Chromium reports them on the console. */
async function open(path: string, colorScheme: 'light' | 'dark' = 'light', bypassCSP = false): Promise<{ page: Page; refused: string[] }> {
  const context = await env.browser.newContext({ colorScheme, bypassCSP })
  const page = await context.newPage()
  const refused: string[] = []
  page.on('console', (m) => void (/Content Security Policy/.test(m.text()) && refused.push(m.text())))
  await page.goto(`${env.server.auth}${path}`)
  return { page, refused }
}

/** axe's findings on a page, opened apart: axe is a script the page's CSP refuses. */
async function axe(path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<string[]> {
  const { page } = await open(path, colorScheme, true)
  const found = await axeViolations(page)
  await page.context().close()
  return found
}

const computed = (page: Page, selector: string, ...properties: string[]) =>
  page.locator(selector).first().evaluate((el, properties) => properties.map((p) => getComputedStyle(el).getPropertyValue(p)), properties)

/** Whether an image is shown: loaded, with a size, and its alt text. */
const image = (page: Page, selector: string) =>
  page.locator(selector).evaluate((img: HTMLImageElement) => img.decode().then(() => ({ loaded: img.naturalWidth > 0, alt: img.getAttribute('alt') })))

/** The relative luminance of an `rgb(r, g, b)` colour. */
const luminance = (rgb: string) => {
  const [r, g, b] = rgb.match(/\d+/g)!.slice(0, 3).map((c) => {
    const s = Number(c) / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}

const credentials = 'form[action$="/callback/credentials"] button'
const github = 'form[action$="/signin/github"] button'
const gitlab = 'form[action$="/signin/gitlab"] button'

describe('the built-in pages in the theme', () => {
  test('light: the name and logo at the top, the primary in brandColor, the providers with their logos; axe and the CSP find nothing', async () => {
    serve({ colorScheme: 'light' })
    const { page, refused } = await open('/signin')
    expect(await page.locator('.brand span').textContent()).toBe('Acme Notes')
    expect(await image(page, '.brand img')).toEqual({ loaded: true, alt: '' })
    expect(await computed(page, 'body', 'background-color', 'color-scheme')).toEqual(['rgb(243, 244, 246)', 'light'])
    expect(await computed(page, credentials, 'background-color', 'color')).toEqual(['rgb(10, 127, 90)', 'rgb(255, 255, 255)'])
    // The providers' buttons: their brand colour, readable words, their own logo (decorative).
    expect(await computed(page, github, 'background-color', 'color')).toEqual(['rgb(36, 41, 47)', 'rgb(255, 255, 255)'])
    expect(await computed(page, gitlab, 'background-color', 'color')).toEqual(['rgb(252, 109, 38)', 'rgb(17, 17, 17)'])
    expect(await image(page, `${github} img`)).toEqual({ loaded: true, alt: '' })
    expect(await image(page, `${gitlab} img`)).toEqual({ loaded: true, alt: '' })
    expect(await page.getByRole('button', { name: 'Sign in with GitHub' }).count()).toBe(1)
    expect(await axe('/signin')).toEqual([])
    expect(refused).toEqual([])
    await page.context().close()
  })

  test('dark: a dark page and card, light words, the same brand; on every kind of page, and axe finds nothing', async () => {
    serve({ colorScheme: 'dark' })
    const { page, refused } = await open('/signin')
    // axe is a script the pages' CSP refuses: it scans the same pages in a context apart.
    const scanned = await (await env.browser.newContext({ bypassCSP: true })).newPage()
    for (const path of ['/signin?error=AccessDenied', '/password/sign-up', '/error?error=Verification', '/verify-request', '/signout']) {
      await page.goto(`${env.server.auth}${path}`)
      const [background, scheme] = await computed(page, 'body', 'background-color', 'color-scheme')
      expect(scheme, path).toBe('dark')
      expect(luminance(background!), `${path}: ${background}`).toBeLessThan(0.02)
      expect(luminance((await computed(page, 'main', 'background-color'))[0]!), path).toBeLessThan(0.03)
      expect(luminance((await computed(page, 'main', 'color'))[0]!), path).toBeGreaterThan(0.7)
      expect(await page.locator('.brand span').textContent(), path).toBe('Acme Notes')
      if (await page.locator('button').count()) expect((await computed(page, 'form:not([action$="/signin/github"]):not([action$="/signin/gitlab"]) button', 'background-color'))[0], path).toBe('rgb(10, 127, 90)')
      await scanned.goto(`${env.server.auth}${path}`)
      expect(await axeViolations(scanned), path).toEqual([])
    }
    expect(refused).toEqual([])
    await page.context().close()
    await scanned.context().close()
  }, 90_000)

  test("auto follows the visitor's prefers-color-scheme; without a brandColor, the elements' own primary in each", async () => {
    serve({ colorScheme: 'auto', brandColor: undefined })
    const seen: Record<string, string[]> = {}
    for (const scheme of ['light', 'dark'] as const) {
      const { page } = await open('/signin', scheme)
      const [background] = await computed(page, 'body', 'background-color')
      seen[scheme] = [background!, ...(await computed(page, credentials, 'background-color', 'color'))]
      await page.context().close()
      expect(await axe('/signin', scheme), scheme).toEqual([])
    }
    expect(seen.light).toEqual(['rgb(243, 244, 246)', 'rgb(31, 35, 40)', 'rgb(255, 255, 255)'])
    expect(seen.dark).toEqual(['rgb(13, 17, 23)', 'rgb(240, 243, 246)', 'rgb(22, 24, 28)'])
  })
})
