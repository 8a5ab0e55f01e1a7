/**
 * Microsoft Entra ID's multi-tenant sign-in, against the Demo IdP acting as one Entra tenant: its
 * issuer is `<origin>/<tenant>/v2.0`, its ID tokens carry `tid`, and the `common`,
 * `organizations` and `consumers` aliases answer discovery the way Microsoft's do.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { OAuthConfig } from '../../src/core/types.js'
import MicrosoftEntraID from '../../src/providers/microsoft-entra-id.js'
import { clearDiscoveryCache } from '../../src/server/features/oauth/discovery.js'
import { tenantIssuerKind } from '../../src/server/features/oauth/tenants.js'
import { startIdp, type Idp } from '../support/idp.js'
import { alice, atIdp, beginSignIn, Browser, callbackOf, countingAdapter, deliver, recordingLogger, sessionOf, signIn, startApp, type App, type Finished } from './harness.js'
import { startTamperProxy, type TamperProxy } from './token-tamper.js'

const secret = 'a-test-secret-of-enough-length-0123456789'
const tenant = randomUUID()
const otherTenant = randomUUID()
const client = { clientId: 'entra-app', clientSecret: 'entra-secret' }

let app: App
let idp: Idp
let tamper: TamperProxy
let log: ReturnType<typeof recordingLogger>

function entra(id: string, issuer: string, extra: Partial<OAuthConfig<any>> = {}): OAuthConfig<any> {
  // The module's own discovery and key URLs, pointed at the local tenant's origin.
  return { ...MicrosoftEntraID({ ...client, issuer }), id, ...extra } as OAuthConfig<any>
}

const ids = ['entra-common', 'entra-organizations', 'entra-consumers', 'entra-tenant', 'entra-common-tampered', 'entra-tenant-tampered']

beforeAll(async () => {
  app = await startApp()
  idp = await startIdp({
    tenant,
    clients: [{ client_id: client.clientId, client_secret: client.clientSecret, redirect_uris: ids.map((id) => `${app.auth}/callback/${id}`) }],
  })
  tamper = await startTamperProxy(`${idp.issuer}/token`, idp.keys.private)
})

afterAll(async () => {
  await Promise.all([app?.close(), idp?.close(), tamper?.close()])
})

beforeEach(() => {
  clearDiscoveryCache()
  tamper.rewrite = undefined
  log = recordingLogger()
  const alias = (name: string) => `${idp.origin}/${name}/v2.0`
  app.use({
    secret,
    adapter: countingAdapter().adapter,
    logger: log.logger,
    providers: [
      entra('entra-common', alias('common')),
      entra('entra-organizations', alias('organizations')),
      entra('entra-consumers', alias('consumers')),
      entra('entra-tenant', idp.issuer),
      entra('entra-common-tampered', alias('common'), { token: tamper.tokenUrl }),
      entra('entra-tenant-tampered', idp.issuer, { token: tamper.tokenUrl }),
    ],
  })
})

describe('Microsoft Entra ID tenants', () => {
  it('the Demo IdP answers discovery as Entra does', async () => {
    const common = (await (await fetch(`${idp.origin}/common/v2.0/.well-known/openid-configuration`)).json()) as { issuer: string }
    expect(common.issuer).toBe(`${idp.origin}/{tenantid}/v2.0`)
    const own = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string }
    expect(own.issuer).toBe(idp.issuer)
  })

  for (const alias of ['common', 'organizations', 'consumers']) {
    it(`signs in through the ${alias} alias, with and without an iss in the authorization response`, async () => {
      for (const withIss of [true, false]) {
        const browser = new Browser()
        const done = await signInAs(browser, `entra-${alias}`, withIss)
        expect(done.error, log.lines.join('\n')).toBeUndefined()
        expect((await sessionOf(browser, app))?.user.email).toBe(alice.email)
      }
    })
  }

  it('signs in with a single-tenant issuer', async () => {
    const browser = new Browser()
    const done = await signIn(browser, app, 'entra-tenant', alice)
    expect(done.error, log.lines.join('\n')).toBeUndefined()
    expect((await sessionOf(browser, app))?.user.email).toBe(alice.email)
  })

  it('under common, refuses an ID token whose tid is not the tenant of its iss', async () => {
    tamper.rewrite = (claims) => ({ ...claims, tid: otherTenant })
    for (const withIss of [true, false]) {
      const browser = new Browser()
      expect((await signInAs(browser, 'entra-common-tampered', withIss)).error).toBe('OAuthCallbackError')
      expect(await sessionOf(browser, app)).toBeNull()
    }
    expect(log.lines.join('\n')).toMatch(/"iss" \(issuer\) claim/)
  })

  it('under common, takes another tenant’s token only when no response named a tenant; a single tenant never', async () => {
    tamper.rewrite = (claims) => ({ ...claims, tid: otherTenant, iss: `${idp.origin}/${otherTenant}/v2.0` })
    const anyTenant = new Browser()
    expect((await signInAs(anyTenant, 'entra-common-tampered', false)).error, log.lines.join('\n')).toBeUndefined()
    expect((await sessionOf(anyTenant, app))?.user.email).toBe(alice.email)

    // The authorization response named this tenant; a token from another one does not belong to it.
    const named = new Browser()
    expect((await signInAs(named, 'entra-common-tampered', true)).error).toBe('OAuthCallbackError')
    expect(await sessionOf(named, app)).toBeNull()

    const single = new Browser()
    expect((await signIn(single, app, 'entra-tenant-tampered', alice)).error).toBe('OAuthCallbackError')
    expect(await sessionOf(single, app)).toBeNull()
  })

  it('refuses an iss parameter that is not a tenant of the template', async () => {
    const browser = new Browser()
    const callback = callbackOf(await atIdp(browser, await beginSignIn(browser, app, 'entra-common'), alice))
    callback.searchParams.set('iss', `${idp.origin}/not-a-tenant/v2.0`)
    expect((await deliver(browser, callback)).error).toBe('OAuthCallbackError')
    expect(await sessionOf(browser, app)).toBeNull()
  })
})

/** A whole sign-in; `withIss: false` drops the RFC 9207 `iss` from the authorization response, as Entra ID sends none. */
async function signInAs(browser: Browser, providerId: string, withIss: boolean): Promise<Finished> {
  const callback = callbackOf(await atIdp(browser, await beginSignIn(browser, app, providerId), alice))
  expect(callback.searchParams.get('iss')).toBe(idp.issuer)
  if (!withIss) callback.searchParams.delete('iss')
  return deliver(browser, callback)
}

