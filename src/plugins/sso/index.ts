/**
 * latchkey/plugins/sso: enterprise sign-in per organization, through OIDC and SAML 2.0
 * connections, with home-realm discovery and just-in-time membership (docs/sso.md).
 *   const orgs = organizations()
 *   const enterprise = sso({ organizations: orgs })
 *   const adapter = await openDatabase({ plugins: [orgs, enterprise] })
 *   const auth = Latchkey({ adapter, plugins: [orgs, enterprise], providers: [...] })
 * Written as any plugin outside latchkey would be: it imports only latchkey/server (and the
 * organizations plugin's public entry). SAML needs the optional peer @node-saml/node-saml.
 */
export { sso, type SsoPlugin } from './plugin.js'
export type { SsoOptions } from './options.js'
export type { AttributeMapping, ConnectionChanges, ConnectionRecord, OidcSettings, SamlSettings, SsoStore } from './records.js'
export { ssoSchema } from './store.js'
