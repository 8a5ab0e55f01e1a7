/**
 * `organizations(options)`: the plugin. Its routes under basePath (`/organizations`,
 * `/organizations/:id`, `/organizations/invitation`, `/organizations/joinable`,
 * `/organization-domains/:id`), its store (store.ts), the active organization in every session
 * read and at each new sign-in (active.ts), the answer to `auth.can`, and `organizationForDomain` for other plugins.
 */
import { configurationError, type Context, type LatchkeyPlugin, type Session } from 'latchkey/server'
import { sessionFields, startIn } from './active.js'
import { autoJoin, domainsPost, joinable, listDomains, organizationForDomain, type DomainOrganization } from './domains.js'
import { errorCodes } from './errors.js'
import { acceptInvitation, invitationPage } from './invitations.js'
import { listOrganizations, organizationDetails, organizationPost, organizationsPost } from './manage.js'
import { messages } from './messages.js'
import { resolveOptions, type OrganizationsOptions } from './options.js'
import type { ActiveOrganization } from './records.js'
import { domainMethods, lastActiveMethods, organizationSchema, storeMethods } from './store.js'
import type { BuiltInRole, RoleBook } from './roles.js'

const hour = 3600

/** The path segment of the invitation link; organization ids are UUIDs, so none is this. */
const invitation = 'invitation'
const joinableSegment = 'joinable'

export type OrganizationsPlugin = LatchkeyPlugin & {
  id: 'organizations'
  /** The instance's role book, for other plugins that give roles (sso's first sign-in). */
  roles: RoleBook
  /**
   * For other plugins (an enterprise sign-in's home-realm discovery): the organization that
   * verified the domain of `domainOrAddress` (a domain, or an address), null where none.
   * Reached as `ctx.config.plugins.find((p) => p.id === 'organizations')`.
   */
  organizationForDomain(ctx: Context, domainOrAddress: string): Promise<DomainOrganization | null>
  /**
   * For other plugins that check a permission of their own in an organization (sso's `sso:manage`,
   * scim's `scim:manage`): adds it to the role book, held by `roles` by default (the owner always);
   * the configuration's roles may give it to others (`auditor: { sso: ['manage'] }`). Called once
   * per plugin (as it is made, or in its configure); a permission contributed twice, or not
   * `resource:action`, is a configuration error that names it.
   */
  contributePermission(by: string, permission: string, roles: readonly BuiltInRole[]): void
}

export function organizations(options: OrganizationsOptions = {}): OrganizationsPlugin {
  const resolved = resolveOptions(options)
  return {
    id: 'organizations',
    roles: resolved.roles,
    schema: organizationSchema,
    adapterMethods: () => [...storeMethods, ...domainMethods, ...lastActiveMethods, 'getUser', 'getUserByEmail'],
    // EmailNotVerified: joining by domain with an address nobody proved (the password plugin's code too).
    errorCodes: [...errorCodes, 'EmailNotVerified'],
    messages,
    rateLimits: {
      // Each one sends an email to an address the inviter chose.
      organizationInvite: {
        label: 'organization invitations',
        accountName: 'account',
        rules: [
          { per: 'account', limit: 50, windowSeconds: hour },
          { per: 'client', limit: 100, windowSeconds: hour },
        ],
      },
      // Each one is a DNS query the server makes.
      organizationDomainVerify: {
        label: 'domain verifications',
        accountName: 'account',
        rules: [
          { per: 'account', limit: 30, windowSeconds: hour },
          { per: 'client', limit: 60, windowSeconds: hour },
        ],
      },
    },
    configure(_, config) {
      if (!config.adapter) throw configurationError('organizations: needs an adapter made with the plugin, which keeps the organizations: MemoryAdapter({ plugins: [orgs] }) or openDatabase({ plugins: [orgs] })')
    },
    routes: {
      organizations: {
        provider: true,
        GET: (ctx, id) =>
          id === undefined ? listOrganizations(ctx) : id === invitation ? invitationPage(ctx) : id === joinableSegment ? joinable(ctx) : organizationDetails(ctx, resolved, id),
        POST: (ctx, id) => (id === undefined ? organizationsPost(ctx) : id === invitation ? acceptInvitation(ctx) : organizationPost(ctx, resolved, id)),
      },
      'organization-domains': {
        provider: true,
        GET: (ctx, id) => listDomains(ctx, resolved, id),
        POST: (ctx, id) => domainsPost(ctx, resolved, id),
      },
    },
    // A new session starts in the last active organization, else in one auto-join just added the user to.
    afterSignIn: async (ctx, signIn) => startIn(ctx, signIn, await autoJoin(ctx, signIn)),
    organizationForDomain,
    contributePermission: (by, permission, roles) => resolved.roles.contribute(by, permission, roles),
    sessionFields,
    permits(session: Session, permission: string) {
      const active = session.organization as ActiveOrganization | undefined
      return !!active && typeof active.role === 'string' && resolved.roles.allows(active.role, permission)
    },
  }
}
