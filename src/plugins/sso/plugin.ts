/**
 * `sso(options)`: enterprise sign-in per organization. It adds one way in, the provider `sso`
 * (POST /signin/sso with a connection id or an address; GET /callback/sso, the OIDC redirect
 * URI), the SAML service provider's routes (/saml-metadata/:connection, /saml-acs/:connection),
 * home-realm discovery (/sso-discover) and the admins' routes (/sso-connections/:organization).
 * Every sign-in through a connection ends in the one completion step (finish.ts).
 */
import { configurationError, escapeHtml, pluginWords, type LatchkeyPlugin, type ResolvedProvider } from 'latchkey/server'
import { connectionToStart, discoverRoute, requireConnection } from './discover.js'
import { errorCodes } from './errors.js'
import { connectionsPost, listConnections, permission } from './manage.js'
import { messages } from './messages.js'
import { flowCookie, oidcCallback, startOidc } from './oidc.js'
import { resolveOptions, type SsoOptions } from './options.js'
import { acsGet, acsPost, spMetadata, startSaml } from './saml.js'
import { ssoSchema, storeMethods } from './store.js'

export type SsoPlugin = LatchkeyPlugin & { id: 'sso' }

export function sso(options: SsoOptions): SsoPlugin {
  const resolved = resolveOptions(options)
  // The permission its admin routes check: owner and admin hold it unless the configuration gives it to more.
  resolved.organizations.contributePermission('sso', permission, ['owner', 'admin'])
  return {
    id: 'sso',
    schema: ssoSchema,
    errorCodes,
    // Refused another way: the sign-in page, with this plugin's form first, is the way on.
    signInPageErrors: ['SsoRequired'],
    messages,
    cookies: [flowCookie],
    adapterMethods: () => [...storeMethods, 'getMember', 'getOrganization', 'addMember', 'getUser', 'getUserByEmail', 'getUserByAccount', 'createUser', 'updateUser', 'linkAccount'],
    configure(_, config) {
      if (!config.adapter) throw configurationError('sso: needs an adapter made with the organizations and sso plugins: openDatabase({ plugins: [orgs, sso] })')
      if (!config.plugins.some((p) => p === resolved.organizations)) throw configurationError('sso: the organizations plugin given to sso() must be in plugins too: plugins: [orgs, sso({ organizations: orgs })]')
      const held = config.providers.get(resolved.providerId)
      if (held && held.type !== ('sso' as string)) throw configurationError(`sso: the provider id "${resolved.providerId}" is taken by another provider; give sso() another id`)
      // The way in is the plugin's own provider: listing the plugin adds it.
      if (!held) config.providers.set(resolved.providerId, { id: resolved.providerId, name: resolved.name, type: 'sso' } as unknown as ResolvedProvider)
    },
    beforeSignIn: (ctx, attempt) => requireConnection(ctx, resolved, attempt),
    routes: {
      'sso-connections': {
        provider: true,
        GET: (ctx, id) => listConnections(ctx, resolved, id),
        POST: (ctx, id) => connectionsPost(ctx, resolved, id),
      },
      'sso-discover': { GET: (ctx) => discoverRoute(ctx, resolved), wordless: true },
      'saml-metadata': { provider: true, GET: (ctx, id) => spMetadata(ctx, resolved, id), wordless: true },
      'saml-acs': { provider: true, flow: true, GET: (ctx, id) => acsGet(ctx, resolved, id), POST: (ctx, id) => acsPost(ctx, resolved, id) },
    },
    method: {
      types: ['sso'],
      leavesSite: true,
      async start(ctx, _provider, body) {
        const { connection, email } = await connectionToStart(ctx, resolved, body)
        return connection.kind === 'oidc' ? startOidc(ctx, resolved, connection, email) : startSaml(ctx, resolved, connection)
      },
      callback: (ctx) => oidcCallback(ctx, resolved),
      pageForm(_provider, app, hidden, _words, ctx) {
        const words = pluginWords(ctx, messages)
        const refused = ctx.url.searchParams.get('error') === 'SsoRequired'
        return (
          `<form method="post" action="${escapeHtml(app.signinUrl)}">${hidden}` +
          `<label>${words.html('ssoEmail')} <input type="email" name="email" required autocomplete="email" maxlength="320"${refused ? ' autofocus' : ''}></label>` +
          `<button>${words.html('ssoContinue')}</button></form>`
        )
      },
    },
  }
}
