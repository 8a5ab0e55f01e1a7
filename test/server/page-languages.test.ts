/**
 * The server's own pages speak the visitor's language: `Accept-Language` against the configured
 * `languages`, English when nothing matches (whatever the header holds), `lang`, `dir`,
 * `Content-Language` and `Vary` to match; every page in another language with no English left;
 * the app's `messages` and `addedLanguages`; the password emails in the request's language; and
 * each shipped catalogue complete.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { languages, type PageMessages } from '../../src/locales/index.js'
import en from '../../src/locales/en/pages.js'
import Passkey from '../../src/providers/passkey.js'
import Password, { type PasswordEmail } from '../../src/providers/password.js'
import { acceptedLanguages } from '../../src/server/kernel/page-language.js'
import { Jar } from '../support/jar.js'
import { lastLink, testServer, type TestServerOptions } from '../support/server.js'
import { secretOf, totp } from '../support/totp.js'

const asJson = { 'x-auth-return-redirect': '1' }

async function signInPage(accept: string | undefined, options: TestServerOptions = {}) {
  const res = await new Jar(testServer(options).handler).get('/auth/signin', accept === undefined ? {} : { 'accept-language': accept })
  return { res, html: await res.text() }
}

/** The page's HTML, its character references read back. */
async function pageText(res: Response): Promise<string> {
  return (await res.text()).replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))
}

const langOf = (html: string) => /<html lang="([^"]*)" dir="(ltr|rtl)">/.exec(html)?.slice(1)

/** The page's words a person reads: tags and what the app named (providers, credential fields) taken out. */
function readable(html: string, appWords: string[] = []): string {
  let text = html.replace(/<style>[\s\S]*?<\/style>/, '').replace(/<[^>]*>/g, ' ')
  for (const word of appWords) text = text.split(word).join(' ')
  return text
}

/** English a translated page must not show. */
const english = /\b(sign|signs|signed|the|your|with|continue|email|password|try|again|check|choose|confirm|save|use|recovery|authenticator|account|new|ask|out|device|stay|error|this)\b/i
const testServerWords = ['Credentials', 'Username', 'Password', 'Email', 'grace@example.com', 'ada@example.com', 'dee@example.com']

