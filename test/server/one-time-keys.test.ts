/**
 * One-time secrets keyed by purpose and subject (issue 41, item 10): an email sign-in for the
 * "address" `password-reset:<victim>` must not land in the victim's password-reset slot (its code
 * and link would reset the password, and asking would void the victim's pending reset). Every
 * other purpose's key has a `:` or no `@`, and no address has a `:`; a password link's HMAC names
 * its purpose too.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Adapter } from '../../src/core/types.js'
import Email from '../../src/providers/email.js'
import Password, { type PasswordEmail } from '../../src/providers/password.js'
import { hmacHex } from '../../src/server/kernel/crypto.js'
import { Jar } from '../support/jar.js'
import { testSecret, testServer } from '../support/server.js'

const asJson = { 'x-auth-return-redirect': '1' }

/** A memory adapter that notes the identifier of every one-time record written. */
function recordingAdapter() {
  const store = MemoryAdapter()
  const writes: string[] = []
  const adapter: Adapter = {
    ...store,
    createVerificationToken: (record) => (writes.push(record.identifier), store.createVerificationToken!(record)),
    createVerificationCode: (record) => (writes.push(record.identifier), store.createVerificationCode!(record)),
  }
  return { adapter, writes }
}

function server(emailProvider?: ReturnType<typeof Email>) {
  const mail: PasswordEmail[] = []
  const { adapter, writes } = recordingAdapter()
  const made = testServer({
    adapter,
    rateLimit: false,
    extraProviders: [Password({ sendEmail: (m) => void mail.push(m), breached: false }), ...(emailProvider ? [emailProvider] : [])],
  })
  return { ...made, adapter, writes, mail }
}
type Made = ReturnType<typeof server>

const post = async (jar: Jar, path: string, fields: Record<string, string>) => jar.postForm(`/auth/password/${path}`, { csrfToken: await jar.csrf(), ...fields }, asJson)
const askEmailSignIn = async (jar: Jar, email: string, provider = 'email') => jar.postForm(`/auth/signin/${provider}`, { csrfToken: await jar.csrf(), email }, asJson)
const lastMail = (made: Made, kind: PasswordEmail['kind']) => made.mail.filter((m) => m.kind === kind).at(-1)

/** Ada signs up and confirms her address, then asks for a reset: answers the reset email she got. */
async function victimWithPendingReset(made: Made) {
  const jar = new Jar(made.handler)
  await post(jar, 'sign-up', { email: 'ada@example.com', password: 'a long passphrase' })
  expect((await post(jar, 'verify', { email: 'ada@example.com', code: lastMail(made, 'verify-email')!.code! })).status).toBe(200)
  expect(await (await post(jar, 'forgot', { email: 'ada@example.com' })).json()).toEqual({ ok: true })
  // The reset email goes after the answer.
  await made.handler.settled()
  return lastMail(made, 'reset-password')!
}

/** Other purposes' keys, as an attacker would type them: plain, in capitals, with spaces around. */
const forged = [
  'password-reset:ada@example.com',
  ' Password-Reset:Ada@Example.com ',
  'PASSWORD-RESET:ADA@EXAMPLE.COM',
  'password-verify:ada@example.com',
  'mfa-tries:user-ada@example.com',
  'mfa-pending:abc@example.com',
  'dbsc:register:abc@example.com',
  'webauthn:passkey@example.com',
  '"password-reset:ada"@example.com',
]

