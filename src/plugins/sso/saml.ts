/**
 * SAML 2.0 through a connection, with @node-saml/node-saml as the service provider: it checks
 * the signature (the assertion's, or the response's where the connection allows), takes the
 * assertion from the signed bytes only (so a wrapped, unsigned copy is never read), and checks
 * audience and time. latchkey adds what node-saml leaves to its caller: the assertion's Issuer is
 * the connection's IdP, a bearer SubjectConfirmation for this ACS URL still in its time, the
 * assertion used once (across servers: the store's `useSsoOnce`), and the request it answers.
 *
 * The IdP posts to the ACS cross-site, where the browser sends no SameSite=Lax cookie: the POST
 * checks everything but the browser, then sends it (303) to the same URL with the checked
 * identity sealed for two minutes and usable once; that GET arrives with the cookies, and an
 * answer to our request (InResponseTo) must match the request this browser started.
 */
import { readBody, randomToken, redirect, type Context, type Reply } from 'latchkey/server'
import type { SAML } from '@node-saml/node-saml'
import { serviceProvider, store } from './connections.js'
import { connectionNotFound, signInRefused } from './errors.js'
import { finishSignIn, type Identity } from './finish.js'
import { setFlow, takeFlow } from './oidc.js'
import type { Resolved } from './options.js'
import type { ConnectionRecord } from './records.js'
import { nodeSaml } from './saml-library.js'
import { sealFor, unsealFresh } from './seal.js'

const handoffSeconds = 120
const clockSkewMs = 60_000
const emailFormat = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'
const maxResponse = 256 * 1024

async function samlFor(ctx: Context, options: Resolved, c: ConnectionRecord, requestId?: string): Promise<SAML> {
  const { SAML } = await nodeSaml()
  const sp = serviceProvider(ctx, options, c)
  return new SAML({
    entryPoint: c.saml!.ssoUrl,
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    audience: sp.entityId,
    idpCert: c.saml!.certificates,
    idpIssuer: c.saml!.idpEntityId,
    wantAssertionsSigned: c.saml!.wantAssertionsSigned,
    // A signed response is enough where assertions need not be signed; one of the two always is.
    wantAuthnResponseSigned: false,
    // The request is checked against this browser's cookie at the GET (below), not a server cache.
    validateInResponseTo: 'never' as never,
    acceptedClockSkewMs: clockSkewMs,
    disableRequestedAuthnContext: true,
    identifierFormat: null,
    generateUniqueId: () => requestId ?? `_${randomToken(16)}`,
  })
}

async function samlConnection(ctx: Context, id: string | undefined): Promise<ConnectionRecord> {
  const c = id && /^[A-Za-z0-9-]{1,64}$/.test(id) ? await store(ctx).getSsoConnection(id) : null
  if (!c || c.kind !== 'saml' || !c.saml) throw connectionNotFound()
  return c
}

export async function startSaml(ctx: Context, options: Resolved, c: ConnectionRecord): Promise<Reply> {
  const request = `_${randomToken(16)}`
  const relay = randomToken(16)
  const url = await (await samlFor(ctx, options, c, request)).getAuthorizeUrlAsync(relay, undefined, {})
  await setFlow(ctx, { kind: 'saml', connection: c.id, request, relay })
  return redirect(ctx, url)
}

