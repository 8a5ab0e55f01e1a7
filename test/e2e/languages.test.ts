/**
 * The elements speak the page's language, in Chromium: an element's `lang`, the page's
 * `<html lang>`, the browser's languages and the client's `locale` each choose it; an app
 * overrides one message or adds a language; Arabic lays out right to left; plurals and "2 hours
 * ago" follow the language; a language's file is fetched only when an element speaks it (by the
 * ESM build and by the drop-in script), and one that cannot be fetched gives way to English.
 */
import type { BrowserContext, Page, Route } from 'playwright-core'
import { expect, test } from 'vitest'
import type { AuthClientOptions } from '../../src/client/index.js'
import { fill } from '../../src/core/locale.js'
import en from '../../src/locales/en/elements.js'
import ar from '../../src/locales/ar/elements.js'
import de from '../../src/locales/de/elements.js'
import es from '../../src/locales/es/elements.js'
import fr from '../../src/locales/fr/elements.js'
import ja from '../../src/locales/ja/elements.js'
import { browserAndServer, openPage, sendSignInEmail, signInWithForm } from './helpers.js'

/** A page of the app: `<html lang>`, the client's options (a JS expression), the elements. */
const appPage = (lang: string | null, options = '{}', body = '<latchkey-signin></latchkey-signin>') => `<!doctype html><html${lang ? ` lang="${lang}"` : ''}><meta charset="utf-8"><title>languages</title>
${body}
<script type="module">
import { createAuthClient, mfa, password, emailCodes, sessions, accounts } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
window.client = createAuthClient({ basePath: '/auth', serviceWorker: false, plugins: [mfa(), password(), emailCodes(), sessions(), accounts()], ...${options} })
defineElements(window.client)
window.ready = true
</script></html>`

const esperanto = { ...en, signInWith: 'Ensaluti per {name}', emailOrUsername: 'Retpoŝto aŭ uzantnomo' }
// Typed (tsc checks this file): an override names keys that exist; an added language has them all.
const typed: AuthClientOptions[] = [
  { locale: 'fr', messages: { fr: { signOut: 'Déconnexion' } }, languages: { eo: esperanto } },
  // @ts-expect-error no such key
  { messages: { fr: { signOff: 'Déconnexion' } } },
  // @ts-expect-error a language the app adds needs every key
  { languages: { it: { signInWith: 'Accedi con {name}' } } },
]
const env = browserAndServer({
  pages: {
    '/en': appPage('en'),
    '/none': appPage(null),
    '/ja': appPage('en', '{}', '<latchkey-signin lang="ja"></latchkey-signin>'),
    '/fr': appPage('fr', '{}', '<latchkey-signin></latchkey-signin><latchkey-user></latchkey-user><latchkey-sessions></latchkey-sessions>'),
    '/es': appPage('fr', "{ locale: 'es' }"),
    '/override': appPage('en', "{ messages: { en: { signInWith: 'Continue with {name}' } } }"),
    '/added': appPage('eo', `{ languages: { eo: ${JSON.stringify(esperanto)} } }`),
    '/ar': appPage('ar'),
    '/sessions': appPage('en', '{}', '<latchkey-signin></latchkey-signin><latchkey-sessions></latchkey-sessions>'),
    '/drop-in-ja': `<!doctype html><html lang="ja"><meta charset="utf-8"><title>drop-in</title>
<script src="/latchkey.iife.js" data-base-path="/auth" data-service-worker="false"></script>
<latchkey-signin></latchkey-signin><script>window.ready = true</script></html>`,
  },
})

const signin = (page: Page) => page.locator('latchkey-signin')
/** The button of the Acme provider, its words. */
const acme = (page: Page) => signin(page).locator('button[data-provider="acme"] span:not([part])')

