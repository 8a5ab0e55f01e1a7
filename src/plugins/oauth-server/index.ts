/**
 * latchkey/plugins/oauth-server: latchkey as an OAuth 2.1 authorization server for MCP clients,
 * CLIs and apps (docs/oauth-server.md).
 *   const oauth = oauthServer({ clients: [...], scopes: { 'tools:read': 'Read your tools' }, resources: ['https://mcp.example.com'] })
 *   Latchkey({ ..., adapter: PostgresAdapter(db, { plugins: [oauth] }), plugins: [oauth] })
 * Written as any plugin outside latchkey would be: it imports only latchkey/server.
 */
export { oauthServer, type OAuthServer } from './plugin.js'
export type { ClientIdMetadataDocumentOptions, RegistrationOptions } from './client-options.js'
export type { OAuthServerOptions, OAuthClientConfig, GrantType, ScopeWords, GrantsOnEvent } from './options.js'
export type { ConnectedAppInfo } from './connected-apps.js'
export { verifyAccessToken, protectedResourceHandler, resourceMetadataUrl, type VerifyAccessTokenOptions, type RemoteVerifyOptions, type VerifiedAccessToken } from './resource.js'
export type { AccessTokenClaims } from './tokens.js'
export { oauthServerSchema, type OAuthServerStore } from './store.js'
