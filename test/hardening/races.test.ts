/**
 * Races, against the memory adapter and a real PostgreSQL server (DATABASE_URL): parallel first
 * sign-ins of one person make one user; sign-outs racing session reads never bring a session back;
 * parallel clicks on one email link sign in exactly once.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { PostgresAdapter, migrate } from '../../src/adapters/postgres/index.js'
import Credentials from '../../src/providers/credentials.js'
import Email from '../../src/providers/email.js'
import { resolveConfig } from '../../src/server/kernel/config.js'
import { createContext } from '../../src/server/kernel/context.js'
import { Latchkey } from '../../src/server/index.js'
import { completeSignIn } from '../../src/server/sign-in/complete.js'
import { storedSessionToken } from '../../src/server/kernel/session-token.js'
import type { Adapter, OAuth2Config, SendVerificationRequestParams } from '../../src/core/types.js'
import { createIsolatedSchema, type IsolatedSchema } from '../adapters/isolated-schema.js'
import { linkPageForm } from '../support/email-link.js'
import { Jar } from '../support/jar.js'
import { needsService } from '../support/needs-service.js'
import { lastLink, testSecret } from '../support/server.js'

const stores: Array<{ name: string; open: () => Promise<Adapter> }> = [{ name: 'memory', open: async () => MemoryAdapter() }]
const schemas: IsolatedSchema[] = []
const url = needsService('DATABASE_URL', 'PostgreSQL race suite (memory ran)', 'postgres://postgres@127.0.0.1:5432/test', 'test/hardening/races.test.ts')
if (url) {
  stores.push({
    name: 'postgresql',
    open: async () => {
      const schema = await createIsolatedSchema(url)
      schemas.push(schema)
      const pool = schema.pgPool(20)
      await migrate(PostgresAdapter(pool).db)
      return PostgresAdapter(pool)
    },
  })
}
afterAll(() => Promise.all(schemas.map((s) => s.drop())))

const oauth = (id: string): OAuth2Config<any> => ({ id, name: id, type: 'oauth', jwks_endpoint: undefined, allowDangerousEmailAccountLinking: true })

for (const store of stores) {
  describe(`races (${store.name})`, () => {
    it('parallel first sign-ins of one person through two providers make one user with both accounts', async () => {
      const adapter = await store.open()
      const config = resolveConfig({ secret: testSecret, adapter, providers: [oauth('alpha'), oauth('beta')], logger: { error: () => {}, warn: () => {}, debug: () => {} } })
      const signIn = (provider: string, n: number) =>
        completeSignIn(createContext(new Request(`http://localhost/auth/callback/${provider}`), config), {
          user: { email: `racer${n}@example.com`, name: 'R' },
          account: { type: 'oauth', provider, providerAccountId: `${provider}-${n}`, userId: '' },
          allowDangerousEmailAccountLinking: true,
        })
      const results = await Promise.allSettled(Array.from({ length: 10 }, (_, n) => [signIn('alpha', n), signIn('beta', n)]).flat())
      expect(results.filter((r) => r.status === 'rejected')).toEqual([])
      for (let n = 0; n < 10; n++) {
        const user = await adapter.getUserByEmail!(`racer${n}@example.com`)
        expect(user).not.toBeNull()
        expect((await adapter.getUserByAccount!({ provider: 'alpha', providerAccountId: `alpha-${n}` }))?.id).toBe(user!.id)
        expect((await adapter.getUserByAccount!({ provider: 'beta', providerAccountId: `beta-${n}` }))?.id).toBe(user!.id)
      }
    })

    it('sign-outs racing due session reads never bring the session back', async () => {
      const adapter = await store.open()
      let now = Date.parse('2026-03-01T00:00:00Z')
      const handler = Latchkey({
        secret: testSecret,
        adapter,
        now: () => now,
        providers: [Credentials({ authorize: (c) => ({ id: `u-${c.n}`, email: `u${c.n}@example.com` }) })],
      })
      for (let round = 0; round < 8; round++) {
        const jar = new Jar(handler)
        await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), n: String(round) })
        const token = jar.cookies.get('latchkey.session-token')!
        now += 2 * 86400_000 // due: every read below wants to extend it
        const csrfToken = await jar.csrf()
        const cookie = [...jar.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ')
        const read = () => handler(new Request('http://localhost:3000/auth/session', { headers: { cookie } })).then((r) => r.json())
        const signOut = () =>
          handler(new Request('http://localhost:3000/auth/signout', { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrfToken }) }))
        await Promise.all([read(), read(), signOut(), read(), read(), signOut(), read()])
        expect(await adapter.getSessionAndUser!(await storedSessionToken(token))).toBeNull()
        expect(await read()).toBeNull()
      }
    })

    it('parallel clicks on one email link sign in exactly once', async () => {
      const base = await store.open()
      let sessions = 0
      const adapter: Adapter = { ...base, createSession: (s) => (sessions++, base.createSession!(s)) }
      const outbox: SendVerificationRequestParams[] = []
      const handler = Latchkey({ secret: testSecret, adapter, logger: { error: () => {}, warn: () => {}, debug: () => {} }, providers: [Email({ sendVerificationRequest: (p) => void outbox.push(p) })] })
      const jar = new Jar(handler)
      await jar.postForm('/auth/signin/email', { csrfToken: await jar.csrf(), email: 'clicker@example.com', callbackUrl: '/in' })
      const link = lastLink(outbox)
      // Ten clicks in the asking browser (its cookie copied to each), ten on the link's page elsewhere.
      const asking = () => Object.assign(new Jar(handler), { cookies: new Map(jar.cookies) })
      const form = (await linkPageForm(await new Jar(handler).get(link)))!
      const click = () => new Jar(handler).postForm(form.action, form.fields, { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' })
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? click() : asking().get(link)).then((r) => r.headers.get('location'))))
      expect(answers.filter((l) => l === 'http://localhost:3000/in')).toHaveLength(1)
      expect(answers.filter((l) => l?.endsWith('error=Verification'))).toHaveLength(19)
      expect(sessions).toBe(1)
    })
  })
}
