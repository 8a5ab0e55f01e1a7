/**
 * The built-in sign-in page (GET /auth/signin) offers every way in the configuration has, each
 * drawn by its plugin: a password's form with its forgot-password and sign-up links (and those
 * pages), a passkey's form with the one inline script it needs (its hash in the page's CSP), an
 * email's form. It shows the notice it was opened with (`?notice=`) as a polite status message,
 * in the visitor's language, and only a notice the server knows: any other value shows nothing,
 * so the query never reaches the page. Each notice the password's pages redirect with is one the
 * page shows.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Logger, Provider } from '../../src/core/types.js'
import en from '../../src/locales/en/pages.js'
import fr from '../../src/locales/fr/pages.js'
import ja from '../../src/locales/ja/pages.js'
import Email from '../../src/providers/email.js'
import Passkey from '../../src/providers/passkey.js'
import Password, { type PasswordEmail } from '../../src/providers/password.js'
import WebAuthn from '../../src/providers/webauthn.js'
import { notices } from '../../src/server/kernel/page-html.js'
import { Latchkey } from '../../src/server/index.js'
import { Jar } from '../support/jar.js'
import { testSecret } from '../support/server.js'

const quiet: Logger = { error: () => {}, warn: () => {}, debug: () => {} }

function server(providers: (mail: PasswordEmail[]) => Provider[]) {
  const mail: PasswordEmail[] = []
  const handler = Latchkey({ secret: testSecret, adapter: MemoryAdapter(), logger: quiet, providers: providers(mail) })
  return { jar: new Jar(handler), mail }
}

const password = (mail: PasswordEmail[]) => Password({ breached: false, sendEmail: (m) => void mail.push(m) })
const configurations = {
  'password only': (mail: PasswordEmail[]) => [password(mail)],
  'password and passkey': (mail: PasswordEmail[]) => [password(mail), Passkey()],
  email: () => [Email({ sendVerificationRequest: () => {} })],
}

/** The page's HTML with its character references read back, as a person reads it. */
const decoded = (html: string) => html.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))

async function open(name: keyof typeof configurations, query = '', headers: Record<string, string> = {}) {
  const res = await server(configurations[name]).jar.get(`/auth/signin${query}`, headers)
  expect(res.status).toBe(200)
  const html = await res.text()
  return { html, text: decoded(html), csp: res.headers.get('content-security-policy') ?? '' }
}

const statusOf = (html: string) => /<p class="notice" role="status"[^>]*>([^<]*)<\/p>/.exec(html)?.[1]
/** The page's status message is `words`, a sentence of a catalogue (never undefined = undefined). */
function expectStatus(html: string, words: string | undefined, what?: string) {
  expect(words, what).toMatch(/\S/)
  expect(statusOf(html), what).toBe(words)
}
const scriptsOf = (html: string) => [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1])
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

