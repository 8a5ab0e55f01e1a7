/**
 * The built-in pages carry the server's `theme` (issue 44, item 3): every page (sign-in,
 * verify-request, error, sign-out, the email link's confirmation, the password's pages) has the
 * app's name and logo at the top, the primary button in `brandColor` with its words in
 * `buttonText` (or the more readable of white and near-black), and `colorScheme` as its CSS
 * `color-scheme`, under the elements' `--latchkey-*` names. Only the checked configuration reaches
 * the markup, escaped; the pages' CSP still holds. A provider's button shows its logo and brand
 * colour with readable words, and `GET /auth/providers` carries `style` to the browser.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Theme } from '../../src/core/types.js'
import GitHub from '../../src/providers/github.js'
import GitLab from '../../src/providers/gitlab.js'
import Password, { type PasswordEmail } from '../../src/providers/password.js'
import { escapeHtml } from '../../src/server/kernel/page-html.js'
import { Jar } from '../support/jar.js'
import { lastLink, testServer, type TestServerOptions } from '../support/server.js'

const logo = `data:image/svg+xml;base64,${btoa('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#0a7f5a"/></svg>')}`
const theme: Theme = { name: 'Acme Notes', logo, brandColor: '#0a7f5a', colorScheme: 'dark' }

function server(options: TestServerOptions = {}) {
  const mail: PasswordEmail[] = []
  const made = testServer({
    adapter: MemoryAdapter(),
    extraProviders: [Password({ sendEmail: (m) => void mail.push(m), breached: false }), GitHub({ clientId: 'gh', clientSecret: 'gh-secret' }), GitLab({ clientId: 'gl', clientSecret: 'gl-secret' })],
    ...options,
  })
  return { ...made, mail, jar: new Jar(made.handler) }
}

/** Every built-in page, as a person opens it: its HTML and its CSP. */
async function everyPage(made: ReturnType<typeof server>): Promise<Record<string, { html: string; csp: string }>> {
  const { jar, handler } = made
  const open = async (path: string, browser = jar) => {
    const res = await browser.get(path)
    expect(res.status, path).toBe(200)
    expect(res.headers.get('content-type'), path).toMatch(/^text\/html/)
    return { html: await res.text(), csp: res.headers.get('content-security-policy') ?? '' }
  }
  const pages: Record<string, { html: string; csp: string }> = {}
  for (const path of ['/auth/signin', '/auth/verify-request', '/auth/error?error=AccessDenied', '/auth/signout', '/auth/password/sign-up', '/auth/password/forgot']) pages[path] = await open(path)
  // The email link's page, as another device opens the link.
  await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'grace@example.com' })
  pages['the email link'] = await open(lastLink(made.outbox), new Jar(handler))
  // The password's reset page, from its email.
  await jar.postForm('/auth/password/sign-up', { csrfToken: await jar.csrf(), email: 'dee@example.com', password: 'a long passphrase' }, { 'x-auth-return-redirect': '1' })
  await handler.settled()
  await jar.postForm('/auth/password/forgot', { csrfToken: await jar.csrf(), email: 'dee@example.com' }, { 'x-auth-return-redirect': '1' })
  await handler.settled()
  const reset = made.mail.findLast((m) => m.kind === 'reset-password')!
  const url = new URL(reset.url!)
  pages['the password reset'] = await open(url.pathname + url.search, new Jar(handler))
  return pages
}

/** The page's own stylesheet's `:root` rule. */
const rootRule = (html: string) => /<style>(:root\{[^}]*\})/.exec(html)?.[1]

