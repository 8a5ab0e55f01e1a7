/**
 * Who may call the server from a browser on another origin (a single-page app as an OAuth client,
 * the MCP Inspector). The metadata documents and the keys are public: any origin. The endpoints a
 * public client calls (token, revoke, userinfo, register, PAR) answer only the origins the
 * configuration names: `corsOrigins`, and the origins of configured public clients' https
 * redirect URIs. Never with credentials: no cookie is any part of these endpoints. The pages
 * (authorize, consent, device) are navigations, and introspection is for servers: no CORS at all.
 */
import type { Context, CorsRule } from 'latchkey/server'
import { serverOptions } from './instance.js'

export const publicCors: CorsRule = { origins: '*', methods: ['GET'], headers: [], expose: [] }

const forClients = new Set(['token', 'revoke', 'userinfo', 'register', 'par'])
const clientHeaders = ['authorization', 'content-type', 'dpop']
const clientExpose = ['DPoP-Nonce', 'WWW-Authenticate', 'Retry-After']

/** The rule of `/oauth2/<sub>`. */
export function oauth2Cors(ctx: Context, sub: string | undefined): CorsRule | undefined {
  if (sub === 'jwks') return publicCors
  if (sub === undefined || !forClients.has(sub)) return undefined
  const methods = sub === 'userinfo' ? ['GET', 'POST'] : ['POST']
  return { origins: serverOptions.get(ctx.config).corsOrigins, methods, headers: clientHeaders, expose: clientExpose }
}