describe('the ways in, each drawn by its plugin', () => {
  it('password only: its form, the forgot-password and sign-up links, no script and none allowed', async () => {
    const { html, csp } = await open('password only')
    expect(html).toContain('<form method="post" action="http://localhost:3000/auth/callback/password">')
    expect(html).toContain('<a href="http://localhost:3000/auth/password/forgot">Forgot your password?</a>')
    expect(html).toContain('<a href="http://localhost:3000/auth/password/sign-up">Create an account</a>')
    expect(html).not.toContain('data-passkey-options')
    expect(scriptsOf(html)).toEqual([])
    expect(csp).not.toMatch(/script-src|connect-src/)
    expect(csp).toMatch(/default-src 'none'/)
  })

  it('password and passkey: the passkey form, hidden until its script shows it, and that script alone allowed by its hash', async () => {
    const { html, csp } = await open('password and passkey')
    expect(html).toContain('Forgot your password?')
    const form = /<form[^>]*data-passkey-options="([^"]*)"[^>]*>/.exec(html)
    expect(form?.[0]).toContain('action="http://localhost:3000/auth/callback/passkey"')
    expect(form?.[0]).toMatch(/ hidden>$/)
    expect(decoded(form![1])).toBe('http://localhost:3000/auth/webauthn-options/passkey?action=authenticate')
    expect(html).toMatch(/<input type="hidden" name="action" value="authenticate"><input type="hidden" name="data" value="">/)
    expect(html).toContain('Sign in with Passkey</button>')
    const scripts = scriptsOf(html)
    expect(scripts).toHaveLength(1)
    expect(csp).toContain(`script-src ${sha256(scripts[0])}; connect-src 'self'`)
    expect(csp).not.toMatch(/unsafe-inline'[^;]*;[^;]*script|script-src[^;]*(unsafe|\*|https?:)/)
  })

  it('two WebAuthn providers: a form each, the script once', async () => {
    const { html, csp } = await server(() => [Passkey(), WebAuthn({ id: 'key', name: 'Security key' })])
      .jar.get('/auth/signin')
      .then(async (r) => ({ html: await r.text(), csp: r.headers.get('content-security-policy')! }))
    expect(html.match(/data-passkey-options=/g)).toHaveLength(2)
    expect(scriptsOf(html)).toHaveLength(1)
    expect(csp.match(/'sha256-/g)).toHaveLength(1)
  })

  it('email: its form, no password links, no script', async () => {
    const { html, csp } = await open('email')
    expect(html).toContain('<form method="post" action="http://localhost:3000/auth/signin/email">')
    expect(html).not.toContain('/password/')
    expect(scriptsOf(html)).toEqual([])
    expect(csp).not.toContain('script-src')
  })

  it("in the language of Accept-Language: the links, the passkey's words", async () => {
    const { text } = await open('password and passkey', '', { 'accept-language': 'fr-CA, en;q=0.5' })
    expect(text).toContain(`>${fr.forgotPassword}</a>`)
    expect(text).toContain(`>${fr.createAccount}</a>`)
    expect(text).toContain(`>${fr.passkeyFailed}</p>`)
  })
})

describe('the notice (?notice=)', () => {
  it('the server knows five', () => expect(Object.keys(notices).sort()).toEqual(['confirmation-sent', 'email-verified', 'passkeys-removed', 'password-reset', 'reset-link-sent']))

  it.each(Object.entries(notices))('%s: a polite status message, with and without a password provider', async (notice, key) => {
    for (const name of ['password only', 'email'] as const) {
      const { html, text } = await open(name, `?notice=${notice}`)
      expectStatus(text, en[key], name)
      expect(html.match(/role="status"/g)).toHaveLength(1)
    }
  })

  it.each([
    ['fr', fr],
    ['ja', ja],
  ] as const)('in the language of Accept-Language: %s', async (lang, words) => {
    for (const [notice, key] of Object.entries(notices)) {
      const { text } = await open('password only', `?notice=${notice}`, { 'accept-language': lang })
      expectStatus(text, words[key])
    }
  })

  it('without one: no status message', async () => {
    for (const name of Object.keys(configurations) as (keyof typeof configurations)[]) {
      expect((await open(name)).html).not.toContain('role="status"')
    }
  })

  it('an unknown notice shows nothing: no markup, no text of the query, escaped or not', async () => {
    const values = ['<script>alert(1)</script>', 'Your account is locked: call +1 555 0100', 'email-verified ', 'EMAIL-VERIFIED', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '"><img src=x onerror=alert(1)>', '']
    const plain = (await open('password and passkey')).html
    for (const value of values) {
      const { html } = await open('password and passkey', `?notice=${encodeURIComponent(value)}`)
      expect(html, value).not.toContain('role="status"')
      // The page is the page without a notice, byte for byte but the CSRF token.
      const token = (page: string) => page.replace(/name="csrfToken" value="[^"]*"/g, '')
      expect(token(html), value).toBe(token(plain))
    }
  })

  it('a notice beside an error shows both, each in its own role', async () => {
    const { text } = await open('password only', '?notice=email-verified&error=CredentialsSignin')
    expectStatus(text, 'Your email address is confirmed. You can sign in now.')
    expect(text).toContain(`<p class="error" role="alert" data-error="CredentialsSignin">${en.CredentialsSignin}</p>`)
  })
})

describe("the password's own pages, posted from the built-in pages", () => {
  /** Posts a built-in page's form (the browser asks for HTML) and opens where the answer sends it. */
  async function postFromPage(jar: Jar, path: string, fields: Record<string, string>) {
    const res = await jar.postForm(`/auth/password/${path}`, { csrfToken: await jar.csrf(), ...fields }, { accept: 'text/html' })
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('location')!)
    const page = await jar.get(location.pathname + location.search)
    return { location, text: decoded(await page.text()) }
  }

  it('the sign-up and forgot-password pages: their forms, CSRF-tokened, posting to the routes', async () => {
    const { jar } = server(configurations['password only'])
    const signUp = decoded(await (await jar.get('/auth/password/sign-up')).text())
    expect(signUp).toContain('<form method="post" action="http://localhost:3000/auth/password/sign-up"><input type="hidden" name="csrfToken" value="')
    expect(signUp).toMatch(/<input type="password" name="password" autocomplete="new-password" minlength="8"/)
    expect(signUp).toContain(`<a href="http://localhost:3000/auth/signin">${en.backToSignIn}</a>`)
    const forgot = decoded(await (await jar.get('/auth/password/forgot', { 'accept-language': 'fr' })).text())
    expect(forgot).toContain('<form method="post" action="http://localhost:3000/auth/password/forgot">')
    expect(forgot).toContain(fr.resetPasswordLead)
    expect(forgot).toContain(`<button>${fr.sendResetLink}</button>`)
  })

  it('every notice these forms redirect with is one the sign-in page shows', async () => {
    const { jar, mail } = server(configurations['password only'])
    const email = 'ada@example.com'
    const signUp = await postFromPage(jar, 'sign-up', { email, password: 'a long passphrase' })
    expect(signUp.location.searchParams.get('notice')).toBe('confirmation-sent')
    expectStatus(signUp.text, en.noticeConfirmationSent)
    const again = await postFromPage(jar, 'verify-again', { email })
    expectStatus(again.text, en.noticeConfirmationSent)
    // The new email goes after the answer, and its link replaces the first one's.
    await expect.poll(() => mail.filter((m) => m.kind === 'verify-email').length).toBe(2)
    const link = new URL(mail.filter((m) => m.kind === 'verify-email').at(-1)!.url!)
    const verify = await postFromPage(jar, 'verify', { email, token: link.searchParams.get('token')! })
    expect(verify.location.href).toBe('http://localhost:3000/auth/signin?notice=email-verified')
    expectStatus(verify.text, en.noticeEmailVerified)
    const forgot = await postFromPage(jar, 'forgot', { email })
    expect(forgot.location.searchParams.get('notice')).toBe('reset-link-sent')
    expectStatus(forgot.text, en.noticeResetLinkSent)
    // The reset email goes after the answer.
    await expect.poll(() => mail.some((m) => m.kind === 'reset-password')).toBe(true)
    const reset = new URL(mail.find((m) => m.kind === 'reset-password')!.url!)
    const done = await postFromPage(jar, 'reset', { email, token: reset.searchParams.get('token')!, password: 'another long passphrase' })
    expect(done.location.searchParams.get('notice')).toBe('password-reset')
    expectStatus(done.text, en.noticePasswordReset)
  })

  it('a refused sign-up goes back to the sign-up form, with the error in words', async () => {
    const { jar } = server(configurations['password only'])
    const { location, text } = await postFromPage(jar, 'sign-up', { email: 'eve@example.com', password: 'short' })
    expect(location.href).toBe('http://localhost:3000/auth/password/sign-up?error=PasswordTooShort')
    expect(text).toContain(`<p class="error" role="alert" data-error="PasswordTooShort">${en.PasswordTooShort}</p>`)
    expect(text).toContain('<form method="post" action="http://localhost:3000/auth/password/sign-up">')
  })

  it('an error they do not know reads as Configuration, its text only escaped in an attribute', async () => {
    const { jar } = server(configurations['password only'])
    const html = await (await jar.get(`/auth/password/forgot?error=${encodeURIComponent('<script>alert(1)</script>')}`)).text()
    expect(decoded(html)).toContain(en.Configuration)
    expect(html).not.toContain('<script')
  })
})
