/**
 * What the sso tests share: an app with organizations and sso on the memory adapter (or one
 * given), an admin signed in with credentials who owns an organization, and the admin routes.
 */
import { MemoryAdapter } from '../../src/adapters/memory.js'
import type { Adapter, AuthConfig } from '../../src/core/types.js'
import Credentials from '../../src/providers/credentials.js'
import { organizations } from 'latchkey/plugins/organizations'
import { sso, type SsoStore } from 'latchkey/plugins/sso'
import { Browser, recordingLogger, startApp, type App } from '../oauth/harness.js'
import { testSecret } from '../support/server.js'
import { startIdp, type Idp } from '../support/idp.js'

export const orgs = organizations({ roles: { auditor: { report: ['read'] } } })

// domainOwner left out: the organizations plugin's verified domains say which organization owns a domain.
export const enterprise = sso({ organizations: orgs, allowLoopbackHttp: true })

/** `domain` verified by `organizationId` in the organizations plugin's store (its DNS proof is organizations-domains.test.ts's), taken from any organization that had it. */
export async function verifyDomain(adapter: Store, organizationId: string, domain: string): Promise<void> {
  await unverifyDomain(adapter, domain)
  const added = await adapter.addDomain({ id: crypto.randomUUID(), organizationId, domain, role: 'member', autoJoin: false, verifiedAt: null, createdAt: new Date(), challengeHash: 'test' })
  if ((await adapter.verifyDomain(organizationId, added.id, new Date()))?.verifiedAt === undefined) throw new Error(`${domain} was not verified`)
}

/** No organization has `domain` verified any more. */
export async function unverifyDomain(adapter: Store, domain: string): Promise<void> {
  const held = await adapter.verifiedDomain(domain)
  if (held) await adapter.removeDomain(held.organizationId, held.id)
}

export type Store = Adapter & SsoStore & Record<string, any>

export const newStore = () => MemoryAdapter({ plugins: [orgs, enterprise] }) as unknown as Store

export interface SsoApp extends App {
  adapter: Store
  logs: string[]
}

export async function ssoApp(adapter: Store = newStore(), extra: Partial<AuthConfig> = {}, app?: App): Promise<SsoApp> {
  const started = app ?? (await startApp())
  const { lines, logger } = recordingLogger()
  started.use({
    secret: testSecret,
    adapter,
    plugins: [orgs, enterprise],
    logger,
    rateLimit: false,
    providers: [Credentials({ credentials: { username: {} }, authorize: async ({ username }) => (await adapter.getUser!(String(username))) ?? null })],
    ...extra,
  })
  return Object.assign(started, { adapter, logs: lines })
}

let seq = 0
export const unique = () => `${Date.now().toString(36)}${++seq}`

/** A browser signed in as a new stored user (credentials). */
export async function signedInAs(app: SsoApp, email = `admin-${unique()}@admin.test`): Promise<{ browser: Browser; userId: string }> {
  const user = await app.adapter.createUser!({ id: `u-${unique()}`, email, emailVerified: new Date() })
  const browser = new Browser()
  const answer = await browser.postForm(app.auth, '/callback/credentials', { username: user.id })
  if (answer.status !== 200) throw new Error(`credentials sign-in failed: ${answer.status} ${await answer.text()}`)
  return { browser, userId: user.id }
}

export async function post(browser: Browser, app: Pick<App, 'auth'>, path: string, fields: Record<string, unknown>, csrf = true): Promise<{ status: number; body: any }> {
  const { csrfToken } = (await (await browser.request(`${app.auth}/csrf`)).json()) as { csrfToken: string }
  const response = await browser.request(`${app.auth}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(csrf ? { csrfToken, ...fields } : fields),
  })
  return { status: response.status, body: await response.json().catch(() => null) }
}

export async function get(browser: Browser, app: Pick<App, 'auth'>, path: string): Promise<{ status: number; body: any }> {
  const response = await browser.request(`${app.auth}${path}`)
  return { status: response.status, body: await response.json().catch(() => null) }
}

/** An admin with an organization of their own. */
export async function orgAdmin(app: SsoApp) {
  const admin = await signedInAs(app)
  const made = await post(admin.browser, app, '/organizations', { action: 'create', name: `Acme ${unique()}` })
  if (made.status !== 200) throw new Error(`organization not made: ${JSON.stringify(made.body)}`)
  return { ...admin, organizationId: made.body.id as string }
}

/**
 * The browser tests' IdP (oidc-provider, the demo's), with the client `acme` / `acme-secret` whose
 * redirect URI is the app's: `providers` starts it once the app's URL is known (an app-server
 * option), `idp()` answers it, `close` ends it.
 */
export function oidcIdp(): { providers: (appUrl: string) => Promise<[]>; idp: () => Idp; close: () => Promise<void> | undefined } {
  let idp: Idp | undefined
  return {
    providers: async (appUrl) => {
      idp = await startIdp({ clients: [{ client_id: 'acme', client_secret: 'acme-secret', redirect_uris: [`${appUrl}/auth/callback/sso`] }] })
      return []
    },
    idp: () => idp!,
    close: () => idp?.close(),
  }
}