/** Opens `path`, keeping the language files the page fetched. */
async function open(context: BrowserContext, path: string): Promise<{ page: Page; fetched: string[] }> {
  const fetched: string[] = []
  context.on('request', (r) => /\/locales\//.test(r.url()) && fetched.push(new URL(r.url()).pathname))
  const page = await openPage(context, env.server.url + path, { controlled: false })
  await expect.poll(() => acme(page).textContent()).not.toBeNull()
  return { page, fetched }
}

/** The language and direction an element's shadow content carries. */
const spoken = (page: Page, selector = 'latchkey-signin') =>
  page.locator(selector).evaluate((el) => {
    const box = el.shadowRoot!.querySelector('[lang]') as HTMLElement
    return { lang: box.lang, dir: box.dir, direction: getComputedStyle(box).direction, hostLang: el.getAttribute('lang') }
  })

test('an English page speaks English and fetches no language file', async () => {
  const context = await env.browser.newContext({ locale: 'en-US' })
  const { page, fetched } = await open(context, '/en')
  expect(await acme(page).textContent()).toBe('Sign in with Acme')
  expect(await spoken(page)).toMatchObject({ lang: 'en', dir: 'ltr', direction: 'ltr' })
  await page.waitForLoadState('networkidle')
  expect(fetched).toEqual([])
  await context.close()
})

test('lang="ja" on the element: Japanese, and only the Japanese file is fetched', async () => {
  const context = await env.browser.newContext({ locale: 'en-US' })
  const { page, fetched } = await open(context, '/ja')
  expect(ja.signInWith).not.toBe(en.signInWith)
  await expect.poll(() => acme(page).textContent()).toBe(fill('ja', ja.signInWith, { name: 'Acme' }))
  expect(await signin(page).locator('form[part~="identifier-form"] label').first().textContent()).toBe(ja.emailOrUsername)
  // The language goes on the shadow content, not on the app's element (its `lang` stays the app's).
  expect(await spoken(page)).toMatchObject({ lang: 'ja', dir: 'ltr', hostLang: 'ja' })
  await page.waitForLoadState('networkidle')
  expect(fetched).toEqual(['/locales/ja.js'])

  // The attribute changing re-renders in the new language; removed, the page's (English) again.
  await signin(page).evaluate((el) => el.setAttribute('lang', 'de'))
  await expect.poll(() => acme(page).textContent()).toBe(fill('de', de.signInWith, { name: 'Acme' }))
  await signin(page).evaluate((el) => el.removeAttribute('lang'))
  await expect.poll(() => acme(page).textContent()).toBe('Sign in with Acme')
  await context.close()
})

test('the drop-in script fetches the language file beside it, and only that one', async () => {
  const context = await env.browser.newContext({ locale: 'en-US' })
  const { page, fetched } = await open(context, '/drop-in-ja')
  await expect.poll(() => acme(page).textContent()).toBe(fill('ja', ja.signInWith, { name: 'Acme' }))
  await page.waitForLoadState('networkidle')
  expect(fetched).toEqual(['/locales/ja.js'])
  await context.close()
})

test('<html lang="fr">: French, and a change of the page language follows', async () => {
  const context = await env.browser.newContext({ locale: 'en-US' })
  const { page } = await open(context, '/fr')
  await expect.poll(() => acme(page).textContent()).toBe(fill('fr', fr.signInWith, { name: 'Acme' }))
  expect(await spoken(page)).toMatchObject({ lang: 'fr', dir: 'ltr', hostLang: null })
  await page.evaluate(() => document.documentElement.setAttribute('lang', 'es'))
  await expect.poll(() => acme(page).textContent()).toBe(fill('es', es.signInWith, { name: 'Acme' }))
  await context.close()
})

test('a language file that cannot be fetched: English, marked as English', async () => {
  const context = await env.browser.newContext({ locale: 'en-US' })
  await context.route('**/locales/fr.js', (route) => route.abort())
  const { page } = await open(context, '/fr')
  await expect.poll(() => acme(page).textContent()).toBe('Sign in with Acme')
  expect(await spoken(page)).toMatchObject({ lang: 'en', dir: 'ltr' })
  await context.close()
})

test("no page language: the browser's (navigator.languages), matched by language", async () => {
  const context = await env.browser.newContext({ locale: 'de-DE' })
  const { page, fetched } = await open(context, '/none')
  await expect.poll(() => acme(page).textContent()).toBe(fill('de', de.signInWith, { name: 'Acme' }))
  expect((await spoken(page)).lang).toBe('de')
  expect(fetched).toEqual(['/locales/de.js'])
  await context.close()
})

test("the client's locale option comes before the page's language", async () => {
  const context = await env.browser.newContext({ locale: 'en-US' })
  const { page } = await open(context, '/es')
  await expect.poll(() => acme(page).textContent()).toBe(fill('es', es.signInWith, { name: 'Acme' }))
  await context.close()
})

test('an app overrides one message; the others stay', async () => {
  const context = await env.browser.newContext({ locale: 'en-US' })
  const { page } = await open(context, '/override')
  expect(await acme(page).textContent()).toBe('Continue with Acme')
  expect(await signin(page).locator('form[part~="identifier-form"] label').first().textContent()).toBe('Email or username')
  await context.close()
})

test('an app adds a language of its own', async () => {
  expect(typed).toHaveLength(3)
  const context = await env.browser.newContext({ locale: 'en-US' })
  const { page, fetched } = await open(context, '/added')
  expect(await acme(page).textContent()).toBe('Ensaluti per Acme')
  expect(await signin(page).locator('form[part~="identifier-form"] label').first().textContent()).toBe('Retpoŝto aŭ uzantnomo')
  expect((await spoken(page)).lang).toBe('eo')
  expect(fetched).toEqual([])
  await context.close()
})

test('Arabic: right to left, the row mirrored (the logo mark on the right of the words)', async () => {
  const context = await env.browser.newContext({ locale: 'en-US' })
  const { page } = await open(context, '/ar')
  await expect.poll(() => acme(page).textContent()).toBe(fill('ar', ar.signInWith, { name: 'Acme' }))
  expect(await spoken(page)).toMatchObject({ lang: 'ar', dir: 'rtl', direction: 'rtl' })
  const legacy = signin(page).locator('button[data-provider="legacy"]')
  const mark = await legacy.locator('[part~="mark"]').boundingBox()
  const words = await legacy.locator('span:not([part])').boundingBox()
  expect(mark!.x).toBeGreaterThan(words!.x + words!.width - 1)
  // In English the mark comes first, on the left.
  await page.evaluate(() => document.documentElement.setAttribute('lang', 'en'))
  await expect.poll(() => acme(page).textContent()).toBe('Sign in with Acme')
  const markEn = await legacy.locator('[part~="mark"]').boundingBox()
  const wordsEn = await legacy.locator('span:not([part])').boundingBox()
  expect(markEn!.x + markEn!.width).toBeLessThan(wordsEn!.x + 1)
  await context.close()
})

test("a plural in two languages: the email code's length", async () => {
  const context = await env.browser.newContext({ locale: 'en-US' })
  // This server's email provider has no codes: its /providers entry says it has six digits.
  await context.route('**/auth/providers', async (route: Route) => {
    const providers = await (await route.fetch()).json()
    providers.email.code = { length: 6, numeric: true }
    await route.fulfill({ json: providers })
  })
  // The code form shows once the email went out.
  const label = async (page: Page) => {
    await sendSignInEmail(page, 'lea@example.com')
    return signin(page).locator('form[part~="code-form"] label').textContent()
  }
  const { page } = await open(context, '/en')
  expect(await label(page)).toBe('Code from the email (6 digits)')
  const { page: arabic } = await open(context, '/ar')
  await expect.poll(() => acme(arabic).textContent()).toBe(fill('ar', ar.signInWith, { name: 'Acme' }))
  // Arabic says 3 to 10 of a thing in its "few" form, not its "other".
  const few = (ar.codeFromEmailDigits as Record<string, string>).few
  expect(few).not.toBe(ar.codeFromEmailDigits.other)
  expect(await label(arabic)).toBe(few.replace('{count}', '6'))
  await context.close()
})

test('dates: "last seen 2 hours ago" in English, and in French', async () => {
  const context = await env.browser.newContext({ locale: 'en-US' })
  // The session list, with this device last seen two hours ago.
  const twoHoursAgo = new Date(Date.now() - 2 * 3600e3 - 60e3).toISOString()
  await context.route('**/auth/sessions', async (route: Route) => {
    const body = await (await route.fetch()).json()
    await route.fulfill({ json: { sessions: body.sessions.map((s: object) => ({ ...s, lastSeenAt: twoHoursAgo })) } })
  })
  const when = (page: Page) => page.locator('latchkey-sessions [part="when"]').first().textContent()
  const { page } = await open(context, '/sessions')
  await signInWithForm(page, 'ines')
  await expect.poll(() => when(page)).toMatch(/^signed in .+, last seen 2 hours ago$/)
  const created = (await when(page))!.replace(/^signed in (.+), last seen.*$/, '$1')
  // The day and time it began, as Intl.DateTimeFormat says them in English ("Nov 26, 2026, 12:20 AM").
  expect(created).toMatch(new RegExp(`^[A-Z][a-z]{2} \\d{1,2}, ${new Date().getFullYear()}, \\d{1,2}:\\d{2}\\s[AP]M$`))

  const { page: french } = await open(context, '/fr')
  await expect.poll(() => when(french)).toContain('il y a 2 heures')
  // The signed-in user element speaks French too.
  expect(await french.locator('latchkey-user button[part~="signout"]').textContent()).toBe(fr.signOut)
  await context.close()
})
