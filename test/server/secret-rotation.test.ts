/**
 * Rotating `secret` across instances (docs/deployment.md#secrets-and-rotation): three servers on
 * one store, at each step of the rollout. Step 1 puts the new secret last everywhere (`[old, new]`:
 * the old one still signs, both verify); step 2 puts it first (`[new, old]`); step 3 drops the old
 * one after the longest lifetime of what it signed. While any two steps run side by side, whatever
 * one instance made (a CSRF token, a session, an email link or code) works on the other. Skipping
 * step 1 is what breaks: an instance on `[old]` cannot read what `[new, old]` signs.
 */
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { followEmailLink } from '../support/email-link.js'
import { Jar } from '../support/jar.js'
import { lastLink, testServer } from '../support/server.js'

const oldSecret = 'the-old-secret-0123456789-abcdefgh'
const newSecret = 'the-new-secret-9876543210-zyxwvuts'
const steps = { before: [oldSecret], first: [oldSecret, newSecret], second: [newSecret, oldSecret], after: [newSecret] }
type Step = keyof typeof steps

/** Two instances at two steps of the rollout, on one store, and a browser that reaches either. */
function pair(made: Step, used: Step, strategy: 'jwt' | 'database' = 'database') {
  const adapter = MemoryAdapter()
  const maker = testServer({ secret: steps[made], adapter, strategy })
  const user = testServer({ secret: steps[used], adapter, strategy })
  let at = maker.handler
  const jar = new Jar((request) => at(request))
  return {
    maker,
    user,
    jar,
    /** From now on the browser's requests go to `server`, as a load balancer may send them. */
    on(server: typeof maker) {
      at = server.handler
    },
  }
}

const signInByLink = async (jar: Jar, email: string) => jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email, callbackUrl: '/dashboard' })

/** The neighbouring steps of the rollout, which run side by side while it rolls out. */
const neighbours: Array<[Step, Step]> = [
  ['before', 'first'],
  ['first', 'before'],
  ['first', 'second'],
  ['second', 'first'],
  ['second', 'after'],
  ['after', 'second'],
]

describe('secret rotation across instances', () => {
  it.each(neighbours)('a CSRF token made at step "%s" is accepted at step "%s"', async (made, used) => {
    const { jar, user, on } = pair(made, used)
    const csrfToken = await jar.csrf()
    on(user)
    const res = await jar.postForm('/auth/signin/email', { csrfToken, email: 'ada@example.com', callbackUrl: '/dashboard' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toMatch(/\/auth\/verify-request/)
    expect(user.outbox).toHaveLength(1)
  })

  it.each(neighbours)('an email link sent at step "%s" signs in at step "%s", and the session reads on both', async (made, used) => {
    const { jar, maker, user, on } = pair(made, used)
    await signInByLink(jar, 'grace@example.com')
    on(user)
    const res = await followEmailLink(jar, lastLink(maker.outbox))
    expect(res.headers.get('location')).toBe('http://localhost:3000/dashboard')
    expect((await jar.session())?.user.email).toBe('grace@example.com')
    on(maker)
    expect((await jar.session())?.user.email).toBe('grace@example.com')
  })

  it.each(neighbours)('a JWT session made at step "%s" reads at step "%s"', async (made, used) => {
    const { jar, user, on } = pair(made, used, 'jwt')
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: 'ada', password: 'lovelace' })
    expect(res.status).toBe(302)
    on(user)
    expect((await jar.session())?.user.email).toBe('ada@example.com')
  })

  it.each(neighbours)('an email code sent at step "%s" is right at step "%s"', async (made, used) => {
    const { jar, maker, user, on } = pair(made, used)
    await signInByLink(jar, 'hopper@example.com')
    const code = maker.outbox.at(-1)!.code ?? ''
    expect(code).toMatch(/\S/)
    on(user)
    const res = await jar.postForm('/auth/callback/email', { csrfToken: await jar.csrf(), email: 'hopper@example.com', code })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('http://localhost:3000/dashboard')
    expect((await jar.session())?.user.email).toBe('hopper@example.com')
  })

  it('skipping step 1 fails: what "[new, old]" signs, "[old]" cannot read', async () => {
    const { jar, user, on } = pair('second', 'before', 'jwt')
    const csrfToken = await jar.csrf()
    await jar.postForm('/auth/callback/credentials', { csrfToken, username: 'ada', password: 'lovelace' })
    on(user)
    const refused = await jar.postForm('/auth/signin/email', { csrfToken, email: 'ada@example.com', callbackUrl: '/dashboard' })
    expect(refused.headers.get('location') ?? String(refused.status)).toMatch(/MissingCSRF|403/)
    expect(user.outbox).toHaveLength(0)
    expect(await jar.session()).toBeNull()
  })
})
