/**
 * Email links that only a person's browser uses: HEAD requests, mail scanners, chat previews and
 * crawlers that follow every link use nothing and set no cookie, so the person's own click still
 * signs in; a POST without the link page's proof, or from another site, is refused; a signed-in
 * victim who opens an attacker's link keeps their own session (login CSRF).
 */
import { describe, expect, it } from 'vitest'
import { confirmLinkPage, linkPageForm } from '../support/email-link.js'
import { Jar } from '../support/jar.js'
import { lastLink, testServer } from '../support/server.js'

const origin = 'http://localhost:3000'
const fromPage = { origin, 'sec-fetch-site': 'same-origin' }

async function asked(email = 'grace@example.com') {
  const server = testServer()
  const person = new Jar(server.handler)
  await person.postForm('/auth/signin/email', { csrfToken: await person.csrf(), email, callbackUrl: '/dashboard' })
  return { ...server, person, link: lastLink(server.outbox) }
}

/** The link is still usable: the asking browser's GET signs it in straight. */
async function expectLinkStillSignsIn(person: Jar, link: string, email = 'grace@example.com') {
  const res = await person.get(link)
  expect(res.status).toBe(302)
  expect(res.headers.get('location')).toBe(`${origin}/dashboard`)
  expect((await person.session()).user.email).toBe(email)
}

describe('requests that are not the person', () => {
  it('HEAD on the link uses nothing and sets no cookie, even from the asking browser', async () => {
    const { handler, person, link, adapter } = await asked()
    const cookiesBefore = new Map(person.cookies)
    const head = await person.request(link, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.getSetCookie()).toEqual([])
    expect(person.cookies).toEqual(cookiesBefore)
    expect(await new Jar(handler).request(link, { method: 'HEAD' }).then((r) => r.headers.getSetCookie())).toEqual([])
    expect(await adapter.getUserByEmail('grace@example.com')).toBeNull()
    await expectLinkStillSignsIn(person, link)
  })

  it('a GET without cookies (a scanner, another device) gets the page, no cookie, and the link stays usable', async () => {
    const { handler, person, link, adapter } = await asked()
    for (const headers of [{} as Record<string, string>, { 'user-agent': 'Mozilla/5.0 (compatible; Barracuda Sentinel; +https://barracuda.com)' }, { 'user-agent': 'Slackbot-LinkExpanding 1.0' }]) {
      const scanner = new Jar(handler)
      const res = await scanner.get(link, headers)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/text\/html/)
      expect(res.headers.getSetCookie()).toEqual([])
      const html = await res.text()
      expect(html).toContain('Sign in as grace@example.com on this device?')
      expect(res.headers.get('referrer-policy')).toBe('no-referrer')
      expect(res.headers.get('cache-control')).toBe('no-store')
    }
    expect(await adapter.getUserByEmail('grace@example.com')).toBeNull()
    await expectLinkStillSignsIn(person, link)
  })

  it('a crawler that follows every link on the page and submits nothing signs nobody in', async () => {
    const { handler, person, link } = await asked()
    const crawler = new Jar(handler)
    const seen = new Set<string>()
    const queue = [link]
    while (queue.length && seen.size < 20) {
      const next = queue.shift()!
      if (seen.has(next)) continue
      seen.add(next)
      const res = await crawler.get(next)
      const html = res.headers.get('content-type')?.includes('html') ? await res.text() : ''
      // Every href and every form action, fetched with GET as a crawler does.
      for (const [, raw] of html.matchAll(/(?:href|action)="([^"]+)"/g)) {
        const url = new URL(raw.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))), origin)
        queue.push(url.pathname + url.search)
      }
    }
    expect(seen.size).toBeGreaterThan(1)
    expect(await crawler.session()).toBeNull()
    await expectLinkStillSignsIn(person, link)
  })

  it("the page's button signs in the browser that clicks it, once", async () => {
    const { handler, link } = await asked()
    const phone = new Jar(handler)
    const signedIn = await confirmLinkPage(phone, await phone.get(link))
    expect(signedIn.headers.get('location')).toBe(`${origin}/dashboard`)
    expect((await phone.session()).user.email).toBe('grace@example.com')
    const again = new Jar(handler)
    const reused = await confirmLinkPage(again, await again.get(link))
    expect(reused.headers.get('location')).toMatch(/error=Verification/)
  })
})

