/**
 * `organizations(options)`: the plugin. Its routes under basePath (`/organizations`,
 * `/organizations/:id`, `/organizations/invitation`), its store (store.ts), the active
 * organization in every session read (active.ts), and the answer to `auth.can`.
 */
import { configurationError, type LatchkeyPlugin, type Session } from 'latchkey/server'
import { sessionFields } from './active.js'
import { errorCodes } from './errors.js'
import { acceptInvitation, invitationPage } from './invitations.js'
import { listOrganizations, organizationDetails, organizationPost, organizationsPost } from './manage.js'
import { messages } from './messages.js'
import { resolveOptions, type OrganizationsOptions } from './options.js'
import type { ActiveOrganization } from './records.js'
import { organizationSchema, storeMethods } from './store.js'
import type { RoleBook } from './roles.js'

const hour = 3600

/** The path segment of the invitation link; organization ids are UUIDs, so none is this. */
const invitation = 'invitation'

/** `roles`: the instance's role book, for other plugins that give roles (sso's first sign-in). */
export type OrganizationsPlugin = LatchkeyPlugin & { id: 'organizations'; roles: RoleBook }

export function organizations(options: OrganizationsOptions = {}): OrganizationsPlugin {
  const resolved = resolveOptions(options)
  return {
    id: 'organizations',
    roles: resolved.roles,
    schema: organizationSchema,
    adapterMethods: () => [...storeMethods, 'getUser', 'getUserByEmail'],
    errorCodes,
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
    },
    configure(_, config) {
      if (!config.adapter) throw configurationError('organizations: needs an adapter made with the plugin, which keeps the organizations: MemoryAdapter({ plugins: [orgs] }) or openDatabase({ plugins: [orgs] })')
    },
    routes: {
      organizations: {
        provider: true,
        GET: (ctx, id) => (id === undefined ? listOrganizations(ctx) : id === invitation ? invitationPage(ctx) : organizationDetails(ctx, resolved, id)),
        POST: (ctx, id) => (id === undefined ? organizationsPost(ctx) : id === invitation ? acceptInvitation(ctx) : organizationPost(ctx, resolved, id)),
      },
    },
    sessionFields,
    permits(session: Session, permission: string) {
      const active = session.organization as ActiveOrganization | undefined
      return !!active && typeof active.role === 'string' && resolved.roles.allows(active.role, permission)
    },
  }
}