describe('one-time secrets keyed by purpose and subject', () => {
  it('an email sign-in for "password-reset:<victim>" (and every other purpose\'s prefix) is a 400: nothing stored, nothing sent; the victim\'s reset code still works', async () => {
    const made = server()
    const reset = await victimWithPendingReset(made)
    const attacker = new Jar(made.handler)
    made.writes.length = 0
    for (const email of forged) {
      const res = await askEmailSignIn(attacker, email)
      expect(res.status, email).toBe(400)
      expect(await res.json(), email).toMatchObject({ error: 'EmailSignin' })
    }
    expect(made.outbox).toEqual([])
    expect(made.writes).toEqual([])
    // The code sent for the victim's reset was not replaced: it resets her password.
    const victim = new Jar(made.handler)
    expect((await post(victim, 'reset', { email: 'ada@example.com', code: reset.code!, password: 'a new passphrase' })).status).toBe(200)
  })

  it('a code sign-in and a password email for such an "address" are refused with a 400, nothing stored', async () => {
    const made = server()
    const attacker = new Jar(made.handler)
    const res = await attacker.postForm('/auth/callback/email', { csrfToken: await attacker.csrf(), email: 'password-reset:ada@example.com', code: '123456' }, asJson)
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'InvalidCode' })
    // The password routes read an address the same way.
    const forgot = await post(attacker, 'forgot', { email: 'x:ada@example.com' })
    expect(forgot.status).toBe(400)
    expect(await forgot.json()).toMatchObject({ error: 'InvalidRequest' })
    expect(made.writes).toEqual([])
  })

  it("a provider's own normalizeIdentifier is checked too: an answer that is no address, or a throw, is a 400 and nothing is stored", async () => {
    const keepsColon = Email({ id: 'raw', sendVerificationRequest: () => {}, normalizeIdentifier: (s) => s.trim().toLowerCase() })
    const made = server(keepsColon)
    const attacker = new Jar(made.handler)
    for (const email of ['password-reset:ada@example.com', 'mfa-tries:user-ada']) {
      const res = await askEmailSignIn(attacker, email, 'raw')
      expect(res.status, email).toBe(400)
      expect(await res.json()).toMatchObject({ error: 'EmailSignin' })
    }
    const throwing = server(Email({ id: 'strict', sendVerificationRequest: () => {}, normalizeIdentifier: () => { throw new Error('Only one email allowed') } }))
    const res = await askEmailSignIn(new Jar(throwing.handler), 'a@example.com,b@example.com', 'strict')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'EmailSignin' })
    // The server log says why (the answer names only the code).
    expect(made.logs.join('\n')).toMatch(/normalizeIdentifier must answer one/)
    expect(throwing.logs.join('\n')).toMatch(/normalizeIdentifier refused this one/)
    expect([...made.writes, ...throwing.writes]).toEqual([])
  })

  it('a code or link obtained for one purpose never works for another', async () => {
    const made = server()
    const reset = await victimWithPendingReset(made)
    const jar = new Jar(made.handler)
    // The email sign-in's code and link for the same address are no reset code or link.
    expect((await askEmailSignIn(jar, 'ada@example.com')).status).toBe(200)
    const signInMail = made.outbox.at(-1)!
    const signInToken = new URL(signInMail.url).searchParams.get('token')!
    expect(await (await post(jar, 'reset', { email: 'ada@example.com', code: signInMail.code!, password: 'a new passphrase' })).json()).toMatchObject({ error: 'InvalidCode' })
    expect(await (await post(jar, 'reset', { email: 'ada@example.com', token: signInToken, password: 'a new passphrase' })).json()).toMatchObject({ error: 'InvalidCode' })
    // The reset's code and link are no sign-in code, nor an address confirmation.
    const resetToken = new URL(reset.url!).searchParams.get('token')!
    const codeSignIn = await jar.postForm('/auth/callback/email', { csrfToken: await jar.csrf(), email: 'ada@example.com', code: reset.code! }, asJson)
    expect(await codeSignIn.json()).toMatchObject({ error: 'InvalidCode' })
    expect(await (await post(jar, 'verify', { email: 'ada@example.com', token: resetToken })).json()).toMatchObject({ error: 'InvalidCode' })
    expect(await jar.session()).toBeNull()
    // An email sign-in's token in the reset slot (as an older version let it land there) still
    // does not match: the stored HMAC of a reset link names its purpose.
    await made.adapter.createVerificationToken!({ identifier: 'password-reset:ada@example.com', token: await hmacHex(testSecret, signInToken), expires: new Date(made.clock.now + 3600_000) })
    expect(await (await post(jar, 'reset', { email: 'ada@example.com', token: signInToken, password: 'a new passphrase' })).json()).toMatchObject({ error: 'InvalidCode' })
    // Each still works for its own purpose.
    expect((await post(jar, 'reset', { email: 'ada@example.com', token: resetToken, password: 'a new passphrase' })).status).toBe(200)
  })
})
