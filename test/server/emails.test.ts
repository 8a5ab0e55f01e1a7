/**
 * The emails carry the brand (issue 44, item 4): every email the server sends (the sign-in link
 * and code, and the password emails: confirm the address, "you already have an account", reset,
 * "your password changed") comes out of one template with the app's name in the subject and as
 * the header, its link once as the one button, its code once, the expiry, a closing line, and a
 * plain-text part of the same content; in all nine languages, right to left in Arabic and Hebrew;
 * whatever the configuration names escaped. `theme` is checked at start-up, and a custom
 * `sendVerificationRequest` gets it as Auth.js passes it.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { SendVerificationRequestParams, Theme } from '../../src/core/types.js'
import { languages } from '../../src/locales/index.js'
import Password, { type PasswordEmail } from '../../src/providers/password.js'
import { escapeHtml } from '../../src/server/kernel/page-html.js'
import { Jar } from '../support/jar.js'
import { testServer, type TestServerOptions } from '../support/server.js'

const asJson = { 'x-auth-return-redirect': '1' }
/** A name that breaks out of HTML unless escaped. */
const name = `Acme <script>alert("x")</script> & 'Co'`
const theme: Theme = { name, brandColor: '#0a7f5a', logo: 'https://cdn.example.com/acme.png' }

/** How many times `part` occurs in `whole`. */
const count = (whole: string, part: string) => whole.split(part).length - 1

function server(options: TestServerOptions = {}) {
  const mail: PasswordEmail[] = []
  const made = testServer({ adapter: MemoryAdapter(), extraProviders: [Password({ sendEmail: (m) => void mail.push(m), breached: false })], ...options })
  return { ...made, mail }
}

type Server = ReturnType<typeof server>
type Message = { subject: string; text: string; html: string; url?: string; code?: string }

const post = async (jar: Jar, path: string, fields: Record<string, string>, accept = 'en') =>
  jar.postForm(path, { csrfToken: await jar.csrf(), ...fields }, { ...asJson, 'accept-language': accept })

async function signInEmail(made: Server, accept = 'en'): Promise<Message & { params: SendVerificationRequestParams }> {
  await post(new Jar(made.handler), '/auth/signin/email', { email: 'grace@example.com' }, accept)
  const params = made.outbox.at(-1)!
  return { ...params.message!, url: params.url, code: params.code, params }
}

/** Every password email, in the order a person meets them: sign up, sign up again, forgot, reset. */
async function passwordEmails(made: Server, accept = 'en'): Promise<Record<PasswordEmail['kind'], PasswordEmail>> {
  const jar = new Jar(made.handler)
  await post(jar, '/auth/password/sign-up', { email: 'dee@example.com', password: 'a long passphrase' }, accept)
  await made.handler.settled()
  const verify = made.mail.at(-1)!
  await post(jar, '/auth/password/verify', { email: 'dee@example.com', code: verify.code! }, accept)
  await post(jar, '/auth/password/sign-up', { email: 'dee@example.com', password: 'another passphrase' }, accept)
  await post(jar, '/auth/password/forgot', { email: 'dee@example.com' }, accept)
  await made.handler.settled()
  const reset = made.mail.findLast((m) => m.kind === 'reset-password')!
  await post(jar, '/auth/password/reset', { email: 'dee@example.com', code: reset.code!, password: 'a third passphrase' }, accept)
  await made.handler.settled()
  const byKind = Object.fromEntries(made.mail.map((m) => [m.kind, m])) as Record<PasswordEmail['kind'], PasswordEmail>
  expect(Object.keys(byKind).sort()).toEqual(['account-exists', 'password-changed', 'reset-password', 'verify-email'])
  return byKind
}

/** What every email must be: the brand, one link as the one button, one code, both parts. */
function expectBranded(message: Message, { link, code }: { link: boolean; code: boolean }) {
  expect(message.subject).toContain(name)
  expect(message.subject).not.toContain('localhost')
  // The name reaches the HTML only escaped, as the header and in the sentences.
  expect(message.html).not.toContain('<script>')
  expect(message.html).toContain(`<h1 style="margin:0;font-size:20px;line-height:1.3;font-weight:600;color:#18181b;">${escapeHtml(name)}</h1>`)
  expect(message.html).toContain('<img src="https://cdn.example.com/acme.png" alt=""')
  expect(message.html).toContain(`<title>${escapeHtml(message.subject)}</title>`)
  expect(message.text.split('\n')[0]).toBe(name)
  if (link) {
    expect(count(message.html, escapeHtml(message.url))).toBe(1)
    expect(count(message.html, 'href=')).toBe(1)
    expect(message.html).toContain(`<a href="${escapeHtml(message.url)}" style="display:inline-block;padding:12px 28px;background-color:#0a7f5a;color:`)
    expect(count(message.text, message.url!)).toBe(1)
  } else {
    expect(message.url).toBeUndefined()
    expect(count(message.html, 'href=')).toBe(0)
    expect(message.text).not.toContain('http')
  }
  if (code) {
    expect(message.code).toMatch(/^\d{6}$/)
    expect(count(message.html, message.code!)).toBe(1)
    expect(count(message.text, message.code!)).toBe(1)
    expect(message.html).toMatch(new RegExp(`<div dir="ltr" style="[^"]*font-size:30px[^"]*">${message.code}</div>`))
  } else {
    expect(message.code).toBeUndefined()
    expect(message.html).not.toContain('font-size:30px')
  }
}