describe('choosing the language', () => {
  it('fr: a French page, lang="fr", Content-Language: fr, Vary: Accept-Language', async () => {
    const { res, html } = await signInPage('fr')
    expect(res.status).toBe(200)
    expect(langOf(html)).toEqual(['fr', 'ltr'])
    expect(res.headers.get('content-language')).toBe('fr')
    expect(res.headers.get('vary')).toMatch(/(^|,\s*)Accept-Language(\s*,|$)/i)
    expect(html).toContain('<title>Se connecter</title>')
    expect(html).toContain('Se connecter avec Credentials')
  })

  it.each([
    ['de-CH, ja;q=0.9', 'de', 'Mit Credentials anmelden'],
    ['ja;q=0.5, zh-CN;q=0.9', 'zh-Hans', '通过 Credentials 登录'],
    ['pt', 'pt-BR', 'Entrar com Credentials'],
    ['zh-TW', 'en', 'Sign in with Credentials'],
    ['fr;q=0, de;q=0.1', 'de', 'Mit Credentials anmelden'],
  ])('%s → %s', async (accept, lang, words) => {
    const { res, html } = await signInPage(accept)
    expect(langOf(html)?.[0]).toBe(lang)
    expect(res.headers.get('content-language')).toBe(lang)
    expect(html).toContain(words)
  })

  it('*, nothing, garbage and a 10 KB header: English, 200, no stack', async () => {
    const long = `${'x-'.repeat(5000)}fr`
    const many = Array.from({ length: 2000 }, (_, i) => `q${i};q=0.${i % 10}`).join(',')
    for (const accept of [undefined, '', '*', ';;;,,,', 'fr;q=abc', 'fr;q=2', '12-34', 'a'.repeat(10240), long, many, 'de;q=0.5;q=0.9', '\u00e9t\u00e9', '\u00f0\u009f\u0092\u00a5']) {
      const { res, html } = await signInPage(accept)
      expect(res.status, String(accept).slice(0, 40)).toBe(200)
      expect(langOf(html)).toEqual(['en', 'ltr'])
      expect(html).toContain('Sign in with Credentials')
      expect(html).not.toMatch(/at \w+ \(|Error:/)
    }
  })

  it('reads the weights: malformed ranges and weights are left out, most wanted first, ties in order', () => {
    expect(acceptedLanguages('da, en-GB;q=0.8, en;q=0.7')).toEqual(['da', 'en-GB', 'en'])
    expect(acceptedLanguages('fr;q=0.2, de;q=0.9, es')).toEqual(['es', 'de', 'fr'])
    expect(acceptedLanguages('*, fr;q=oops, <b>, de ; q=0.5, ja;q=0')).toEqual(['de'])
    expect(acceptedLanguages(`fr, ${'de, '.repeat(100)}ja`)).not.toContain('ja')
    expect(acceptedLanguages(`${' '.repeat(300)}fr`)).toEqual([])
  })

  it('ar and he: dir="rtl"', async () => {
    expect(langOf((await signInPage('ar')).html)).toEqual(['ar', 'rtl'])
    expect(langOf((await signInPage('he-IL')).html)).toEqual(['he', 'rtl'])
  })

  it('languages: ["en", "de"] turns French away to English, the first; ["de", "en"] to German', async () => {
    const first = await signInPage('fr', { languages: ['en', 'de'] })
    expect(langOf(first.html)?.[0]).toBe('en')
    expect(first.html).toContain('Sign in with Credentials')
    expect(langOf((await signInPage('fr-FR, de;q=0.5', { languages: ['en', 'de'] })).html)?.[0]).toBe('de')
    expect(langOf((await signInPage('fr', { languages: ['de', 'en'] })).html)?.[0]).toBe('de')
  })

  it('keeps the Vary a trusted origin sets', async () => {
    const jar = new Jar(testServer({ trustedOrigins: ['https://app.example'] }).handler)
    const res = await jar.get('/auth/signin', { origin: 'https://app.example', 'accept-language': 'fr' })
    expect(res.headers.get('vary')).toBe('Origin, Accept-Language')
  })
})

describe("the app's words", () => {
  it('messages overrides one message of a shipped language, the rest as shipped', async () => {
    const { html } = await signInPage('fr', { messages: { fr: { signIn: 'Connexion' } } })
    expect(html).toContain('<h1>Connexion</h1>')
    expect(html).toContain('Se connecter avec Credentials')
    expect((await signInPage('de', { messages: { fr: { signIn: 'Connexion' } } })).html).toContain('<h1>Anmelden</h1>')
  })

  it('addedLanguages adds a language, chosen like a shipped one; a missing message is refused at start-up', async () => {
    const nl: PageMessages = { ...en, signIn: 'Inloggen', signInWith: 'Inloggen met {name}' }
    const { res, html } = await signInPage('nl-BE', { addedLanguages: { nl } })
    expect(res.headers.get('content-language')).toBe('nl')
    expect(html).toContain('Inloggen met Credentials')
    const { signIn: _, ...lacking } = nl
    // @ts-expect-error a language added must have every message
    expect(() => testServer({ addedLanguages: { nl: lacking } })).toThrow(/addedLanguages\["nl"\] lacks signIn/)
  })

  it('refuses at start-up what no page could show', () => {
    expect(() => testServer({ languages: ['en', 'tlh'] })).toThrow(/languages names "tlh", which is neither shipped/)
    expect(() => testServer({ languages: [] })).toThrow(/non-empty list/)
    // @ts-expect-error no such message
    expect(() => testServer({ messages: { fr: { signInn: 'x' } } })).toThrow(/"signInn", which is no page message/)
    // @ts-expect-error not a shipped language
    expect(() => testServer({ messages: { nl: { signIn: 'x' } } })).toThrow(/messages\["nl"\] names no shipped language/)
  })
})

describe('every page, in another language, with no English left', () => {
  it('the error page (fr), its message chosen from the known codes only', async () => {
    const jar = new Jar(testServer().handler)
    const res = await jar.get('/auth/error?error=Verification', { 'accept-language': 'fr' })
    const html = await pageText(res)
    expect(html).toContain("Le lien de connexion n'est plus valide.")
    expect(html).toContain('Réessayer</a>')
    expect(readable(html)).not.toMatch(english)
    const odd = await (await jar.get('/auth/error?error=constructor', { 'accept-language': 'fr' })).text()
    expect(odd).toContain('La configuration du serveur pose problème.')
    expect(odd).not.toContain('function')
  })

  it('the sign-in page with the credentials, email and password forms, and an error (de)', async () => {
    const made = testServer({ adapter: MemoryAdapter(), extraProviders: [Password({ sendEmail: () => {}, breached: false })] })
    const html = await (await new Jar(made.handler).get('/auth/signin?error=CredentialsSignin', { 'accept-language': 'de' })).text()
    expect(html).toContain('Die Anmeldung ist fehlgeschlagen.')
    expect(html).toContain('<label>E-Mail <input type="email" name="email" required autocomplete="email"></label>')
    expect(html).toContain('<label>Passwort <input name="password" type="password"')
    expect(html).toContain('Mit Password anmelden')
    expect(readable(html, testServerWords)).not.toMatch(english)
  })

  it('an OAuth button (ja) and no providers at all (es)', async () => {
    const idp = { id: 'idp', name: 'IdP', type: 'oauth', authorization: 'https://idp.example/a', token: 'https://idp.example/t', clientId: 'c', clientSecret: 's' } as const
    const ja = await (await new Jar(testServer({ extraProviders: [idp as never] }).handler).get('/auth/signin', { 'accept-language': 'ja' })).text()
    expect(ja).toContain('IdP でサインイン</button>')
    expect(readable(ja, [...testServerWords, 'IdP'])).not.toMatch(english)
    const es = await (await new Jar(testServer({ providers: [] }).handler).get('/auth/signin', { 'accept-language': 'es' })).text()
    expect(es).toContain('No hay ningún proveedor configurado.')
  })

  it('the sign-out and verify-request pages (pt-BR)', async () => {
    const jar = new Jar(testServer().handler)
    const out = await (await jar.get('/auth/signout', { 'accept-language': 'pt-BR' })).text()
    expect(out).toContain('<button>Sair</button>')
    expect(readable(out)).not.toMatch(english)
    const verify = await (await jar.get('/auth/verify-request', { 'accept-language': 'pt-BR' })).text()
    expect(verify).toContain('Enviamos um link de login')
    expect(readable(verify)).not.toMatch(english)
  })

  it("the password link pages (fr)", async () => {
    const made = testServer({ adapter: MemoryAdapter(), extraProviders: [Password({ sendEmail: () => {}, breached: false })] })
    const jar = new Jar(made.handler)
    const verify = await (await jar.get('/auth/password/verify?email=dee@example.com&token=t', { 'accept-language': 'fr' })).text()
    expect(verify).toContain('<button>Confirmer mon adresse</button>')
    expect(readable(verify, testServerWords)).not.toMatch(english)
    const reset = await (await jar.get('/auth/password/reset?email=dee@example.com&token=t', { 'accept-language': 'fr' })).text()
    expect(reset).toContain('<label>Nouveau mot de passe <input')
    expect(reset).toContain('Enregistrer le nouveau mot de passe')
    expect(readable(reset, testServerWords)).not.toMatch(english)
  })

  it("the password's sign-up and forgot-password pages, and the sign-in page's notice and passkey (es)", async () => {
    const made = testServer({ adapter: MemoryAdapter(), extraProviders: [Password({ sendEmail: () => {}, breached: false }), Passkey()] })
    const jar = new Jar(made.handler)
    const signUp = await (await jar.get('/auth/password/sign-up?error=PasswordBreached', { 'accept-language': 'es' })).text()
    expect(signUp).toContain('<button>Crear la cuenta</button>')
    expect(signUp).toContain('Esta contraseña ha aparecido en una filtración de datos.')
    expect(readable(signUp, testServerWords)).not.toMatch(english)
    const forgot = await (await jar.get('/auth/password/forgot', { 'accept-language': 'es' })).text()
    expect(forgot).toContain('<button>Enviar el enlace</button>')
    expect(readable(forgot, testServerWords)).not.toMatch(english)
    const signIn = await (await jar.get('/auth/signin?notice=password-reset', { 'accept-language': 'es' })).text()
    expect(signIn).toContain('Tu contraseña se ha cambiado.')
    expect(readable(signIn.replace(/<script>[\s\S]*?<\/script>/, ''), [...testServerWords, 'Passkey'])).not.toMatch(english)
  })

  it('the email link page, for nobody and over another account (de)', async () => {
    const made = testServer()
    const person = new Jar(made.handler)
    await person.postForm('/auth/signin/email', { csrfToken: await person.csrf(), email: 'grace@example.com', callbackUrl: '/dashboard' })
    const link = lastLink(made.outbox)
    const scanner = await (await new Jar(made.handler).get(link, { 'accept-language': 'de' })).text()
    expect(scanner).toContain('<h1>Auf diesem Gerät als grace@example.com anmelden?</h1>')
    expect(readable(scanner, testServerWords)).not.toMatch(english)
    const ada = new Jar(made.handler)
    await ada.postForm('/auth/callback/credentials', { csrfToken: await ada.csrf(), username: 'ada', password: 'lovelace' }, asJson)
    const over = await (await ada.get(link, { 'accept-language': 'de' })).text()
    expect(over).toContain('Dieser Browser ist als <strong>ada@example.com</strong> angemeldet.')
    expect(over).toContain('Als ada@example.com angemeldet bleiben</a>')
    expect(readable(over, testServerWords)).not.toMatch(english)
  })

  it('the second-factor step, its trust offer in the language (fr and ar)', async () => {
    const made = testServer({ adapter: MemoryAdapter(), mfa: { trustDevices: 30 * 86400 } })
    const jar = new Jar(made.handler)
    await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' }, asJson)
    const started = (await (await jar.postForm('/auth/mfa', { csrfToken: await jar.csrf(), action: 'enroll', label: 'Phone' })).json()) as { factor: { id: string }; uri: string }
    await jar.postForm('/auth/mfa', { csrfToken: await jar.csrf(), action: 'confirm', id: started.factor.id, code: totp(secretOf(started.uri), made.clock.now) })
    const device = new Jar(made.handler)
    await device.postForm('/auth/callback/credentials', { csrfToken: await device.csrf(), username: 'ada', password: 'lovelace' }, asJson)
    const fr = await pageText(await device.get('/auth/signin?error=SecondFactorRequired', { 'accept-language': 'fr' }))
    expect(fr).toContain("Saisissez le code de votre application d'authentification")
    expect(fr).toMatch(/Ne plus demander sur cet appareil pendant 30\sjours/u)
    expect(fr).toContain('<summary>Utiliser un code de récupération</summary>')
    expect(readable(fr)).not.toMatch(english)
    const ar = await (await device.get('/auth/signin?error=SecondFactorRequired', { 'accept-language': 'ar' })).text()
    expect(langOf(ar)).toEqual(['ar', 'rtl'])
    expect(ar).toMatch(/لمدة 30\sيومًا/u)
    expect(readable(ar)).not.toMatch(english)
  })
})

describe('the password emails', () => {
  async function signUp(accept: string) {
    const mail: PasswordEmail[] = []
    const jar = new Jar(testServer({ adapter: MemoryAdapter(), extraProviders: [Password({ sendEmail: (m) => void mail.push(m), breached: false })] }).handler)
    await jar.postForm('/auth/password/sign-up', { csrfToken: await jar.csrf(), email: 'dee@example.com', password: 'a long passphrase' }, { ...asJson, 'accept-language': accept })
    return mail[0]
  }

  it('are in the language of the request that sends them (de)', async () => {
    const sent = await signUp('de-AT, en;q=0.5')
    expect(sent.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für localhost:3000')
    expect(sent.text).toMatch(/^localhost:3000\n\nBestätigen Sie diese Adresse, um Ihr Konto bei localhost:3000 fertig einzurichten\.\n\nMeine Adresse bestätigen: http:/)
    expect(sent.text).toMatch(/Der Link ist \d+\sMinuten lang gültig, der Code 10 Minuten\./u)
    expect(sent.html).toContain('Oder geben Sie diesen Code dort ein, wo Sie ihn angefordert haben:</td>')
    expect(sent.html).toContain(`>${sent.code}</div>`)
    expect(readable(sent.html, ['localhost:3000'])).not.toMatch(english)
  })

  it('in English, word for word', async () => {
    const sent = await signUp('en-US')
    expect(sent.subject).toBe('Confirm your email address for localhost:3000')
    expect(sent.text).toBe(
      [
        'localhost:3000',
        'Confirm this address to finish creating your account on localhost:3000.',
        `Confirm my address: ${sent.url}`,
        `Or enter this code where you asked:\n${sent.code}`,
        'The link works for 60 minutes, the code for 10 minutes.',
        'If you did not create an account, ignore this email: nothing happens without the confirmation.',
      ].join('\n\n') + '\n',
    )
  })
})

describe('the sign-in email', () => {
  async function ask(accept: string) {
    const made = testServer()
    const jar = new Jar(made.handler)
    await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'grace@example.com' }, { ...asJson, 'accept-language': accept })
    return made.outbox.at(-1)!
  }

  it('comes written in the language of the request that asks for it (de), for the provider to send as it is', async () => {
    const sent = await ask('de-CH, en;q=0.5')
    expect(sent.message!.subject).toBe('Bei localhost:3000 anmelden')
    expect(sent.message!.text).toBe(
      `localhost:3000\n\nMelden Sie sich über den folgenden Link bei localhost:3000 an.\n\nAnmelden: ${sent.url}\n\n` +
        `Oder geben Sie diesen Code dort ein, wo Sie Ihre Adresse eingegeben haben:\n${sent.code}\n\n` +
        'Der Link ist 24 Stunden lang gültig, der Code 10 Minuten.\n\n' +
        'Wenn Sie diese E-Mail nicht angefordert haben, können Sie sie ignorieren.\n',
    )
    expect(sent.message!.html).toContain('<html lang="de" dir="ltr">')
    expect(sent.message!.html).toContain('Melden Sie sich über den folgenden Link bei localhost:3000 an.</td>')
    expect(readable(sent.message!.html, ['localhost:3000'])).not.toMatch(english)
  })

  it('in English, word for word what signInMessage writes; in Hebrew right to left', async () => {
    const { signInMessage } = await import('../../src/providers/lib/email.js')
    const sent = await ask('en')
    const now = sent.codeExpires!.getTime() - 10 * 60_000
    expect(sent.message).toEqual(signInMessage({ url: sent.url, expires: sent.expires, code: sent.code, codeExpires: sent.codeExpires, theme: sent.theme, now }))
    expect(sent.message!.text).toBe(
      `localhost:3000\n\nUse the link below to sign in to localhost:3000.\n\nSign in: ${sent.url}\n\nOr enter this code where you typed your address:\n${sent.code}\n\n` +
        'The link works for 24 hours, the code for 10 minutes.\n\nIf you did not ask for this email, you can ignore it.\n',
    )
    expect((await ask('he')).message!.html).toContain('<html lang="he" dir="rtl">')
  })

  it('the built-in providers send the message the server wrote', async () => {
    const { default: Resend } = await import('../../src/providers/resend.js')
    const bodies: { subject: string; text: string }[] = []
    const fetched = globalThis.fetch
    globalThis.fetch = (async (_url: string, init: RequestInit) => (bodies.push(JSON.parse(String(init.body))), new Response('{}'))) as typeof fetch
    try {
      const provider = Resend({ apiKey: 'k', from: 'a@example.com' })
      const message = { subject: 'Bei x anmelden', text: 'Hallo', html: '<p>Hallo</p>' }
      await provider.sendVerificationRequest({ identifier: 'g@example.com', url: 'https://x/auth/callback/resend?token=t', expires: new Date(), provider, token: 't', theme: { name: 'x' }, request: new Request('https://x'), message })
    } finally {
      globalThis.fetch = fetched
    }
    expect(bodies[0]).toMatchObject({ subject: 'Bei x anmelden', text: 'Hallo' })
  })
})
