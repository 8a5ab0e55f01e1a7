/** A latchkey handler with the organizations and SCIM plugins, and the steps the SCIM tests share. */
import { expect } from 'vitest'
import type { Adapter } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import { Latchkey } from 'latchkey/server'
import { organizations } from 'latchkey/plugins/organizations'
import { scim, type ScimOptions } from 'latchkey/plugins/scim'
import { Jar } from '../support/jar.js'
import { testSecret } from '../support/server.js'

// `it` may manage SCIM tokens but ranks as member; `editor` is an app role a group may map to.
export const orgs = organizations({ roles: { admin: { scim: ['manage'] }, it: { scim: ['manage'] }, editor: { doc: ['edit'] } } })
export const provisioning = scim()
export const plugins = [orgs, provisioning]

let seq = 0
export const unique = () => `${Date.now().toString(36)}${++seq}`

/** What a test may set beyond the plugin's options: listeners, rate limits, the session strategy. */
export interface AppExtras {
  events?: Record<string, (message: never) => unknown>
  rateLimit?: Parameters<typeof Latchkey>[0]['rateLimit']
  strategy?: 'database' | 'jwt'
}

export function scimApp(adapter: Adapter, options?: ScimOptions, extras: AppExtras = {}) {
  const logs: string[] = []
  const clock = { now: Date.now() }
  const handler = Latchkey({
    now: () => clock.now,
    secret: testSecret,
    adapter,
    plugins: [orgs, options ? scim(options) : provisioning],
    session: { strategy: extras.strategy ?? 'database' },
    rateLimit: extras.rateLimit ?? false,
    ...(extras.events && { events: extras.events as never }),
    logger: { error: (e) => logs.push(`error ${e.name}: ${e.message}`), warn: (w) => logs.push(`warn ${w}`), debug: () => {} },
    providers: [Credentials({ credentials: { username: {} }, authorize: async ({ username }) => (await adapter.getUser!(String(username))) ?? null })],
  })
  const signIn = async (id: string) => {
    const jar = new Jar(handler)
    const res = await jar.postForm('/auth/callback/credentials', { csrfToken: await jar.csrf(), username: id }, { 'x-auth-return-redirect': '1' })
    expect(res.status).toBe(200)
    return jar
  }
  const person = async (name: string) => {
    const id = `${name}-${unique()}`
    await adapter.createUser!({ id, email: `${id}@example.com`, emailVerified: new Date(), name })
    return { id, jar: await signIn(id) }
  }
  const post = async (jar: Jar, path: string, body: object) => jar.postJson(`/auth${path}`, { csrfToken: await jar.csrf(), ...body })
  /** An organization, its owner signed in, and a SCIM token of it. */
  const organization = async () => {
    const owner = await person('owner')
    const org = (await (await post(owner.jar, '/organizations', { action: 'create', name: 'Acme' })).json()) as { id: string }
    const made = await post(owner.jar, `/scim-tokens/${org.id}`, { action: 'create', name: 'IdP' })
    expect(made.status).toBe(200)
    const { token, id: tokenId } = (await made.json()) as { token: string; id: string }
    return { id: org.id, owner, token, tokenId }
  }
  /** A SCIM request as an IdP sends it: a bearer token, and a body given as data (a string is sent as is). */
  const call = (token: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    handler(
      new Request(`http://localhost:3000/auth/scim/v2${path}`, {
        method,
        headers: { accept: 'application/scim+json', ...(token !== null && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/scim+json; charset=utf-8' }), ...headers },
        ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    )
  /** The organization's page as its owner sees it (its members). */
  const owner = (org: { id: string; owner: { jar: Jar } }) => org.owner.jar.get(`/auth/organizations/${org.id}`)
  /** The role of `userId` in the organization, as its owner's page lists it (undefined: not a member). */
  const roleOf = async (org: { id: string; owner: { jar: Jar } }, userId: string): Promise<string | undefined> =>
    ((await (await owner(org)).json()).members as Array<{ userId: string; role: string }>).find((m) => m.userId === userId)?.role
  /** Another token of the organization, made by `jar` (its owner by default) with a group mapping. */
  const mappedToken = async (org: { id: string; owner: { jar: Jar } }, groupRoles: unknown, jar: Jar = org.owner.jar) => {
    const res = await post(jar, `/scim-tokens/${org.id}`, { action: 'create', name: 'Mapped', groupRoles })
    return { res, body: (await res.json()) as { token: string; id: string; groupRoles: Record<string, string>; error?: string } }
  }
  return { handler, clock, logs, signIn, person, post, organization, call, owner, roleOf, mappedToken }
}
