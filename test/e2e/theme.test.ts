/**
 * The elements' one theme, in Chromium: by default no surface of their own (the app's card shows
 * through), the app's text colour, the page's `color-scheme` for the one filled primary action and
 * quiet buttons for the rest; the custom properties and `::part()` restyle them; and every element
 * that draws a box of its own has a `part`.
 */
import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { browserAndServer, continueAs, openPage, signInWithForm, userName } from './helpers.js'

/** An app's page: its card in `scheme`, the elements in it, `css` of the app's own. */
const appPage = (scheme: 'light' | 'dark', css = '') => `<!doctype html><html lang="en" style="color-scheme:${scheme}"><meta charset="utf-8"><title>theme</title>
<style>body{margin:0;background:${scheme === 'dark' ? '#0d1117' : '#f3f4f6'}}#card{margin:2rem;padding:1.5rem;background:${scheme === 'dark' ? 'rgb(22, 27, 34)' : 'rgb(255, 255, 255)'};color:${scheme === 'dark' ? 'rgb(230, 237, 243)' : 'rgb(17, 24, 39)'}}${css}</style>
<div id="card"><latchkey-signin></latchkey-signin><latchkey-user></latchkey-user><latchkey-sessions></latchkey-sessions><latchkey-accounts></latchkey-accounts><latchkey-mfa></latchkey-mfa></div>
<script type="module">
import { createAuthClient, accounts, emailCodes, mfa, password, sessions } from '/latchkey.js'
import { defineElements } from '/latchkey-components.js'
window.client = createAuthClient({ basePath: '/auth', serviceWorker: false, plugins: [mfa(), password(), emailCodes(), sessions(), accounts()] })
defineElements(window.client)
window.ready = true
</script></html>`

const themed = `
latchkey-signin, latchkey-user {
  --latchkey-primary: rgb(1, 2, 3); --latchkey-primary-text: rgb(250, 250, 250); --latchkey-surface: rgb(9, 9, 9);
  --latchkey-text: rgb(200, 201, 202); --latchkey-muted: rgb(150, 151, 152); --latchkey-border: rgb(7, 8, 9);
  --latchkey-radius: 3px; --latchkey-font: 20px serif; --latchkey-space: 10px;
}
latchkey-signin::part(divider) { color: rgb(4, 5, 6); }
latchkey-signin::part(continue) { text-transform: uppercase; }`

const env = browserAndServer({ mfa: true, password: true, pages: { '/light': appPage('light'), '/dark': appPage('dark'), '/themed': appPage('light', themed) } })

const signin = (page: Page) => page.locator('latchkey-signin')
const style = (page: Page, selector: string, ...properties: string[]) =>
  signin(page).locator(selector).first().evaluate((el, properties) => properties.map((p) => getComputedStyle(el).getPropertyValue(p)), properties)

async function open(path: string): Promise<Page> {
  const page = await openPage(await env.browser.newContext(), env.server.url + path, { controlled: false })
  await signin(page).locator('[part~="continue"]').waitFor()
  return page
}

test('by default: no surface of their own, the card\'s text colour, the page\'s color-scheme for the one primary action, quiet buttons for the rest', async () => {
  const primary: Record<string, string> = {}
  for (const scheme of ['light', 'dark'] as const) {
    const page = await open('/' + scheme)
    const text = scheme === 'dark' ? 'rgb(230, 237, 243)' : 'rgb(17, 24, 39)'
    expect(await signin(page).evaluate((el) => getComputedStyle(el).backgroundColor), scheme).toBe('rgba(0, 0, 0, 0)')
    expect(await style(page, '[part~="container"]', 'background-color', 'color'), scheme).toEqual(['rgba(0, 0, 0, 0)', text])
    expect(await style(page, 'input[part~="identifier"]', 'background-color', 'color'), scheme).toEqual(['rgba(0, 0, 0, 0)', text])
    const [background, color] = await style(page, '[part~="continue"]', 'background-color', 'color')
    expect(background).not.toBe(color)
    primary[scheme] = background!
    await continueAs(page, 'ada@example.com')
    // The one filled action of the step; its choices and Back are quiet, in the card's colour.
    expect(await style(page, '[part~="ways-step"] [part~="primary"]', 'background-color')).toEqual([background])
    for (const quiet of ['[part~="choice"]', '[part~="back"]']) expect(await style(page, `[part~="ways-step"] ${quiet}`, 'background-color', 'color'), quiet).toEqual(['rgba(0, 0, 0, 0)', text])
    await page.context().close()
  }
  expect(primary.light).not.toBe(primary.dark)
})

test('the custom properties and ::part() restyle every element', async () => {
  const page = await open('/themed')
  expect(await signin(page).evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color, getComputedStyle(el).fontFamily, getComputedStyle(el).fontSize])).toEqual(['rgb(9, 9, 9)', 'rgb(200, 201, 202)', 'serif', '20px'])
  expect(await style(page, '[part~="continue"]', 'background-color', 'color', 'border-top-left-radius', 'text-transform')).toEqual(['rgb(1, 2, 3)', 'rgb(250, 250, 250)', '3px', 'uppercase'])
  expect(await style(page, 'input[part~="identifier"]', 'border-top-color')).toEqual(['rgb(7, 8, 9)'])
  expect(await style(page, '[part~="divider"]', 'color')).toEqual(['rgb(4, 5, 6)'])
  expect(await style(page, '[part~="container"]', 'row-gap')).toEqual(['10px'])
  await signInWithForm(page, 'tess')
  await expect.poll(() => userName(page).textContent()).toBe('tess')
  expect(await page.locator('latchkey-user [part~="signout"]').evaluate((el) => getComputedStyle(el).borderTopColor)).toBe('rgb(7, 8, 9)')
  await page.context().close()
})

/** The elements in `host`'s shadow root that draw a box of their own and have no part: none is left out of `::part()`. */
const unparted = (page: Page, host: string) =>
  page.locator(host).evaluate((el) => {
    const inline = new Set(['style', 'slot', 'span', 'bdi', 'code'])
    return [...el.shadowRoot!.querySelectorAll('*')]
      .filter((e) => !inline.has(e.localName) && !e.hasAttribute('part') && !(e.parentNode === el.shadowRoot && e.hasAttribute('lang')))
      .map((e) => `${e.localName}.${e.className}`)
  })

test('every element that draws a box of its own has a part, in every step and signed in', async () => {
  const page = await open('/light')
  expect(await unparted(page, 'latchkey-signin'), 'the first step').toEqual([])
  await continueAs(page, 'ada@example.com')
  expect(await unparted(page, 'latchkey-signin'), 'the ways offered').toEqual([])
  await signin(page).locator('[part~="foot"] [part~="signup"]').click()
  expect(await unparted(page, 'latchkey-signin'), 'the sign-up').toEqual([])
  await signin(page).locator('[part~="signup-step"] [part~="back"]').click()
  await signInWithForm(page, 'parts')
  await expect.poll(() => userName(page).textContent()).toBe('parts')
  await page.locator('latchkey-sessions [part~="session"]').waitFor()
  await page.locator('latchkey-mfa [part~="enroll"]').click()
  await page.locator('latchkey-mfa [part~="qr"]').waitFor()
  for (const host of ['latchkey-user', 'latchkey-sessions', 'latchkey-accounts', 'latchkey-mfa']) expect(await unparted(page, host), host).toEqual([])
  await page.context().close()
})
