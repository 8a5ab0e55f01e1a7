/**
 * The client a `client_id` names: a configured one first, then a registered one (RFC 7591, ids
 * starting `lkc_`), then a client ID metadata document (an https URL, where enabled). Unknown:
 * undefined; a document that cannot be used: an OAuthError saying why.
 */
import type { Context } from 'latchkey/server'
import { documentClient, isDocumentUrl } from './client-documents.js'
import { oauthStore } from './instance.js'
import type { ResolvedClient, ResolvedOAuthServer } from './options.js'
import { registeredPrefix } from './registration.js'

export async function findClient(ctx: Context, options: ResolvedOAuthServer, clientId: string): Promise<ResolvedClient | undefined> {
  const configured = options.clients.get(clientId)
  if (configured) return configured
  if (clientId.startsWith(registeredPrefix) && clientId.length <= 64) return (await oauthStore(ctx.config).getOAuthClient(clientId))?.client
  if (options.documents && isDocumentUrl(clientId)) return documentClient(clientId, options.documents, Object.keys(options.scopes), ctx.now)
  return undefined
}
