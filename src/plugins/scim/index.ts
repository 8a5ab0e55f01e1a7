/**
 * latchkey/plugins/scim: SCIM 2.0 provisioning into organizations (docs/scim.md).
 *   const orgs = organizations({ roles: { admin: { scim: ['manage'] } } })
 *   const provisioning = scim({ verifiedEmails: true })
 *   const adapter = await openDatabase({ plugins: [orgs, provisioning] })
 *   const auth = Latchkey({ adapter, plugins: [orgs, provisioning], providers: [...] })
 * Written as any plugin outside latchkey would be: it imports only latchkey/server.
 */
export { scim, type ScimPlugin } from './plugin.js'
export type { ScimOptions } from './options.js'
export type { ScimGroupRecord, ScimStore, ScimTokenRecord, ScimUserRecord } from './records.js'
export { scimSchema } from './store.js'
export type { ScimEvents, ScimOrganizationInfo, ScimTokenActor, ScimTokenEventInfo } from './events.js'
