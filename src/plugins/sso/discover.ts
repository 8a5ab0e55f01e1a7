/**
 * Home-realm discovery: the connection an address goes to, found from its domain alone (never
 * from an account), where the connection lists the domain and its organization has verified it
 * (`domainOwner`). GET /sso-discover?email= (or ?domain=) answers it for the sign-in element.
 */
import { AuthError, json, type Body, type Context, type Reply, type SignInAttempt } from 'latchkey/server'
import { organizationsStore, store } from './connections.js'
import { connectionNotFound, ssoRequired } from './errors.js'
import { addressDomain, domainOf } from './fields.js'
import type { Resolved } from './options.js'
import type { ConnectionRecord } from './records.js'

/** The connection of `domain`: the oldest that lists it whose organization verified it; null where none. */
export async function connectionForDomain(ctx: Context, options: Resolved, domain: string): Promise<ConnectionRecord | null> {
  const owner = await options.domainOwner(domain, ctx)
  if (!owner) return null
  const listed = await store(ctx).listSsoConnectionsForDomain(domain)
  return listed.find((c) => c.organizationId === owner) ?? null
}

/** POST /signin/sso: `connection` (an id) or `email` (its domain's connection). */
export async function connectionToStart(ctx: Context, options: Resolved, body: Body): Promise<{ connection: ConnectionRecord; email?: string }> {
  if (typeof body.connection === 'string' && body.connection) {
    const c = /^[A-Za-z0-9-]{1,64}$/.test(body.connection) ? await store(ctx).getSsoConnection(body.connection) : null
    if (!c) throw connectionNotFound()
    return { connection: c }
  }
  const domain = addressDomain(body.email)
  if (!domain) throw new AuthError('InvalidRequest', 'Expected "connection" (a connection id) or "email" (an address whose domain has a connection)', { status: 400 })
  const c = await connectionForDomain(ctx, options, domain)
  if (!c) throw connectionNotFound()
  return { connection: c, email: (body.email as string).trim() }
}

export async function discoverRoute(ctx: Context, options: Resolved): Promise<Reply> {
  const params = ctx.url.searchParams
  const given = params.get('email') ?? params.get('domain')
  const domain = given === null ? null : given.includes('@') ? addressDomain(given) : domainOf(given)
  if (!domain) throw new AuthError('InvalidRequest', 'Expected ?email= (an address) or ?domain= (a domain name)', { status: 400 })
  const c = await connectionForDomain(ctx, options, domain)
  const organization = c && (await organizationsStore(ctx).getOrganization(c.organizationId))
  // Answered from the domain alone: the same for every address of it. The organization's name is
  // what the sign-in form shows ("Continue with Acme's sign-in").
  return json(ctx, {
    domain,
    connection: c && organization ? { id: c.id, name: c.name, kind: c.kind, required: c.required, provider: options.providerId, organization: organization.name } : null,
  })
}

/**
 * `beforeSignIn`: an address whose domain's connection is required signs in through that
 * connection only. Every other way in (a password, an email link or code, OAuth, a passkey, a
 * phone code of a user with such an address) is refused with `SsoRequired`, from the domain alone,
 * so the refusal is the same for every address of it, with an account or without.
 */
export async function requireConnection(ctx: Context, options: Resolved, attempt: SignInAttempt): Promise<AuthError | undefined> {
  const domain = addressDomain(attempt.email)
  const c = domain ? await connectionForDomain(ctx, options, domain) : null
  if (!c?.required) return
  if (attempt.provider === options.providerId && attempt.account?.providerAccountId.startsWith(`${c.id}:`)) return
  return ssoRequired()
}