describe('every built-in page carries the theme', () => {
  it('the name and logo at the top, the primary in brandColor with readable words, the color-scheme', async () => {
    const pages = await everyPage(server({ theme }))
    expect(Object.keys(pages)).toHaveLength(8)
    for (const [path, { html, csp }] of Object.entries(pages)) {
      expect(html, path).toContain(`<main><div class="brand"><img src="${logo}" alt="" height="32"><span>Acme Notes</span></div>`)
      expect(rootRule(html), path).toBe(':root{color-scheme:dark;--latchkey-primary:#0a7f5a;--latchkey-primary-text:#ffffff}')
      expect(html, path).toContain('<meta name="color-scheme" content="dark">')
      // The primary button is the elements' own: the same custom properties, the same defaults.
      expect(html, path).toContain('button{display:flex;align-items:center;justify-content:center;gap:.6em;cursor:pointer;background:var(--latchkey-primary,light-dark(#1f2328,#f0f3f6));color:var(--latchkey-primary-text,light-dark(#fff,#16181c))')
      // Every page but those that only say something (check your email; an error and a link) has a button.
      if (!/verify-request|error/.test(path)) expect(html, path).toMatch(/<button[ >]/)
      // The CSP is as strict as before: a data: logo needs nothing added.
      expect(csp, path).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'/)
    }
  })

  it("buttonText is the primary's words; a light brandColor gets near-black words; auto and light are the schemes' own", async () => {
    const own = (await server({ theme: { brandColor: '#ffd700', buttonText: '#333', colorScheme: 'light' } }).jar.get('/auth/signin')).text()
    expect(rootRule(await own)).toBe(':root{color-scheme:light;--latchkey-primary:#ffd700;--latchkey-primary-text:#333}')
    const light = await (await server({ theme: { brandColor: '#ffd700', colorScheme: 'auto' } }).jar.get('/auth/signin')).text()
    expect(rootRule(light)).toBe(':root{color-scheme:light dark;--latchkey-primary:#ffd700;--latchkey-primary-text:#111111}')
    expect(light).toContain('<meta name="color-scheme" content="light dark">')
  })

  it("without a theme: the origin's host as the name, no image, the elements' default primary, the visitor's scheme", async () => {
    const html = await (await server().jar.get('/auth/signin')).text()
    expect(html).toContain('<main><div class="brand"><span>localhost:3000</span></div><h1>Sign in</h1>')
    expect(rootRule(html)).toBe(':root{color-scheme:light dark}')
  })

  it('a hostile name is escaped wherever it stands; the theme never comes from the request', async () => {
    const name = `</style><script>alert("x")</script> & 'Co' <img src=x onerror=alert(1)>`
    const made = server({ theme: { name, brandColor: '#0a7f5a' } })
    for (const [path, { html }] of Object.entries(await everyPage(made))) {
      expect(html, path).toContain(`<span>${escapeHtml(name)}</span>`)
      expect(html, path).not.toContain('<script>alert')
      expect(html, path).not.toContain('<img src=x')
      expect(html.match(/<\/style>/g), path).toHaveLength(1)
    }
    // A forged Host or query changes nothing of the brand.
    const forged = await (await made.jar.get('/auth/signin?theme=dark&brandColor=red&name=Evil', { host: 'evil.example', 'x-forwarded-host': 'evil.example' })).text()
    expect(forged).toContain(`<span>${escapeHtml(name)}</span>`)
    expect(rootRule(forged)).toBe(':root{color-scheme:light dark;--latchkey-primary:#0a7f5a;--latchkey-primary-text:#ffffff}')
    expect(forged).not.toMatch(/evil|Evil|:red/)
  })

  it("an http logo on a loopback host is allowed by the pages' img-src, its origin alone", async () => {
    const res = await server({ theme: { logo: 'http://127.0.0.1:4100/logo.svg' } }).jar.get('/auth/signin')
    expect(res.headers.get('content-security-policy')).toMatch(/; img-src 'self' data: https: http:\/\/127\.0\.0\.1:4100; frame-ancestors 'none';/)
    expect(await res.text()).toContain('<img src="http://127.0.0.1:4100/logo.svg" alt="" height="32">')
  })
})

describe("the providers' buttons", () => {
  it('on the sign-in page: the logo (decorative), the brand colour, the more readable words', async () => {
    const html = await (await server({ theme }).jar.get('/auth/signin')).text()
    const github = /<form method="post" action="http:\/\/localhost:3000\/auth\/signin\/github">.*?<\/form>/.exec(html)?.[0]
    expect(github).toMatch(/<button style="--latchkey-brand:#24292f;--latchkey-brand-text:#ffffff"><img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" alt="" width="20" height="20">Sign in with GitHub<\/button>/)
    expect(html).toContain('<button style="--latchkey-brand:#fc6d26;--latchkey-brand-text:#111111"><img src="data:image/svg+xml;base64,')
  })

  it("the app's style wins; one that is no plain colour reaches no style attribute, a hostile logo is escaped", async () => {
    const made = server({
      extraProviders: [
        GitHub({ clientId: 'gh', clientSecret: 's', style: { brandColor: '#ffffff', logo: '/gh.svg' } }),
        GitLab({ clientId: 'gl', clientSecret: 's', style: { brandColor: 'red;background-image:url(https://evil.example/x)', text: '#fff}body{display:none', logo: '"><script>alert(1)</script>' } }),
      ],
    })
    const html = await (await made.jar.get('/auth/signin')).text()
    expect(html).toContain('<button style="--latchkey-brand:#ffffff;--latchkey-brand-text:#111111"><img src="/gh.svg" alt="" width="20" height="20">Sign in with GitHub</button>')
    expect(html).toContain(`<button><img src="${escapeHtml('"><script>alert(1)</script>')}" alt="" width="20" height="20">Sign in with GitLab</button>`)
    expect(html).not.toMatch(/evil\.example|body\{display:none|<script>alert/)
  })

  it('GET /auth/providers carries each style: the built-in logo and colour, or the app\'s key by key', async () => {
    const made = server({ extraProviders: [GitHub({ clientId: 'gh', clientSecret: 's' }), GitLab({ clientId: 'gl', clientSecret: 's', style: { logo: 'https://cdn.example.com/gitlab.svg' } })] })
    const res = await made.jar.get('/auth/providers')
    expect(res.status).toBe(200)
    const providers = await res.json()
    expect(providers.github.style).toEqual({ brandColor: '#24292f', logo: GitHub().style!.logo })
    expect(providers.github.style.logo).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(providers.gitlab.style).toEqual({ brandColor: '#fc6d26', logo: 'https://cdn.example.com/gitlab.svg' })
    // A provider without a style has none; the credentials and email providers draw no button.
    expect(providers.credentials.style).toBeUndefined()
  })
})