describe('every email the server sends carries the brand', () => {
  it('the sign-in email: name in the subject and header, the link once as its button, the code once, the expiry, a closing line', async () => {
    const sent = await signInEmail(server({ theme }))
    expectBranded(sent, { link: true, code: true })
    expect(sent.subject).toBe(`Sign in to ${name}`)
    expect(sent.text).toBe(
      `${name}\n\nUse the link below to sign in to ${name}.\n\nSign in: ${sent.url}\n\n` +
        `Or enter this code where you typed your address:\n${sent.code}\n\n` +
        'The link works for 24 hours, the code for 10 minutes.\n\nIf you did not ask for this email, you can ignore it.\n',
    )
    expect(sent.html).toContain('The link works for 24 hours, the code for 10 minutes.')
    expect(sent.html).toContain('If you did not ask for this email, you can ignore it.')
  })

  it('the password emails: confirm, already an account, reset with their link and code; "changed" with neither', async () => {
    const sent = await passwordEmails(server({ theme }))
    for (const kind of ['verify-email', 'account-exists', 'reset-password'] as const) expectBranded(sent[kind], { link: true, code: true })
    expectBranded(sent['password-changed'], { link: false, code: false })
    expect(sent['verify-email'].subject).toBe(`Confirm your email address for ${name}`)
    expect(sent['verify-email'].text).toBe(
      [
        name,
        `Confirm this address to finish creating your account on ${name}.`,
        `Confirm my address: ${sent['verify-email'].url}`,
        `Or enter this code where you asked:\n${sent['verify-email'].code}`,
        'The link works for 60 minutes, the code for 10 minutes.',
        'If you did not create an account, ignore this email: nothing happens without the confirmation.',
      ].join('\n\n') + '\n',
    )
    expect(sent['reset-password'].subject).toBe(`Reset your password for ${name}`)
    expect(sent['account-exists'].subject).toBe(`You already have an account on ${name}`)
    expect(sent['password-changed'].subject).toBe(`Your password for ${name} was changed`)
    expect(sent['password-changed'].text).toBe(`${name}\n\nThe password of your account on ${name} was just changed.\n\nIf this was not you, reset your password now and review your devices.\n`)
  })

  it('without a theme, the name is the origin\'s host; the button takes the default colour, its text the colour that reads on it', async () => {
    const plain = await signInEmail(server())
    expect(plain.subject).toBe('Sign in to localhost:3000')
    expect(plain.params.theme).toEqual({ name: 'localhost:3000' })
    expect(plain.html).toContain('background-color:#346df1;color:#ffffff;')
    expect(plain.html).not.toContain('<img')
    // A light brand colour gets dark text; a configured buttonText wins.
    expect((await signInEmail(server({ theme: { brandColor: '#ffd700' } }))).html).toContain('background-color:#ffd700;color:#111111;')
    expect((await signInEmail(server({ theme: { brandColor: '#FFD700', buttonText: '#333' } }))).html).toContain('background-color:#ffd700;color:#333;')
  })

  it('a custom sendVerificationRequest gets the theme, its name filled in, beside the written message', async () => {
    const sent = await signInEmail(server({ theme }))
    expect(sent.params.theme).toEqual({ name, brandColor: '#0a7f5a', logo: 'https://cdn.example.com/acme.png' })
    expect(sent.params.message!.html).toContain(escapeHtml(name))
  })
})