describe('which discovered issuers a configured alias accepts', () => {
  const base = 'https://login.microsoftonline.com'
  const configured = (segment: string) => new URL(`${base}/${segment}/v2.0`)
  const guid = '9188040d-6c67-4c5b-b112-36a304b66dad'

  it('the {tenantid} template and one tenant’s own issuer, under an alias', () => {
    expect(tenantIssuerKind(configured('common'), `${base}/{tenantid}/v2.0`)).toBe('template')
    expect(tenantIssuerKind(configured('organizations'), `${base}/{tenantid}/v2.0/`)).toBe('template')
    expect(tenantIssuerKind(configured('consumers'), `${base}/${guid}/v2.0`)).toBe('tenant')
  })

  it('nothing else', () => {
    // A single tenant stays pinned, even if its document were a template.
    expect(tenantIssuerKind(configured(guid), `${base}/{tenantid}/v2.0`)).toBeNull()
    expect(tenantIssuerKind(configured('common'), `https://evil.example/{tenantid}/v2.0`)).toBeNull()
    expect(tenantIssuerKind(configured('common'), `${base}/{tenantid}/v1.0`)).toBeNull()
    expect(tenantIssuerKind(configured('common'), `${base}/not-a-tenant/v2.0`)).toBeNull()
    expect(tenantIssuerKind(configured('common'), `${base}/${guid}/extra/v2.0`)).toBeNull()
    expect(tenantIssuerKind(new URL('https://accounts.example/v2.0'), `https://accounts.example/{tenantid}/v2.0`)).toBeNull()
  })
})
