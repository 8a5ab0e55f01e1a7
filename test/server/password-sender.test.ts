/**
 * The Password provider's own sender, `Password({ server, from })`: its emails (the address
 * confirmation, the reset link) go by SMTP to a real SMTP sink, with no email provider configured,
 * so no email sign-in is offered beside the password. And what start-up says about a sender
 * missing, half given or given twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import Nodemailer from '../../src/providers/nodemailer.js'
import Password, { type PasswordOptions } from '../../src/providers/password.js'
import { Latchkey } from '../../src/server/index.js'
import { Jar } from '../support/jar.js'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'
import { testSecret } from '../support/server.js'

const asJson = { 'x-auth-return-redirect': '1' }
const from = 'Notes <no-reply@notes.example.com>'
let sink: SmtpSink

beforeAll(async () => {
  sink = await startSmtpSink()
})
afterAll(() => sink.close())

function server(options: PasswordOptions, extra: Parameters<typeof Latchkey>[0]['providers'] = []) {
  const logs: string[] = []
  const handler = Latchkey({
    secret: testSecret,
    adapter: MemoryAdapter(),
    logger: { error: (e) => logs.push(`${e.name}: ${e.message}`), warn: (code) => logs.push(code), debug: () => {} },
    providers: [...extra, Password({ breached: false, ...options })],
  })
  return { handler, logs }
}

const post = async (jar: Jar, path: string, fields: Record<string, string>) => jar.postForm(`/auth/password/${path}`, { csrfToken: await jar.csrf(), ...fields }, asJson)
const mailsTo = (to: string) => sink.mails.filter((mail) => mail.to.includes(to)).map((mail) => ({ ...mail, text: decoded(mail.raw) }))
/** The message with its quoted-printable escapes (`=3D`) decoded: the links as sent. */
const decoded = (raw: string) => raw.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

describe('Password({ server, from }): the password emails by SMTP, with no email sign-in', () => {
  it('offers the password alone: GET /providers and the sign-in page have no email way in, nor the SMTP password', async () => {
    const { handler } = server({ server: `smtp://mailer:smtp-password-9x@127.0.0.1:${sink.port}`, from })
    const jar = new Jar(handler)
    const answer = await (await jar.get('/auth/providers')).text()
    const providers = JSON.parse(answer) as Record<string, { type: string }>
    expect(Object.keys(providers)).toEqual(['password'])
    expect(Object.values(providers).map((p) => p.type)).toEqual(['credentials'])
    // One address field on the page: the password form's, not a second one for an email link.
    const page = await (await jar.get('/auth/signin')).text()
    expect(page.match(/name="email"/g)).toHaveLength(1)
    for (const text of [answer, page]) expect(text).not.toContain('smtp-password-9x')
  })

  it('sign-up sends the confirmation through the SMTP server, from `from`; its code confirms the address', async () => {
    const { handler } = server({ server: `smtp://127.0.0.1:${sink.port}`, from })
    const jar = new Jar(handler)
    expect(await (await post(jar, 'sign-up', { email: 'gus@example.com', password: 'a long passphrase' })).json()).toEqual({ ok: true })
    const [mail] = mailsTo('gus@example.com')
    expect(mail!.from).toBe('no-reply@notes.example.com')
    expect(mail!.raw).toMatch(/^From: Notes <no-reply@notes\.example\.com>/m)
    expect(mail!.raw).toMatch(/^Subject: Confirm your email address for localhost:3000/m)
    expect(mail!.text).toMatch(/http:\/\/localhost:3000\/auth\/password\/verify\?email=gus%40example\.com&token=[\w-]+/)
    const code = sink.codeFor('gus@example.com')
    expect((await post(jar, 'verify', { email: 'gus@example.com', code })).status).toBe(200)
    const signedIn = await jar.postForm('/auth/callback/password', { csrfToken: await jar.csrf(), email: 'gus@example.com', password: 'a long passphrase' }, asJson)
    expect(signedIn.status).toBe(200)
    expect((await jar.session()).user.email).toBe('gus@example.com')
  })

  it('the reset link goes the same way, and its page sets the new password', async () => {
    const { handler, logs } = server({ server: { host: '127.0.0.1', port: sink.port, secure: false, ignoreTLS: true }, from })
    const jar = new Jar(handler)
    await post(jar, 'sign-up', { email: 'hal@example.com', password: 'a long passphrase' })
    expect(await (await post(jar, 'forgot', { email: 'hal@example.com' })).json()).toEqual({ ok: true })
    // The reset email goes after the answer.
    await handler.settled()
    expect(logs).toEqual([])
    const reset = mailsTo('hal@example.com').find((mail) => /^Subject: .*password/im.test(mail.text))!
    expect(reset.from).toBe('no-reply@notes.example.com')
    // The first link in the message (its text part): as sent, with no HTML escape.
    const link = /http:\/\/localhost:3000(\/auth\/password\/reset\?[^\s"<>]+)/.exec(reset.text)![1]!.replaceAll('&amp;', '&')
    const token = new URL(link, jar.origin).searchParams.get('token')!
    expect((await jar.get(link)).status).toBe(200)
    expect((await post(jar, 'reset', { email: 'hal@example.com', token, password: 'a new passphrase' })).status).toBe(200)
    const signedIn = await jar.postForm('/auth/callback/password', { csrfToken: await jar.csrf(), email: 'hal@example.com', password: 'a new passphrase' }, asJson)
    expect(signedIn.status).toBe(200)
  })

  it('beside a Nodemailer provider, its own server and sender are the ones used', async () => {
    const { handler } = server({ server: `smtp://127.0.0.1:${sink.port}`, from }, [Nodemailer({ server: `smtp://127.0.0.1:${sink.port}`, from: 'sign-in@notes.example.com' })])
    await post(new Jar(handler), 'sign-up', { email: 'ida@example.com', password: 'a long passphrase' })
    expect(mailsTo('ida@example.com').map((mail) => mail.from)).toEqual(['no-reply@notes.example.com'])
  })
})

describe('what start-up says about the sender', () => {
  it('none: pass server and from, or sendEmail', () => {
    expect(() => server({})).toThrow(/Password provider "password" sends emails \(address confirmation, password reset\): pass it server and from \(SMTP through nodemailer\), or sendEmail/)
  })

  it('half of the SMTP settings: names the missing one', () => {
    expect(() => server({ server: `smtp://127.0.0.1:${sink.port}` })).toThrow(/sends by SMTP with server and from; its from \(the sender address\) is missing/)
    expect(() => server({ server: undefined, from })).toThrow(/its server \(an SMTP URL or nodemailer's transport options\) is missing/)
  })

  it('sendEmail and server both: one of them', () => {
    expect(() => server({ sendEmail: () => {}, server: `smtp://127.0.0.1:${sink.port}`, from })).toThrow(/pass sendEmail \(your mailer\) or server and from \(SMTP\), not both/)
  })
})
