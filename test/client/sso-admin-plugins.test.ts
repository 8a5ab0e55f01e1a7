/**
 * The ssoConnections and scimTokens client plugins' requests, as the server's
 * /sso-connections/:organization and /scim-tokens/:organizationId read them (GET; a POST with the
 * CSRF token and `action`, JSON where fields are lists), and a refusal as an `AuthClientError`.
 */
import { afterEach, expect, it, vi } from 'vitest'
import { scimTokens } from '../../src/client/plugins/scim-tokens.js'
import { ssoConnections } from '../../src/client/plugins/sso-connections.js'
import { AuthClientError } from '../../src/client/errors.js'
import { stubKernel } from './stub-kernel.js'

const base = 'https://app.test/auth'

function setUp(answer: (request: Request) => { status?: number; body: unknown }) {
  const { kernel, sent } = stubKernel(base, answer)
  return { sso: ssoConnections().setup(kernel), scim: scimTokens().setup(kernel), sent }
}

afterEach(() => vi.unstubAllGlobals())

it('ssoConnections: lists with GET, and creates, tests and deletes with JSON POSTs naming the action (domains as a list), the id escaped in the path', async () => {
  const { sso, sent } = setUp((req) => ({ body: req.method === 'GET' ? { connections: [{ id: 'c1' }] } : { ok: true, message: 'fine' } }))
  expect(await sso.list('org/1')).toEqual([{ id: 'c1' }])
  await sso.create('org/1', { kind: 'oidc', name: 'Acme', issuer: 'https://idp.test', clientId: 'a', domains: ['acme.test'] })
  expect(await sso.test('org/1', 'c1')).toEqual({ ok: true, message: 'fine' })
  await sso.update('org/1', 'c1', { name: 'Acme 2' })
  await sso.remove('org/1', 'c1')
  expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([`GET ${base}/sso-connections/org%2F1`, ...Array(4).fill(`POST ${base}/sso-connections/org%2F1`)])
  const bodies = sent.slice(1).map((s) => JSON.parse(s.body!))
  expect(sent[1]!.type).toContain('application/json')
  expect(bodies).toEqual([
    { csrfToken: 'the-csrf-token', action: 'create', kind: 'oidc', name: 'Acme', issuer: 'https://idp.test', clientId: 'a', domains: ['acme.test'] },
    { csrfToken: 'the-csrf-token', action: 'test', id: 'c1' },
    { csrfToken: 'the-csrf-token', action: 'update', name: 'Acme 2', id: 'c1' },
    { csrfToken: 'the-csrf-token', action: 'delete', id: 'c1' },
  ])
})

it('scimTokens: lists with GET, creates with a name and revokes with an id; the answer keeps the token shown once', async () => {
  const made = { id: 't1', name: 'Okta', createdBy: 'u1', createdAt: '2026-01-01T00:00:00.000Z', token: 'secret-token', endpoint: `${base}/scim/v2` }
  const { scim, sent } = setUp((req) => ({ body: req.method === 'GET' ? { tokens: [], endpoint: made.endpoint } : /revoke/.test(sent.at(-1)?.body ?? '') ? { revoked: 't1' } : made }))
  expect(await scim.list('o1')).toEqual({ tokens: [], endpoint: made.endpoint })
  expect(await scim.create('o1', 'Okta')).toEqual(made)
  expect(await scim.revoke('o1', 't1')).toEqual({ revoked: 't1' })
  expect(sent[0]).toMatchObject({ method: 'GET', url: `${base}/scim-tokens/o1` })
  expect(Object.fromEntries(new URLSearchParams(sent[1]!.body))).toEqual({ csrfToken: 'the-csrf-token', action: 'create', name: 'Okta' })
  expect(Object.fromEntries(new URLSearchParams(sent[2]!.body))).toEqual({ csrfToken: 'the-csrf-token', action: 'revoke', id: 't1' })
})

it('a refusal is an AuthClientError with the server’s code', async () => {
  const { sso, scim } = setUp(() => ({ status: 403, body: { error: 'SessionNotFresh', message: 'Sign in again' } }))
  for (const refused of [await sso.create('o1', { kind: 'saml', name: 'x', metadataUrl: 'https://idp.test/m' }).catch((e: unknown) => e), await scim.create('o1', 'x').catch((e: unknown) => e)]) {
    expect(refused).toBeInstanceOf(AuthClientError)
    expect(refused).toMatchObject({ code: 'SessionNotFresh' })
  }
})
