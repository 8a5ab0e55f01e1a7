/**
 * `scim(options)`: SCIM 2.0 provisioning (RFC 7643, 7644) into the organizations plugin's
 * organizations. Its routes under basePath: `/scim/v2/...` (the IdP's, with a bearer token of
 * one organization) and `/scim-tokens/:organizationId` (an admin's, with the session).
 */
import { configurationError, type LatchkeyPlugin } from 'latchkey/server'
import { errorCodes } from './errors.js'
import { roleMethods } from './group-roles.js'
import { memberMethods } from './membership.js'
import { resolveOptions, type ScimOptions } from './options.js'
import { requestAction, scimAction } from './routes.js'
import { scimSchema, storeMethods } from './store.js'
import { listTokens, permission, tokensPost } from './tokens.js'

export type ScimPlugin = LatchkeyPlugin & { id: 'scim' }

export function scim(options: ScimOptions = {}): ScimPlugin {
  const resolved = resolveOptions(options)
  return {
    id: 'scim',
    schema: scimSchema,
    adapterMethods: () => [...storeMethods, ...memberMethods, ...roleMethods, 'getUser', 'getUserByEmail', 'createUser', 'updateUser', 'deleteUser', 'deleteSession'],
    errorCodes,
    rateLimits: {
      // IdPs push in bursts (a first sync, a group of thousands): generous, and per token, so one organization's IdP never slows another's.
      [requestAction]: { label: 'SCIM requests', accountName: 'SCIM token', whenStoreFails: 'open', rules: [{ per: 'account', limit: 6000, windowSeconds: 60 }] },
    },
    configure(config, resolvedConfig) {
      if (!resolvedConfig.adapter) throw configurationError('scim: needs an adapter made with the organizations plugin and this one: openDatabase({ plugins: [orgs, scim] })')
      const ids = (config.plugins ?? []).map((p) => p.id)
      if (!ids.includes('organizations') || ids.indexOf('organizations') > ids.indexOf('scim')) {
        throw configurationError('scim: provisions into organizations: list organizations() before scim() in plugins (its tables come first)')
      }
      // The permission its token routes check: the owner's, unless the configuration gives it to more.
      const organizations = resolvedConfig.plugins.find((p) => p.id === 'organizations') as { contributePermission?(by: string, permission: string, roles: readonly string[]): void } | undefined
      if (typeof organizations?.contributePermission !== 'function') throw configurationError('scim: the plugin named organizations is not organizations() from latchkey/plugins/organizations (it takes no permissions)')
      organizations.contributePermission('scim', permission, ['owner'])
    },
    routes: {
      scim: scimAction(resolved),
      'scim-tokens': { provider: true, GET: listTokens, POST: tokensPost },
    },
  }
}
