/**
 * Each element's states on the demo's page, for docs/elements.md: the sign-in steps (the
 * identifier, the ways for an address, a wrong password, sign-up, forgot), signed in
 * (`<latchkey-user>`) and `<latchkey-profile>`; in English and Arabic, light and dark, at 390
 * and 1280 px (`<state>-<lang>-<scheme>-<width>.png`). Then the three example themes of
 * docs/elements.md, its own css, on the sign-in element (`theme-<name>.png`).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { smallPng } from './small-png.js'

export const langs = ['en', 'ar'] as const
export const schemes = ['light', 'dark'] as const
export const widths = [390, 1280] as const

/** A state: how to reach it from a fresh signed-out page, and which element to shoot. */
interface State {
  name: string
  element: string
  reach(page: Page, element: Locator): Promise<void>
}

const part = (element: Locator, name: string) => element.locator(`[part~="${name}"]`)

async function continueWith(element: Locator, identifier: string): Promise<void> {
  await part(element, 'identifier').fill(identifier)
  await part(element, 'continue').click()
  await part(element, 'ways-step').waitFor()
}

async function signIn(page: Page, element: Locator): Promise<void> {
  await continueWith(element, 'demo')
  await element.locator('form[part~="credentials-form"] input[name=password]').fill('demo')
  await element.locator('form[part~="credentials-form"] button[type=submit]').click()
  await page.locator('#panel-status', { hasText: /Signed in/ }).waitFor()
}

export const states: State[] = [
  { name: 'signin-identifier', element: 'latchkey-signin', reach: async (_page, element) => void (await part(element, 'identifier').waitFor()) },
  { name: 'signin-ways', element: 'latchkey-signin', reach: (_page, element) => continueWith(element, 'ada@example.com') },
  {
    name: 'signin-error',
    element: 'latchkey-signin',
    reach: async (_page, element) => {
      // Another name than the one signed in below: wrong passwords count against an account.
      await continueWith(element, 'nobody')
      await element.locator('form[part~="credentials-form"] input[name=password]').fill('not the password')
      await element.locator('form[part~="credentials-form"] button[type=submit]').click()
      await element.locator('[role="alert"]:not(:empty)').first().waitFor()
    },
  },
  {
    name: 'signin-sign-up',
    element: 'latchkey-signin',
    reach: async (_page, element) => {
      await part(element, 'signup').first().click()
      await part(element, 'signup-form').waitFor()
    },
  },
  {
    name: 'signin-forgot',
    element: 'latchkey-signin',
    reach: async (_page, element) => {
      await continueWith(element, 'ada@example.com')
      await part(element, 'ways-step').locator('[part~="foot"] [part~="forgot"]').click()
      await element.locator('form[part~="forgot-form"]').waitFor()
    },
  },
  {
    name: 'user-signed-in',
    element: 'latchkey-user',
    reach: async (page) => {
      await signIn(page, page.locator('latchkey-signin').first())
      await page.locator('latchkey-user button', { hasText: /./ }).first().waitFor()
    },
  },
  {
    name: 'profile',
    element: 'latchkey-profile',
    reach: async (page) => {
      await signIn(page, page.locator('latchkey-signin').first())
      // One session listed, as a person's own profile shows: the other shots' sign-ins ended.
      const sessions = page.locator('latchkey-sessions [part~="session"]')
      await sessions.first().waitFor()
      const endOthers = page.locator('latchkey-sessions [part~="end-others"]')
      if (await endOthers.isVisible()) await endOthers.click()
      await sessions.nth(1).waitFor({ state: 'detached' })
      await page.locator('latchkey-accounts [part~="connect"]').first().waitFor()
    },
  },
]

/** Put `element` in a card of the scheme in `lang`, as an app draws one; resolves once it speaks it. */
async function dress(element: Locator, lang: string, scheme: string): Promise<void> {
  await element.evaluate((el, [lang, scheme]) => {
    el.setAttribute('lang', lang)
    Object.assign((el as HTMLElement).style, { display: 'block', colorScheme: scheme, background: 'Canvas', color: 'CanvasText', padding: '16px', margin: '0' })
  }, [lang, scheme])
  // Attached, not visible: a signed-out <latchkey-user> draws an empty box.
  await element.locator(`[lang="${lang}"]`).first().waitFor({ state: 'attached' })
}

/** `only`: the states' names to take; all when empty. */
export async function shootStates(browser: Browser, origin: string, out: string, only: string[] = []): Promise<string[]> {
  const written: string[] = []
  for (const state of states.filter((s) => !only.length || only.includes(s.name))) {
    for (const lang of langs) {
      for (const scheme of schemes) {
        for (const width of widths) {
          // A context of its own: no cookie carries a sign-in from one shot to the next.
          const context = await browser.newContext({ viewport: { width, height: 1000 }, colorScheme: scheme, deviceScaleFactor: 1 })
          context.setDefaultTimeout(30_000)
          const page = await context.newPage()
          await page.goto(origin + '/')
          await page.locator('#panel-status', { hasText: 'Signed out' }).waitFor()
          // Every element speaks the language before the state is reached, so its words are the state's.
          for (const tag of ['latchkey-signin', 'latchkey-user', 'latchkey-profile']) {
            if (tag === 'latchkey-signin' || tag === state.element) await dress(page.locator(tag).first(), lang, scheme)
          }
          const element = page.locator(state.element).first()
          await state.reach(page, element)
          await dress(element, lang, scheme)
          const file = join(out, `${state.name}-${lang}-${scheme}-${width}.png`)
          writeFileSync(file, smallPng(await element.screenshot()))
          written.push(file)
          console.log(`wrote ${file}`)
          await context.close()
        }
      }
    }
  }
  return written
}

/** The three example themes of docs/elements.md's "Theming", as written there: its css blocks, in order. */
export function exampleThemes(markdown: string): Array<{ name: string; css: string }> {
  const theming = markdown.slice(markdown.indexOf('\n## Theming'), markdown.indexOf('\n### The account settings elements'))
  const blocks = [...theming.matchAll(/```css\n([\s\S]*?)```/g)].map((m) => m[1])
  const names = ['brand', 'dark-card', 'compact']
  if (blocks.length !== names.length) throw new Error(`docs/elements.md: expected ${names.length} css blocks under "Theming", found ${blocks.length}`)
  return blocks.map((css, i) => ({ name: names[i], css }))
}

export async function shootThemes(browser: Browser, origin: string, out: string, markdown: string): Promise<string[]> {
  const written: string[] = []
  for (const { name, css } of exampleThemes(markdown)) {
    const context = await browser.newContext({ viewport: { width: 480, height: 900 }, deviceScaleFactor: 1 })
    context.setDefaultTimeout(30_000)
    const page = await context.newPage()
    await page.goto(origin + '/')
    await page.locator('#panel-status', { hasText: 'Signed out' }).waitFor()
    await page.addStyleTag({ content: css })
    const element = page.locator('latchkey-signin').first()
    await part(element, 'continue').waitFor()
    const file = join(out, `theme-${name}.png`)
    writeFileSync(file, smallPng(await element.screenshot()))
    written.push(file)
    console.log(`wrote ${file}`)
    await context.close()
  }
  return written
}