export async function spMetadata(ctx: Context, options: Resolved, id: string | undefined): Promise<Reply> {
  const c = await samlConnection(ctx, id)
  const xml = (await samlFor(ctx, options, c)).generateServiceProviderMetadata(null, null)
  return { status: 200, headers: { ...ctx.headers, 'content-type': 'application/samlmetadata+xml; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }, cookies: ctx.setCookies, body: xml }
}

type Handoff = { id: string; inResponseTo: string | null; relay: string | null; identity: Identity }

type Xml = { $?: Record<string, string>; _?: string } & Record<string, unknown>
const list = (v: unknown): Xml[] => (Array.isArray(v) ? (v as Xml[]) : [])
const time = (v: string | undefined) => (v === undefined ? undefined : Date.parse(v))

/** POST /saml-acs/:connection: the IdP's response, checked whole; the browser goes on to the GET. */
export async function acsPost(ctx: Context, options: Resolved, id: string | undefined): Promise<Reply> {
  const c = await samlConnection(ctx, id)
  const body = await readBody(ctx.request, Math.max(ctx.config.maxBodySize, maxResponse))
  const response = body.SAMLResponse
  const relay = body.RelayState === undefined ? null : body.RelayState
  if (typeof response !== 'string' || !response || response.length > maxResponse) throw signInRefused('expected a SAMLResponse')
  if (relay !== null && (typeof relay !== 'string' || relay.length > 2000)) throw signInRefused('expected RelayState to be short text')
  const saml = await samlFor(ctx, options, c)
  let profile
  try {
    profile = (await saml.validatePostResponseAsync({ SAMLResponse: response })).profile
  } catch (error) {
    throw signInRefused(`the SAML response did not pass its checks (${(error as Error).message})`)
  }
  if (!profile?.getAssertion) throw signInRefused('the SAML response carries no assertion')
  // What follows reads the assertion node-saml took from the signed bytes.
  const assertion = (profile.getAssertion() as { Assertion: Xml }).Assertion
  if (profile.issuer !== c.saml!.idpEntityId) throw signInRefused('the assertion is from another issuer than the connection\'s IdP')
  const sp = serviceProvider(ctx, options, c)
  const now = Date.now()
  const bearer = list(list(assertion.Subject)[0]?.SubjectConfirmation)
    .filter((s) => s.$?.Method === 'urn:oasis:names:tc:SAML:2.0:cm:bearer')
    .map((s) => list(s.SubjectConfirmationData)[0]?.$ ?? {})
    .find((d) => d.Recipient === sp.acsUrl && (time(d.NotOnOrAfter) ?? 0) > now - clockSkewMs && !((time(d.NotBefore) ?? 0) > now + clockSkewMs))
  if (!bearer) throw signInRefused('the assertion has no bearer confirmation for this ACS URL that is still in its time')
  const assertionId = assertion.$?.ID
  if (!assertionId) throw signInRefused('the assertion has no ID')
  const conditions = list(assertion.Conditions)[0]?.$
  const until = Math.max(time(bearer.NotOnOrAfter) ?? 0, time(conditions?.NotOnOrAfter) ?? 0) + clockSkewMs
  if (!(await store(ctx).useSsoOnce(`saml:${c.id}:${assertionId}`, new Date(until), new Date(ctx.now)))) throw signInRefused('the assertion was used already (a replay)')
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>
  const mapping = c.attributes
  const email = attributes[mapping.email] ?? profile.email ?? (profile.nameIDFormat === emailFormat ? profile.nameID : undefined)
  const handoff: Handoff = {
    id: randomToken(16),
    inResponseTo: bearer.InResponseTo || null,
    relay,
    identity: { subject: profile.nameID, email, name: attributes[mapping.name], groups: attributes[mapping.groups], emailVerified: true },
  }
  const sealed = await sealFor(ctx, `handoff ${c.id}`, handoff, handoffSeconds)
  return { status: 303, headers: { ...ctx.headers, location: `${sp.acsUrl}?handoff=${encodeURIComponent(sealed)}`, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }, cookies: ctx.setCookies, body: null }
}

/** GET /saml-acs/:connection?handoff=: the checked identity, in the browser that may use it. */
export async function acsGet(ctx: Context, options: Resolved, id: string | undefined): Promise<Reply> {
  const c = await samlConnection(ctx, id)
  const value = await unsealFresh<Handoff & { exp: number }>(ctx, `handoff ${c.id}`, ctx.url.searchParams.get('handoff'))
  if (!value) throw signInRefused('the hand-off from the ACS is missing, expired or not this server\'s')
  if (!(await store(ctx).useSsoOnce(`handoff:${value.id}`, new Date(value.exp), new Date(ctx.now)))) throw signInRefused('the hand-off was used already')
  const flow = await takeFlow(ctx)
  let callbackUrl: string | undefined
  if (value.inResponseTo !== null) {
    // An answer to a request: the one this browser made, through this connection, with its RelayState.
    if (!flow || flow.kind !== 'saml' || flow.connection !== c.id || flow.request !== value.inResponseTo || flow.relay !== value.relay) {
      throw signInRefused('the response answers a request this browser did not make')
    }
  } else {
    if (!c.saml!.idpInitiated) throw signInRefused('the connection does not take sign-ins the IdP starts (IdP-initiated)')
    // The IdP's RelayState is where to go: through the same check as any callbackUrl (this app's origin only).
    callbackUrl = value.relay ?? undefined
  }
  return finishSignIn(ctx, options, c, value.identity, callbackUrl)
}
