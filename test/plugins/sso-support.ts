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

export const orgs = organizations({ roles: { auditor: { report: ['read'] } } })

/** Which organization verified each domain: what the verified-domains lookup answers, in the tests. */
export const verified = new Map<string, string>()
export const enterprise = sso({ organizations: orgs, allowLoopbackHttp: true, domainOwner: async (domain) => verified.get(domain) ?? null })

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

export async function post(browser: Browser, app: App, path: string, fields: Record<string, unknown>, csrf = true): Promise<{ status: number; body: any }> {
  const { csrfToken } = (await (await browser.request(`${app.auth}/csrf`)).json()) as { csrfToken: string }
  const response = await browser.request(`${app.auth}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(csrf ? { csrfToken, ...fields } : fields),
  })
  return { status: response.status, body: await response.json().catch(() => null) }
}

export async function get(browser: Browser, app: App, path: string): Promise<{ status: number; body: any }> {
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