describe('posts that are not the page', () => {
  it('a POST of the token without the page proof, with a forged proof, or from another site is refused and uses nothing', async () => {
    const { handler, person, link } = await asked()
    const form = (await linkPageForm(await new Jar(handler).get(link)))!
    const attempts: Array<[Record<string, string>, Record<string, string>]> = [
      [{ ...form.fields, proof: '' }, fromPage],
      [{ token: form.fields.token, email: form.fields.email }, fromPage],
      [{ ...form.fields, proof: `${Math.floor(Date.parse('2026-01-01T00:00:00Z') / 1000)}.${'0'.repeat(64)}` }, fromPage],
      // The right proof, sent from another site's page or by something that is not a browser.
      [form.fields, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
      [form.fields, { 'sec-fetch-site': 'same-site' }],
      [form.fields, { origin: 'https://evil.example' }],
      [form.fields, {}],
    ]
    for (const [fields, headers] of attempts) {
      const jar = new Jar(handler)
      const res = await jar.postForm(form.action, fields, headers)
      expect(res.headers.get('location')).toMatch(/error=Verification/)
      expect(await jar.session()).toBeNull()
    }
    await expectLinkStillSignsIn(person, link)
  })

  it('an old page proof is refused', async () => {
    const { handler, person, link, clock } = await asked()
    const page = await new Jar(handler).get(link)
    clock.now += 61 * 60_000
    const late = await confirmLinkPage(new Jar(handler), page)
    expect(late.headers.get('location')).toMatch(/error=Verification/)
    await expectLinkStillSignsIn(person, link)
  })
})

describe('login CSRF: a browser signed in as someone else', () => {
  it("a signed-in victim who opens the attacker's link is asked first and stays themselves", async () => {
    const { handler, outbox } = testServer()
    const victim = new Jar(handler)
    await victim.postForm('/auth/callback/credentials', { csrfToken: await victim.csrf(), username: 'ada', password: 'lovelace' })
    const victimCookie = victim.cookies.get('latchkey.session-token')
    // The attacker asks for a link to their own address, in their own browser.
    const attacker = new Jar(handler)
    await attacker.postForm('/auth/signin/email', { csrfToken: await attacker.csrf(), email: 'mallory@example.com' })
    const link = lastLink(outbox)
    // The victim's browser opens it (a link in a message, an image tag, a redirect).
    const page = await victim.get(link)
    expect(page.status).toBe(200)
    const html = await page.clone().text()
    expect(html).toContain('This browser is signed in as <strong>ada@example.com</strong>')
    expect(html).toContain('Stay signed in as ada@example.com')
    expect(victim.cookies.get('latchkey.session-token')).toBe(victimCookie)
    // The attacker fetches the page from a script and has the victim's browser post its form from another site: refused.
    const form = (await linkPageForm(await new Jar(handler).get(link)))!
    const forged = await victim.postForm(form.action, form.fields, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })
    expect(forged.headers.get('location')).toMatch(/error=Verification/)
    expect((await victim.session()).user.email).toBe('ada@example.com')
    expect(victim.cookies.get('latchkey.session-token')).toBe(victimCookie)
  })

  it('the asking browser, signed in as another user, is asked too; the click switches', async () => {
    const { handler, outbox } = testServer()
    const jar = new Jar(handler)
    await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
    await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'grace@example.com' })
    const page = await jar.get(lastLink(outbox))
    expect(page.status).toBe(200)
    expect((await jar.session()).user.email).toBe('ada@example.com')
    await confirmLinkPage(jar, page)
    expect((await jar.session()).user.email).toBe('grace@example.com')
  })

  it("a browser signed in as the link's own address uses it straight, even one that did not ask", async () => {
    const { handler, outbox } = testServer()
    const laptop = new Jar(handler)
    await laptop.postForm('/auth/callback/credentials', { csrfToken: await laptop.csrf(), username: 'ada', password: 'lovelace' })
    const phone = new Jar(handler)
    await phone.postForm('/auth/signin/email', { csrfToken: await phone.csrf(), email: 'ada@example.com', callbackUrl: '/dashboard' })
    const res = await laptop.get(lastLink(outbox))
    expect(res.headers.get('location')).toBe(`${origin}/dashboard`)
    expect((await laptop.session()).user.email).toBe('ada@example.com')
    // Used: the same browser's next visit ends at the error at once, still signed in.
    expect((await laptop.get(lastLink(outbox))).headers.get('location')).toMatch(/error=Verification/)
    expect((await laptop.session()).user.email).toBe('ada@example.com')
  })

  it("the asking browser signed in as the link's own address signs in straight", async () => {
    const { handler, outbox } = testServer()
    const jar = new Jar(handler)
    await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
    await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'ada@example.com' })
    const res = await jar.get(lastLink(outbox))
    expect(res.status).toBe(302)
    expect((await jar.session()).user.email).toBe('ada@example.com')
  })
})
