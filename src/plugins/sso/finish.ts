/**
 * The end of a sign-in through a connection, OIDC or SAML alike: the identity the IdP asserted
 * goes to the one completion step (`completeSignIn`) as an account of the provider, keyed by the
 * connection and the IdP's subject; then the user becomes a member of the connection's
 * organization (just-in-time), with the role their groups map to or the connection's default.
 * The address counts as proven only where the connection vouches for it: its domain is one the
 * organization verified and (OIDC) the IdP says `email_verified`.
 */
import { answerDue, completeSignIn, redirect, resolveCallbackUrl, useAdapter, type AdapterAccount, type Context, type Reply } from 'latchkey/server'
import { organizationsStore, verifiedDomains } from './connections.js'
import { signInRefused } from './errors.js'
import { addressDomain } from './fields.js'
import type { Resolved } from './options.js'
import type { ConnectionRecord } from './records.js'

export interface Identity {
  /** The IdP's stable id for the user: `sub`, or the SAML NameID. */
  subject: string
  email: unknown
  name: unknown
  groups: unknown
  /** OIDC: `email_verified` is true. SAML has no such claim: the IdP of a verified domain is its authority. */
  emailVerified: boolean
  /** RFC 8176 `fed`, plus what the IdP says where it says it. */
  amr?: string[]
}

const groupsOf = (value: unknown): string[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]).filter((g): g is string => typeof g === 'string')

/** The role a new member gets: the highest-ranked of those their groups map to, else the connection's default. */
export function roleFor(options: Resolved, connection: ConnectionRecord, groups: string[]): string {
  const roles = options.organizations.roles
  let best = connection.defaultRole
  for (const group of groups) {
    const role = connection.groupRoles[group]
    if (role && roles.has(role) && role !== 'owner' && roles.rank(role) > roles.rank(best)) best = role
  }
  return best
}

export async function finishSignIn(ctx: Context, options: Resolved, connection: ConnectionRecord, identity: Identity, callbackUrl?: string): Promise<Reply> {
  const email = typeof identity.email === 'string' ? identity.email.trim().toLowerCase() : ''
  const domain = addressDomain(email)
  if (!domain) throw signInRefused('the identity provider sent no email address (check the connection\'s attribute mapping)')
  if (!identity.subject || identity.subject.length > 500) throw signInRefused('the identity provider sent no subject')
  const orgs = organizationsStore(ctx)
  if (!(await orgs.getOrganization(connection.organizationId))) throw signInRefused('the connection\'s organization is gone')
  const vouched = identity.emailVerified && (await verifiedDomains(ctx, options, connection)).includes(domain)
  const account = {
    type: (connection.kind === 'oidc' ? 'oidc' : 'saml') as AdapterAccount['type'],
    provider: options.providerId,
    providerAccountId: `${connection.id}:${identity.subject}`,
    userId: '',
  }
  const name = typeof identity.name === 'string' && identity.name.length <= 200 ? identity.name : null
  const result = await completeSignIn(ctx, {
    user: { email, name, image: null },
    account,
    profile: { sub: identity.subject, email, name, organization: connection.organizationId, connection: connection.id },
    emailVerified: vouched,
    amr: identity.amr ?? ['fed'],
  })
  // A second factor due: the user is made (or found) all the same; the membership waits for nothing.
  const userId = result.started
    ? (result.user.id as string)
    : (await useAdapter(ctx.config, ['getUserByAccount'], 'sso').getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId }))?.id
  if (userId) {
    const role = roleFor(options, connection, groupsOf(identity.groups))
    await orgs.addMember({ id: crypto.randomUUID(), organizationId: connection.organizationId, userId, role, joinedAt: new Date(ctx.now) })
  }
  return answerDue(ctx, result) ?? redirect(ctx, await resolveCallbackUrl(ctx, callbackUrl))
}
