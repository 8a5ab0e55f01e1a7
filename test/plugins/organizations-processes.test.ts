/**
 * Two server processes with the organizations plugin on one PostgreSQL database: an invitation
 * sent by one is accepted on the other, once; a member removed on one has lost the organization
 * from their session at the next read on the other (the role is read live, in the session's query).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { migrate, PostgresAdapter } from '../../src/adapters/postgres/index.js'
import { organizations } from 'latchkey/plugins/organizations'
import { createIsolatedSchema, type IsolatedSchema } from '../adapters/isolated-schema.js'
import { Jar } from '../support/jar.js'
import { needsService } from '../support/needs-service.js'
import { startPluginProcess, stopPluginProcess, type PluginProcess } from '../support/plugin-process.js'

const url = needsService('DATABASE_URL', 'organizations across two processes', 'postgres://postgres@127.0.0.1:5432/test', 'test/plugins/organizations-processes.test.ts')
const script = new URL('./organizations-server.ts', import.meta.url).pathname

if (url) {
  describe('organizations, two server processes, one PostgreSQL database', () => {
    let schema: IsolatedSchema
    const orgs = organizations()
    const fetcher = (request: Request) => fetch(request, { redirect: 'manual' })
    let a: PluginProcess
    let b: PluginProcess

    beforeAll(async () => {
      schema = await createIsolatedSchema(url)
      // The users, with proven addresses, made in the store both servers read.
      const pool = schema.pgPool(2)
      await migrate(PostgresAdapter(pool).db, { plugins: [orgs] })
      const store = PostgresAdapter(pool, { plugins: [orgs] })
      for (const id of ['ada', 'bob']) await store.createUser({ id, email: `${id}@example.com`, emailVerified: new Date(), name: id })
      const env = { DATABASE_URL: url, LATCHKEY_TEST_SCHEMA: schema.name, AUTH_SECRET: 'organizations-processes-secret-0123456789' }
      a = await startPluginProcess(script, env)
      b = await startPluginProcess(script, env)
    }, 60_000)
    afterAll(async () => {
      await Promise.all([a, b].map(stopPluginProcess))
      await schema?.drop()
    })

    const signIn = async (server: PluginProcess, id: string) => {
      const jar = new Jar(fetcher, server.origin)
      const res = await jar.postForm(`${server.origin}/auth/callback/credentials`, { csrfToken: await jar.csrf(), username: id }, { 'x-auth-return-redirect': '1' })
      expect(res.status).toBe(200)
      return jar
    }
    const post = async (jar: Jar, server: PluginProcess, path: string, body: object) => jar.postJson(`${server.origin}/auth${path}`, { csrfToken: await jar.csrf(), ...body })
    const organizationOn = async (jar: Jar, server: PluginProcess) => ((await (await jar.get(`${server.origin}/auth/session`)).json()) as { organization?: unknown }).organization

    test('invited on A, accepted on B once; removed on A, gone from the session on B at the next read', async () => {
      const ada = await signIn(a, 'ada')
      const org = (await (await post(ada, a, '/organizations', { action: 'create', name: 'Acme', slug: 'acme' })).json()) as { id: string }
      expect((await post(ada, a, `/organizations/${org.id}`, { action: 'invite', email: 'bob@example.com', role: 'admin' })).status).toBe(200)
      await expect.poll(() => a.sent.length).toBe(1)
      const token = new URL(a.sent[0]!.text.match(/http:\/\/app\.test\/auth\/organizations\/invitation\?\S+/)![0]).searchParams.get('token')!

      // bob signs in on B and accepts there, twice at once on both servers: one wins.
      const bob = await signIn(b, 'bob')
      const answers = await Promise.all([post(bob, b, '/organizations/invitation', { action: 'accept', token }), post(bob, a, '/organizations/invitation', { action: 'accept', token })])
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400])
      // The winner made it the session's active organization, which both servers read.
      expect(await organizationOn(bob, a)).toEqual({ id: org.id, slug: 'acme', role: 'admin' })
      expect(await organizationOn(bob, b)).toEqual({ id: org.id, slug: 'acme', role: 'admin' })

      // A role changed on A is read on B; a removal on A ends it on B.
      expect((await post(ada, a, `/organizations/${org.id}`, { action: 'set-role', userId: 'bob', role: 'member' })).status).toBe(200)
      expect(await organizationOn(bob, b)).toEqual({ id: org.id, slug: 'acme', role: 'member' })
      expect((await post(ada, a, `/organizations/${org.id}`, { action: 'remove-member', userId: 'bob' })).status).toBe(200)
      expect(await organizationOn(bob, b)).toBeUndefined()
      expect(await organizationOn(bob, a)).toBeUndefined()
      expect((await (await bob.get(`${b.origin}/auth/organizations/${org.id}`)).json()).error).toBe('OrganizationNotFound')
    })
  })
}
