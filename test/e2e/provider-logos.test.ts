/**
 * The built-in providers' logos and colours in `<latchkey-signin>`, in Chromium (issue 44, item 1):
 * the logo comes with the provider's `style` from GET /auth/providers (in no bundle), shows as a
 * decorative image (the words name the provider), on the brand colour with the more readable of
 * white and near-black as the words; an app's own style wins. axe finds no violation.
 */
import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import GitHub from '../../src/providers/github.js'
import GitLab from '../../src/providers/gitlab.js'
import Google from '../../src/providers/google.js'
import { violations } from './axe.js'
import { browserAndServer, openPage } from './helpers.js'

const env = browserAndServer({
  providers: () => [
    GitHub({ clientId: 'gh', clientSecret: 'gh-secret' }),
    GitLab({ clientId: 'gl', clientSecret: 'gl-secret' }),
    // The app's own colour and logo win over ours.
    Google({ clientId: 'go', clientSecret: 'go-secret', style: { brandColor: '#ffffff', logo: '/acme.svg' } }),
  ],
})

const button = (page: Page, id: string) => page.locator(`latchkey-signin button[data-provider="${id}"]`)

/** The button's logo as shown: its source, alt text and whether it loaded; its fill and words' colour. */
const look = (page: Page, id: string) =>
  button(page, id).evaluate(async (b) => {
    const img = b.querySelector('img[part~="logo"]') as HTMLImageElement | null
    await img?.decode()
    return { src: img?.getAttribute('src'), alt: img?.getAttribute('alt'), loaded: !!img && img.naturalWidth > 0, colours: [getComputedStyle(b).backgroundColor, getComputedStyle(b).color] }
  })

describe("the built-in providers' logos in <latchkey-signin>", () => {
  test("GitHub's button shows its logo, on its colour, white words; GitLab's near-black; the app's style wins", async () => {
    const context = await env.browser.newContext()
    const page = await openPage(context, env.server.url + '/')
    await expect.poll(() => button(page, 'github').textContent()).toBe('Sign in with GitHub')
    const githubLogo = GitHub().style!.logo!
    expect(await look(page, 'github')).toEqual({ src: githubLogo, alt: '', loaded: true, colours: ['rgb(36, 41, 47)', 'rgb(255, 255, 255)'] })
    expect(await look(page, 'gitlab')).toEqual({ src: GitLab().style!.logo, alt: '', loaded: true, colours: ['rgb(252, 109, 38)', 'rgb(17, 17, 17)'] })
    expect(await look(page, 'google')).toEqual({ src: '/acme.svg', alt: '', loaded: true, colours: ['rgb(255, 255, 255)', 'rgb(17, 17, 17)'] })
    // The button's name is its words alone: the logo adds nothing to it.
    expect(await page.getByRole('button', { name: 'Sign in with GitHub', exact: true }).count()).toBe(1)
    expect(await violations(page)).toEqual([])
    await context.close()
  })
})
