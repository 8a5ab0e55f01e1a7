/**
 * Two server processes with the SCIM plugin on one PostgreSQL database: a user provisioned
 * through one signs in on the other; deprovisioned through A (PATCH active false, Okta's shape),
 * their session in the organization is gone on B at the next read; provisioned again and then
 * DELETEd through B, gone on A.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { migrate, PostgresAdapter } from '../../src/adapters/postgres/index.js'
import { sha256Hex } from 'latchkey/server'
import { createIsolatedSchema, type IsolatedSchema } from '../adapters/isolated-schema.js'
import { Jar } from '../support/jar.js'
import { needsService } from '../support/needs-service.js'
import { startPluginProcess, stopPluginProcess, type PluginProcess } from '../support/plugin-process.js'
import { plugins } from './scim-support.js'

const url = needsService('DATABASE_URL', 'SCIM across two processes', 'postgres://postgres@127.0.0.1:5432/test', 'test/plugins/scim-processes.test.ts')
const script = new URL('./scim-server.ts', import.meta.url).pathname

if (url) {
  describe('SCIM, two server processes, one PostgreSQL database', () => {
    let schema: IsolatedSchema
    let a: PluginProcess
    let b: PluginProcess
    const token = `lks_${'t'.repeat(43)}`
    const org = crypto.randomUUID()

    beforeAll(async () => {
      schema = await createIsolatedSchema(url)
      const pool = schema.pgPool(2)
      await migrate(PostgresAdapter(pool).db, { plugins })
      const store = PostgresAdapter(pool, { plugins }) as any
      await store.createUser({ id: 'owner', email: 'owner@example.com', emailVerified: new Date() })
      await store.createOrganization({ id: org, name: 'Acme', slug: 'acme', logo: null, createdAt: new Date() }, { id: crypto.randomUUID(), organizationId: org, userId: 'owner', role: 'owner', joinedAt: new Date() })
      await store.createScimToken({ id: crypto.randomUUID(), organizationId: org, name: 'Okta', tokenHash: await sha256Hex(token), createdBy: 'owner', createdAt: new Date() })
      const env = { DATABASE_URL: url, LATCHKEY_TEST_SCHEMA: schema.name, AUTH_SECRET: 'scim-processes-secret-0123456789abcdef' }
      a = await startPluginProcess(script, env)
      b = await startPluginProcess(script, env)
    }, 60_000)
    afterAll(async () => {
      await Promise.all([a, b].map(stopPluginProcess))
      await schema?.drop()
    })

    const fetcher = (request: Request) => fetch(request, { redirect: 'manual' })
    const call = (server: PluginProcess, method: string, path: string, body?: object) =>
      fetch(`${server.origin}/auth/scim/v2${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' }, ...(body && { body: JSON.stringify(body) }) })
    const signIn = async (server: PluginProcess, id: string) => {
      const jar = new Jar(fetcher, server.origin)
      const res = await jar.postForm(`${server.origin}/auth/callback/credentials`, { csrfToken: await jar.csrf(), username: id }, { 'x-auth-return-redirect': '1' })
      expect(res.status).toBe(200)
      const switched = await jar.postJson(`${server.origin}/auth/organizations`, { csrfToken: await jar.csrf(), action: 'switch', organizationId: org })
      expect(switched.status).toBe(200)
      return jar
    }
    const sessionOn = async (jar: Jar, server: PluginProcess) => (await jar.get(`${server.origin}/auth/session`)).json()
    const userIdOf = async (mail: string) => {
      const res = await fetch(`${a.origin}/auth/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${mail}"`)}`, { headers: { authorization: `Bearer ${token}` } })
      return (await res.json()).Resources[0].id as string
    }

    test('deprovisioned on one server, signed out on the other at the next read', async () => {
      const mail = 'ada@example.com'
      const made = await call(a, 'POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: mail, emails: [{ primary: true, value: mail, type: 'work' }], active: true })
      expect(made.status).toBe(201)
      const scimId = (await made.json()).id
      const pool = schema.pgPool(1)
      const latchkeyId = (await pool.query('SELECT user_id FROM scim_users WHERE id = $1', [scimId])).rows[0].user_id as string
      await pool.end()

      const ada = await signIn(b, latchkeyId)
      expect((await sessionOn(ada, a)).organization).toMatchObject({ id: org })
      const off = await call(a, 'PATCH', `/Users/${scimId}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { active: false } }] })
      expect(off.status).toBe(200)
      expect(await sessionOn(ada, b)).toBeNull()

      // Provisioned again on B, signed in on A, deleted on B: gone on A.
      expect((await call(b, 'PATCH', `/Users/${scimId}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'Replace', path: 'active', value: 'True' }] })).status).toBe(200)
      const again = await signIn(a, latchkeyId)
      expect((await sessionOn(again, b)).organization).toMatchObject({ id: org })
      expect((await call(b, 'DELETE', `/Users/${scimId}`)).status).toBe(204)
      expect(await sessionOn(again, a)).toBeNull()
      expect(await userIdOf(mail).catch(() => null)).toBeNull()
    })
  })
}
