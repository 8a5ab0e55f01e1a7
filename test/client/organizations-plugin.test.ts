/**
 * The organizations plugin's requests, as the server reads them (method, path, JSON body with the
 * CSRF token), which of them tell the session engine the session may have changed, and the
 * server's refusals as `AuthClientError`s with its code.
 */
import { afterEach, expect, it, vi } from 'vitest'
import { organizations, invitationToken } from '../../src/client/plugins/organizations.js'
import { stubKernel } from './stub-kernel.js'
import { AuthClientError } from '../../src/client/errors.js'

const base = 'https://app.test/auth'
const id = 'a1b2c3d4-0000-4000-8000-000000000000'

/** The plugin over the client's stub kernel (real fetch helpers); what it sent (a POST's body as the JSON the server reads) and settled. */
function setUp(answer: (request: Request) => { status?: number; body: unknown } = () => ({ body: {} })) {
  const { kernel, sent, settled } = stubKernel(base, answer, { json: true })
  return { client: organizations().setup(kernel), sent, settled }
}

afterEach(() => vi.unstubAllGlobals())

it('sends each action as the server reads it: JSON with the CSRF token, the id in the path', async () => {
  const { client, sent, settled } = setUp()
  await client.list()
  await client.get(id)
  await client.create({ name: 'Acme', slug: 'acme' })
  await client.switch(id)
  await client.switch(null)
  await client.update(id, { name: 'Acme Inc.', logo: null })
  await client.setRole(id, 'user-b', 'admin')
  await client.removeMember(id, 'user-b')
  await client.invite(id, { email: 'b@example.com', role: 'member', callbackUrl: 'https://app.test/team' })
  await client.revokeInvitation(id, 'inv-1')
  await client.leave(id)
  await client.remove(id)
  const org = `${base}/organizations/${id}`
  expect(sent).toEqual([
    { method: 'GET', url: `${base}/organizations`, body: undefined },
    { method: 'GET', url: org, body: undefined },
    { method: 'POST', url: `${base}/organizations`, body: { action: 'create', name: 'Acme', slug: 'acme', csrfToken: 'the-csrf-token' } },
    { method: 'POST', url: `${base}/organizations`, body: { action: 'switch', organizationId: id, csrfToken: 'the-csrf-token' } },
    { method: 'POST', url: `${base}/organizations`, body: { action: 'switch', organizationId: null, csrfToken: 'the-csrf-token' } },
    { method: 'POST', url: org, body: { action: 'update', name: 'Acme Inc.', logo: null, csrfToken: 'the-csrf-token' } },
    { method: 'POST', url: org, body: { action: 'set-role', userId: 'user-b', role: 'admin', csrfToken: 'the-csrf-token' } },
    { method: 'POST', url: org, body: { action: 'remove-member', userId: 'user-b', csrfToken: 'the-csrf-token' } },
    { method: 'POST', url: org, body: { action: 'invite', email: 'b@example.com', role: 'member', callbackUrl: 'https://app.test/team', csrfToken: 'the-csrf-token' } },
    { method: 'POST', url: org, body: { action: 'revoke-invitation', invitationId: 'inv-1', csrfToken: 'the-csrf-token' } },
    { method: 'POST', url: org, body: { action: 'leave', csrfToken: 'the-csrf-token' } },
    { method: 'POST', url: org, body: { action: 'delete', csrfToken: 'the-csrf-token' } },
  ])
  // What may change the session is settled (every tab reads it anew); an invitation sent or revoked changes nothing of it.
  const path = `/organizations/${id}`
  expect(settled).toEqual(['/organizations', '/organizations', '/organizations', path, path, path, path, path])
})

it('an id is one path segment, whatever it holds', async () => {
  const { client, sent } = setUp()
  await client.get('../sessions?x=1')
  expect(sent[0]!.url).toBe(`${base}/organizations/..%2Fsessions%3Fx%3D1`)
})

it('accept: the token, or the emailed link it is in; answers the organization joined', async () => {
  const token = 'A'.repeat(43)
  const joined = { id, name: 'Acme', slug: 'acme', logo: null, role: 'member' }
  const { client, sent, settled } = setUp(() => ({ body: { organization: joined } }))
  expect(await client.accept(`https://app.test/auth/organizations/invitation?token=${token}&callbackUrl=x`)).toEqual(joined)
  expect(await client.accept(token)).toEqual(joined)
  expect(sent.map((s) => s.body)).toEqual([0, 1].map(() => ({ action: 'accept', token, csrfToken: 'the-csrf-token' })))
  expect(sent[0]!.url).toBe(`${base}/organizations/invitation`)
  expect(settled).toEqual(['/organizations/invitation', '/organizations/invitation'])
  expect(invitationToken('https://app.test/auth/organizations/invitation')).toBe('')
})

it("a refusal is an AuthClientError with the server's code, and nothing is settled", async () => {
  const refusals: Record<string, [number, string]> = {
    leave: [409, 'LastOwner'],
    'set-role': [403, 'OrganizationForbidden'],
    delete: [403, 'SessionNotFresh'],
    update: [409, 'SlugTaken'],
    accept: [400, 'InvitationInvalid'],
  }
  const { client, settled } = setUp((req) => {
    if (req.method === 'GET') return { status: 404, body: { error: 'OrganizationNotFound', message: 'No organization of yours has this id' } }
    const action = new URL(req.url).pathname.endsWith('/invitation') ? 'accept' : undefined
    const [status, error] = refusals[action ?? lastAction] ?? [500, 'x']
    return { status, body: { error } }
  })
  let lastAction = ''
  const refused = async (action: string, run: () => Promise<unknown>) => {
    lastAction = action
    const e = await run().then(() => undefined, (e: unknown) => e)
    expect(e).toBeInstanceOf(AuthClientError)
    return (e as AuthClientError).code
  }
  expect(await refused('get', () => client.get(id))).toBe('OrganizationNotFound')
  expect(await refused('leave', () => client.leave(id))).toBe('LastOwner')
  expect(await refused('set-role', () => client.setRole(id, 'user-b', 'owner'))).toBe('OrganizationForbidden')
  expect(await refused('delete', () => client.remove(id))).toBe('SessionNotFresh')
  expect(await refused('update', () => client.update(id, { slug: 'taken' }))).toBe('SlugTaken')
  expect(await refused('accept', () => client.accept('B'.repeat(43)))).toBe('InvitationInvalid')
  expect(settled).toEqual([])
})