describe('in the nine languages', () => {
  const rtl = new Set(['ar', 'he'])

  it.each([...languages])('%s: lang and dir on the HTML, the name in the subject, the link and code once, every word from the catalogue', async (tag) => {
    const { default: words } = await import(`../../src/locales/${tag}/pages.ts`)
    const made = server({ theme })
    const sent = await signInEmail(made, tag)
    expect(sent.html).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${tag}" dir="${rtl.has(tag) ? 'rtl' : 'ltr'}">`))
    expect(sent.html).toContain(` dir="${rtl.has(tag) ? 'rtl' : 'ltr'}" style="max-width:480px;`)
    expect(sent.html).toContain(`text-align:${rtl.has(tag) ? 'right' : 'left'};`)
    expect(sent.subject).toBe(words.emailSubject.replace('{name}', name))
    expectBranded(sent, { link: true, code: true })
    for (const key of ['emailCode', 'emailIgnore', 'signIn'] as const) expect(sent.text).toContain(words[key])
    expect(sent.text).toContain(words.emailLead.replace('{name}', name))
    await post(new Jar(made.handler), '/auth/password/sign-up', { email: 'dee@example.com', password: 'a long passphrase' }, tag)
    await made.handler.settled()
    const confirm = made.mail.at(-1)!
    expect(confirm.html).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${tag}" dir="${rtl.has(tag) ? 'rtl' : 'ltr'}">`))
    expect(confirm.subject).toBe(words.verifySubject.replace('{name}', name))
    expectBranded(confirm, { link: true, code: true })
    expect(confirm.text).toContain(`${words.orEnterCode}\n${confirm.code}`)
  })

  it('Arabic reads right to left, its code box left to right', async () => {
    const sent = await signInEmail(server({ theme }), 'ar-EG')
    expect(sent.html).toContain('<html lang="ar" dir="rtl">')
    expect(sent.html).toContain(`<div dir="ltr" style="`)
    expect(sent.subject).toBe(`تسجيل الدخول إلى ${name}`)
  })
})

describe('theme is checked at start-up', () => {
  const start = (given: unknown) => () => testServer({ theme: given as Theme })

  it.each([
    ['{ logo: javascript:alert(1) }', { logo: 'javascript:alert(1)' }, /theme\.logo must be an https URL \(http only on localhost\), or a data:image/],
    ['{ logo: http://cdn.example.com/logo.png }', { logo: 'http://cdn.example.com/logo.png' }, /theme\.logo must be an https URL/],
    ['{ logo: data:text/html;base64,PHNjcmlwdD4= }', { logo: 'data:text/html;base64,PHNjcmlwdD4=' }, /theme\.logo must be .*this data: URL is not one/],
    ['{ logo: data:image/svg+xml,<svg onload=alert(1)> }', { logo: 'data:image/svg+xml,<svg onload=alert(1)>' }, /this data: URL is not one/],
    ['{ logo: a 100 kB data: URL }', { logo: `data:image/png;base64,${'A'.repeat(100_000)}` }, /carried in every email; keep it under 100000 or serve the logo at an https URL/],
    ['{ logo: not a url }', { logo: 'not a url' }, /theme\.logo must be an https URL/],
    ['{ brandColor: red }', { brandColor: 'red' }, /theme\.brandColor must be a hex colour, #rgb or #rrggbb \(like "#346df1"\), got "red"/],
    ['{ brandColor: #12345 }', { brandColor: '#12345' }, /theme\.brandColor must be a hex colour/],
    ['{ brandColor: #fff;background:url(x) }', { brandColor: '#fff;background:url(x)' }, /theme\.brandColor must be a hex colour/],
    ['{ buttonText: expression(alert(1)) }', { buttonText: 'expression(alert(1))' }, /theme\.buttonText must be a hex colour/],
    ['{ name: Acme\r\nBcc: x@example.com }', { name: 'Acme\r\nBcc: x@example.com' }, /theme\.name must be the app's name on one line, 1 to 100 characters without control characters/],
    ['{ name:    }', { name: '  ' }, /theme\.name must be the app's name on one line/],
    ['{ name: x.repeat(101) }', { name: 'x'.repeat(101) }, /theme\.name must be/],
    ['{ colorScheme: blue }', { colorScheme: 'blue' }, /theme\.colorScheme must be "auto", "dark" or "light", got "blue"/],
    ['{ brandColour: #fff }', { brandColour: '#fff' }, /theme has "brandColour", which is no theme field; expected name, colorScheme, logo, brandColor, buttonText/],
    ['Acme', 'Acme', /expected theme to be an object like \{ name: 'Acme', logo, brandColor \}/],
  ])('%s: a Configuration error that says the fix', (_, given, message) => {
    expect(start(given)).toThrow(message)
    expect(start(given)).toThrow(expect.objectContaining({ code: 'Configuration', status: 500 }))
  })

  it('takes https, http on localhost and data: image logos, hex colours and the schemes', async () => {
    const png = 'data:image/png;base64,iVBORw0KGgo='
    for (const logo of ['https://cdn.example.com/a.png', 'http://localhost:3000/logo.svg', 'http://127.0.0.1/logo.png', png]) expect(start({ logo })).not.toThrow()
    for (const colorScheme of ['auto', 'dark', 'light']) expect(start({ colorScheme })).not.toThrow()
    const sent = await signInEmail(server({ theme: { name: '  Acme  ', logo: png, brandColor: '#ABC', colorScheme: 'dark' } }))
    expect(sent.params.theme).toEqual({ name: 'Acme', logo: png, brandColor: '#abc', colorScheme: 'dark' })
    expect(sent.html).toContain(`<img src="${png}"`)
  })
})
