/**
 * GET and POST /sso-connections/:organization: an organization's connections, for its members
 * whose role holds `sso:manage` (owner and admin). Every answer starts from the caller's own
 * membership: another organization's id answers as one that does not exist, and a connection id
 * of another organization as one that does not exist. Changes need a fresh sign-in: a connection
 * decides who may sign in as the organization's members.
 */
import { AuthError, json, readAction, requireFresh, requireOwner, type Body, type Context, type Reply } from 'latchkey/server'
import { organizationsStore, store, view } from './connections.js'
import { connectionNotFound } from './errors.js'
import { readAttributes, readDomains, readFlag, readGroupRoles, readId, readIdpUrl, readKind, readRole, readText } from './fields.js'
import { discoverIssuer } from './oidc-discovery.js'
import type { Resolved } from './options.js'
import type { ConnectionChanges, ConnectionRecord, OidcSettings } from './records.js'
import { readSamlSettings } from './saml-settings.js'
import { seal } from './seal.js'

export const permission = 'sso:manage'
export const secretUse = 'oidc client secret'
const defaultAttributes = { email: 'email', name: 'name', groups: 'groups' }

async function admin(ctx: Context, options: Resolved, organizationId: string | undefined) {
  const me = await requireOwner(ctx)
  if (!organizationId) throw new AuthError('InvalidRequest', 'Expected the organization id after /sso-connections/', { status: 400 })
  const orgs = organizationsStore(ctx)
  const [member, organization] = await Promise.all([orgs.getMember(organizationId, me.user.id), orgs.getOrganization(organizationId)])
  if (!member || !organization) throw new AuthError('OrganizationNotFound', 'No organization of yours has this id', { status: 404 })
  if (!options.organizations.roles.allows(member.role, permission)) throw new AuthError('OrganizationForbidden', `Your role in this organization does not allow this (${permission})`, { status: 403 })
  return { me, organizationId }
}

export async function listConnections(ctx: Context, options: Resolved, organizationId: string | undefined): Promise<Reply> {
  const found = await admin(ctx, options, organizationId)
  const list = await store(ctx).listSsoConnections(found.organizationId)
  return json(ctx, { connections: list.map((c) => view(ctx, options, c)) })
}

const actions = ['create', 'update', 'delete', 'test'] as const

export async function connectionsPost(ctx: Context, options: Resolved, organizationId: string | undefined): Promise<Reply> {
  const { body, action } = await readAction(ctx, actions)
  const { me, organizationId: orgId } = await admin(ctx, options, organizationId)
  if (action === 'create') {
    requireFresh(ctx, me.signedInAt)
    return json(ctx, view(ctx, options, await create(ctx, options, orgId, body)))
  }
  const connection = await store(ctx).getSsoConnection(readId(body, 'id'))
  if (!connection || connection.organizationId !== orgId) throw connectionNotFound()
  if (action === 'test') return json(ctx, await test(ctx, options, connection))
  requireFresh(ctx, me.signedInAt)
  if (action === 'delete') {
    if (!(await store(ctx).deleteSsoConnection(orgId, connection.id))) throw connectionNotFound()
    return json(ctx, { deleted: connection.id })
  }
  const updated = await store(ctx).updateSsoConnection(orgId, connection.id, await changes(ctx, options, connection, body))
  if (!updated) throw connectionNotFound()
  return json(ctx, view(ctx, options, updated))
}

async function create(ctx: Context, options: Resolved, organizationId: string, body: Body): Promise<ConnectionRecord> {
  const kind = readKind(body)
  const now = new Date(ctx.now)
  const id = crypto.randomUUID()
  const base = {
    id,
    organizationId,
    kind,
    name: readText(body, 'name', 100, true),
    domains: readDomains(body) ?? [],
    required: readFlag(body, 'required') ?? false,
    defaultRole: body.defaultRole === undefined ? 'member' : readRole(body.defaultRole, 'defaultRole', options.organizations.roles),
    groupRoles: readGroupRoles(body, options.organizations.roles) ?? {},
    attributes: readAttributes(body, defaultAttributes) ?? defaultAttributes,
    createdAt: now,
    updatedAt: now,
  }
  if (kind === 'oidc') {
    const oidc = readOidc(body, options, undefined)
    const secret = readText(body, 'clientSecret', 2000)
    return store(ctx).createSsoConnection({ ...base, oidc, saml: null, sealedSecret: secret ? await seal(ctx.config.secrets, secretUse, secret) : null })
  }
  const saml = await readSamlSettings(body, options, undefined)
  return store(ctx).createSsoConnection({ ...base, oidc: null, saml, sealedSecret: null })
}

function readOidc(body: Body, options: Resolved, held: OidcSettings | undefined): OidcSettings {
  const issuer = held ? (readIdpUrl(body, 'issuer', options.allowLoopbackHttp) ?? held.issuer) : readIdpUrl(body, 'issuer', options.allowLoopbackHttp, true)
  const clientId = held ? (readText(body, 'clientId', 500) ?? held.clientId) : readText(body, 'clientId', 500, true)
  const scopes = readText(body, 'scopes', 500) ?? held?.scopes ?? 'openid email profile'
  if (!/^[\x21-\x7e]+( [\x21-\x7e]+)*$/.test(scopes)) throw new AuthError('InvalidRequest', 'Expected "scopes" to be scope names separated by spaces', { status: 400 })
  return { issuer, clientId, scopes: scopes.split(' ').includes('openid') ? scopes : `openid ${scopes}` }
}

async function changes(ctx: Context, options: Resolved, held: ConnectionRecord, body: Body): Promise<ConnectionChanges> {
  const roles = options.organizations.roles
  const out: ConnectionChanges = {
    name: readText(body, 'name', 100),
    domains: readDomains(body),
    required: readFlag(body, 'required'),
    defaultRole: body.defaultRole === undefined ? undefined : readRole(body.defaultRole, 'defaultRole', roles),
    groupRoles: readGroupRoles(body, roles),
    attributes: readAttributes(body, held.attributes),
    updatedAt: new Date(ctx.now),
  }
  if (held.kind === 'oidc') {
    out.oidc = readOidc(body, options, held.oidc!)
    const secret = readText(body, 'clientSecret', 2000)
    if (secret) out.sealedSecret = await seal(ctx.config.secrets, secretUse, secret)
    // An explicit empty secret makes the client public (PKCE alone).
    else if (body.clientSecret === '') out.sealedSecret = null
  } else {
    out.saml = await readSamlSettings(body, options, held.saml!)
  }
  return out
}

/** Reaches the IdP as a sign-in would: the OIDC discovery document, or the SAML metadata URL again. */
async function test(ctx: Context, options: Resolved, c: ConnectionRecord): Promise<{ ok: boolean; message: string }> {
  try {
    if (c.kind === 'oidc') {
      const as = await discoverIssuer(ctx, options, c.oidc!.issuer)
      return { ok: true, message: `The issuer answered its discovery document (authorization endpoint ${as.authorization_endpoint ?? 'none'})` }
    }
    const read = c.saml!.metadataUrl ? await readSamlSettings({ metadataUrl: c.saml!.metadataUrl }, options, c.saml!) : c.saml!
    return { ok: true, message: `The identity provider ${read.idpEntityId} has ${read.certificates.length} signing certificate${read.certificates.length === 1 ? '' : 's'}; its sign-in page is ${read.ssoUrl}` }
  } catch (error) {
    return { ok: false, message: error instanceof AuthError ? error.message : 'The identity provider could not be reached' }
  }
}
