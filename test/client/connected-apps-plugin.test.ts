/**
 * The connectedApps client plugin's requests, as the server's /connected-apps reads them (GET, and
 * a POST with the CSRF token, `action` and `id`), and the server's refusal as an `AuthClientError`
 * with its code.
 */
import { afterEach, expect, it, vi } from 'vitest'
import { connectedApps } from '../../src/client/plugins/connected-apps.js'
import { AuthClientError } from '../../src/client/errors.js'
import { stubKernel } from './stub-kernel.js'

const base = 'https://app.test/auth'
const app = { id: 'cli', name: 'CLI', logoUri: null, scopes: [{ scope: 'tools:read', words: { en: 'Read your tools' } }], grantedAt: '2026-06-01T00:00:00.000Z', lastUsedAt: null }

function setUp(answer: (request: Request) => { status?: number; body: unknown }) {
  const { kernel, sent } = stubKernel(base, answer)
  return { client: connectedApps().setup(kernel), sent }
}

afterEach(() => vi.unstubAllGlobals())

it('lists with GET /connected-apps and revokes with a POST carrying the CSRF token, the action and the id; answers the apps', async () => {
  const { client, sent } = setUp((req) => ({ body: { apps: req.method === 'GET' ? [app] : [] } }))
  expect(await client.list()).toEqual([app])
  expect(await client.revoke('https://client.example/meta.json')).toEqual([])
  expect(sent[0]).toMatchObject({ method: 'GET', url: `${base}/connected-apps` })
  expect(sent[1]).toMatchObject({ method: 'POST', url: `${base}/connected-apps` })
  expect(Object.fromEntries(new URLSearchParams(sent[1]!.body))).toEqual({ csrfToken: 'the-csrf-token', action: 'revoke', id: 'https://client.example/meta.json' })
})

it('a refusal is an AuthClientError with the server’s code', async () => {
  const { client } = setUp(() => ({ status: 404, body: { error: 'ConnectedAppNotFound', message: 'None of your connected apps has this id' } }))
  const refused = await client.revoke('cli').catch((e: unknown) => e)
  expect(refused).toBeInstanceOf(AuthClientError)
  expect(refused).toMatchObject({ code: 'ConnectedAppNotFound' })
})
