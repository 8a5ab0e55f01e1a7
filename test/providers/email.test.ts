/**
 * Email providers against real peers: nodemailer against an SMTP sink (smtp-server on
 * 127.0.0.1), the HTTP ones against a local node:http stub of each API.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmailConfig, SendVerificationRequestParams } from '../../src/core/types.js'
import { escapeHtml } from '../../src/server/kernel/page-html.js'
import { Jar } from '../support/jar.js'
import { testServer } from '../support/server.js'
import { partsOf, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'
import { emailProviders } from './all.js'

const url = 'https://app.example.com/auth/callback/email?token=abc123&email=ada%40example.com'

function params(provider: EmailConfig): SendVerificationRequestParams {
  return {
    identifier: 'ada@example.com',
    url,
    expires: new Date(Date.now() + 3600_000),
    provider,
    token: 'abc123',
    theme: { name: 'app.example.com' },
    request: new Request('https://app.example.com/auth/signin/email', { method: 'POST' }),
  }
}

describe('nodemailer', () => {
  let smtp: SmtpSink
  let port: number
  let received: SmtpSink['mails']

  beforeAll(async () => {
    smtp = await startSmtpSink()
    port = smtp.port
    received = smtp.mails
  })

  afterAll(() => smtp.close())

  it('builds an email provider configuration', () => {
    const provider = emailProviders.nodemailer({ server: 'smtp://localhost:25', from: 'a@b.c' })
    expect(provider).toMatchObject({ id: 'nodemailer', type: 'email', name: 'Email', from: 'a@b.c', maxAge: 86400 })
    expect(typeof provider.sendVerificationRequest).toBe('function')
  })

  it('sends the sign-in link through a real SMTP server', async () => {
    const provider = emailProviders.nodemailer({
      server: { host: '127.0.0.1', port, secure: false, ignoreTLS: true },
      from: 'Latchkey <no-reply@app.example.com>',
    })
    await provider.sendVerificationRequest(params(provider))
    expect(received).toHaveLength(1)
    const mail = received[0]!
    expect(mail.from).toBe('no-reply@app.example.com')
    expect(mail.to).toEqual(['ada@example.com'])
    expect(mail.raw).toMatch(/^Subject: Sign in to app\.example\.com/m)
    // Quoted-printable may fold the long link (the sink joined its soft line breaks); undo =3D before looking.
    const decoded = mail.raw.replace(/=3D/g, '=')
    expect(decoded).toContain(url)
    expect(decoded).toContain('text/plain')
    expect(decoded).toContain('text/html')
  })

  it("the server's sign-in email through a real SMTP server: the app's name in the subject, one link and one code in each part, Arabic right to left", async () => {
    const name = `Acme <script>alert("x")</script> & 'Co'`
    const made = testServer({
      theme: { name, brandColor: '#0a7f5a', logo: 'https://cdn.example.com/acme.png' },
      extraProviders: [emailProviders.nodemailer({ server: { host: '127.0.0.1', port, secure: false, ignoreTLS: true }, from: 'Acme <no-reply@app.example.com>' })],
    })
    for (const [accept, lang, dir, subject] of [
      ['en', 'en', 'ltr', `Sign in to ${name}`],
      ['ar', 'ar', 'rtl', `تسجيل الدخول إلى ${name}`],
    ] as const) {
      const jar = new Jar(made.handler)
      const res = await jar.postForm('/auth/signin/nodemailer', { csrfToken: await jar.csrf(), email: 'ada@example.com' }, { 'x-auth-return-redirect': '1', 'accept-language': accept })
      expect(res.status).toBe(200)
      const mail = received.at(-1)!
      expect(mail.to).toEqual(['ada@example.com'])
      const { subject: got, text, html } = partsOf(mail)
      expect(got).toBe(subject)
      const [link] = /http:\/\/localhost:3000\/auth\/callback\/nodemailer\?\S+/.exec(text)!
      const code = /:\n(\d{6})\n/.exec(text)![1]
      // The browser tests read the code from the English plain-text part.
      if (lang === 'en') expect(smtp.codeFor('ada@example.com')).toBe(code)
      expect(text.split('\n')[0]).toBe(name)
      expect(text.split(link)).toHaveLength(2)
      expect(text.split(code)).toHaveLength(2)
      expect(html).toContain(`<html lang="${lang}" dir="${dir}">`)
      expect(html.split(`<a href="${escapeHtml(link)}"`)).toHaveLength(2)
      expect(html.split('href=')).toHaveLength(2)
      expect(html.split(code)).toHaveLength(2)
      expect(html).toContain(`>${escapeHtml(name)}</h1>`)
      expect(html).not.toContain('<script>')
    }
  })

  it('accepts an SMTP URL as server', async () => {
    const provider = emailProviders.nodemailer({ server: `smtp://127.0.0.1:${port}?ignoreTLS=true`, from: 'no-reply@app.example.com' })
    const before = received.length
    await provider.sendVerificationRequest(params(provider))
    expect(received).toHaveLength(before + 1)
  })

  it('keeps a default when an option is given as undefined', () => {
    const provider = emailProviders.nodemailer({ server: 'smtp://localhost', from: 'a@b.c', sendVerificationRequest: undefined, maxAge: undefined })
    expect(typeof provider.sendVerificationRequest).toBe('function')
    expect(provider.maxAge).toBe(86400)
  })

  it('fails clearly without a server', async () => {
    const provider = emailProviders.nodemailer({ from: 'a@b.c' })
    await expect(provider.sendVerificationRequest(params(provider))).rejects.toThrow(/Nodemailer: the `server` option is required/)
  })

  it('lets options override the defaults', () => {
    const send = async () => {}
    const provider = emailProviders.nodemailer({ id: 'smtp', name: 'SMTP', maxAge: 600, sendVerificationRequest: send })
    expect(provider).toMatchObject({ id: 'smtp', name: 'SMTP', maxAge: 600, type: 'email' })
    expect(provider.sendVerificationRequest).toBe(send)
  })
})

interface Captured {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: string
}

describe('HTTP email providers', () => {
  let server: Server
  let base: string
  const requests: Captured[] = []
  let status = 200

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        requests.push({ method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
        res.writeHead(status, { 'Content-Type': 'application/json' })
        res.end(status < 300 ? '{"id":"msg_1"}' : '{"message":"denied"}')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  async function send(id: keyof typeof emailProviders, options: Record<string, unknown>): Promise<Captured> {
    requests.length = 0
    status = 200
    const provider = (emailProviders[id] as (o: any) => EmailConfig)({ apiBaseUrl: `${base}/api`, ...options })
    await provider.sendVerificationRequest(params(provider))
    expect(requests).toHaveLength(1)
    return requests[0]!
  }

  it('resend POSTs /emails with a bearer key and a JSON message', async () => {
    const req = await send('resend', { apiKey: 're_123', from: 'App <login@app.example.com>' })
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/api/emails')
    expect(req.headers.authorization).toBe('Bearer re_123')
    expect(req.headers['content-type']).toBe('application/json')
    const body = JSON.parse(req.body)
    expect(body).toMatchObject({ from: 'App <login@app.example.com>', to: 'ada@example.com', subject: 'Sign in to app.example.com' })
    expect(body.text).toContain(url)
    expect(body.html).toContain(url.replace(/&/g, '&#38;'))
  })

  it('sendgrid POSTs /v3/mail/send with personalizations', async () => {
    const req = await send('sendgrid', { apiKey: 'SG.key', from: 'login@app.example.com' })
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/api/v3/mail/send')
    expect(req.headers.authorization).toBe('Bearer SG.key')
    const body = JSON.parse(req.body)
    expect(body.personalizations).toEqual([{ to: [{ email: 'ada@example.com' }] }])
    expect(body.from).toEqual({ email: 'login@app.example.com' })
    expect(body.subject).toBe('Sign in to app.example.com')
    expect(body.content.map((c: { type: string }) => c.type)).toEqual(['text/plain', 'text/html'])
    expect(body.content[0].value).toContain(url)
  })

  it('postmark POSTs /email with the server token header', async () => {
    const req = await send('postmark', { apiKey: 'pm-token', from: 'login@app.example.com' })
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/api/email')
    expect(req.headers['x-postmark-server-token']).toBe('pm-token')
    expect(req.headers.accept).toBe('application/json')
    const body = JSON.parse(req.body)
    expect(body).toMatchObject({ From: 'login@app.example.com', To: 'ada@example.com', Subject: 'Sign in to app.example.com', MessageStream: 'outbound' })
    expect(body.TextBody).toContain(url)
    expect(body.HtmlBody).toContain('<a href=')
  })

  it('mailgun POSTs a form to /v3/<domain>/messages with Basic api:<key>', async () => {
    const req = await send('mailgun', { apiKey: 'key-abc', from: 'App <login@mg.app.example.com>' })
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/api/v3/mg.app.example.com/messages')
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('api:key-abc').toString('base64')}`)
    expect(req.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/)
    const form = new URLSearchParams(req.body)
    expect(form.get('from')).toBe('App <login@mg.app.example.com>')
    expect(form.get('to')).toBe('ada@example.com')
    expect(form.get('subject')).toBe('Sign in to app.example.com')
    expect(form.get('text')).toContain(url)
    expect(form.get('html')).toContain('<a href=')
  })

  it('mailgun takes an explicit domain', async () => {
    const req = await send('mailgun', { apiKey: 'k', from: 'login@app.example.com', domain: 'mail.example.org' })
    expect(req.path).toBe('/api/v3/mail.example.org/messages')
  })

  it('forwardemail POSTs /v1/emails with the key as the Basic user', async () => {
    const req = await send('forwardemail', { apiKey: 'fe-key', from: 'login@app.example.com' })
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/api/v1/emails')
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('fe-key:').toString('base64')}`)
    const body = JSON.parse(req.body)
    expect(body).toMatchObject({ from: 'login@app.example.com', to: 'ada@example.com', subject: 'Sign in to app.example.com' })
    expect(body.text).toContain(url)
  })

  it('loops POSTs /v1/transactional with the transactional id and the url variable', async () => {
    const req = await send('loops', { apiKey: 'loops-key', transactionalId: 'clfq6dinn000yl70fgwwyp82l' })
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/api/v1/transactional')
    expect(req.headers.authorization).toBe('Bearer loops-key')
    expect(JSON.parse(req.body)).toEqual({ transactionalId: 'clfq6dinn000yl70fgwwyp82l', email: 'ada@example.com', dataVariables: { url } })
  })

  it.each([
    ['resend', 'Resend', { apiKey: 'k', from: 'a@b.c' }],
    ['sendgrid', 'SendGrid', { apiKey: 'k', from: 'a@b.c' }],
    ['postmark', 'Postmark', { apiKey: 'k', from: 'a@b.c' }],
    ['mailgun', 'Mailgun', { apiKey: 'k', from: 'a@b.c' }],
    ['forwardemail', 'Forward Email', { apiKey: 'k', from: 'a@b.c' }],
    ['loops', 'Loops', { apiKey: 'k', transactionalId: 't' }],
  ] as const)('%s throws an error naming the provider and the status on failure', async (id, name, options) => {
    requests.length = 0
    status = 401
    const provider = (emailProviders[id] as (o: any) => EmailConfig)({ apiBaseUrl: base, ...options })
    await expect(provider.sendVerificationRequest(params(provider))).rejects.toThrow(new RegExp(`^${name}: .*HTTP 401`))
    status = 200
  })

  it.each([
    ['resend', 'Resend'],
    ['sendgrid', 'SendGrid'],
    ['postmark', 'Postmark'],
    ['mailgun', 'Mailgun'],
    ['forwardemail', 'Forward Email'],
    ['loops', 'Loops'],
  ] as const)('%s is an email provider named %s that needs its API key', async (id, name) => {
    const provider = (emailProviders[id] as (o: any) => EmailConfig)({})
    expect(provider).toMatchObject({ id, type: 'email', name })
    await expect(provider.sendVerificationRequest(params(provider))).rejects.toThrow(`${name}: the \`apiKey\` option is required`)
  })

  it('reads apiKey and from of the provider the server passes (the user may have changed them)', async () => {
    requests.length = 0
    const built = emailProviders.resend({ apiBaseUrl: base })
    await built.sendVerificationRequest(params({ ...built, apiKey: 're_late', from: 'late@app.example.com' }))
    expect(requests[0]!.headers.authorization).toBe('Bearer re_late')
    expect(JSON.parse(requests[0]!.body).from).toBe('late@app.example.com')
  })
})
