/** What every SCIM endpoint shares: its answers (application/scim+json), its bodies, the bearer token, paging. */
import { sha256Hex, useAdapter, type Context, type Reply } from 'latchkey/server'
import { invalidSyntax, invalidValue, ScimError, unauthorized } from './errors.js'
import { organizationInfo, type Caller } from './events.js'
import type { Doc } from './normalize.js'
import type { ScimStore } from './records.js'
import { storeMethods } from './store.js'
import { urn } from './schema.js'

export const contentType = 'application/scim+json; charset=utf-8'

export const store = (ctx: Context): ScimStore => useAdapter<ScimStore>(ctx.config, storeMethods, 'scim')

export function scimReply(ctx: Context, status: number, body: unknown, extra: Record<string, string> = {}): Reply {
  const headers: Record<string, string> = { ...ctx.headers, 'content-type': contentType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...extra }
  return { status, headers, cookies: [], body: body === null ? null : JSON.stringify(body) }
}

export function errorReply(ctx: Context, error: ScimError): Reply {
  const body = { schemas: [urn.error], status: String(error.status), ...(error.scimType && { scimType: error.scimType }), detail: error.message }
  const extra: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Bearer realm="scim"' } : {}
  if (error.retryAfter !== undefined) extra['retry-after'] = String(error.retryAfter)
  return scimReply(ctx, error.status, body, extra)
}

/** The request's bearer token and its organization; 401 for none, an unknown or revoked one, or one whose organization is gone. */
export async function callerOfToken(ctx: Context): Promise<Caller> {
  const header = ctx.incoming.header('authorization') ?? ''
  const m = /^Bearer +([A-Za-z0-9._~+/-]{20,200}=*) *$/i.exec(header)
  if (!m) throw unauthorized()
  const token = await store(ctx).scimTokenByHash(await sha256Hex(m[1]!))
  if (!token) throw unauthorized()
  const organizations = useAdapter<{ getOrganization(id: string): Promise<{ id: string; name: string; slug: string } | null> }>(ctx.config, ['getOrganization'], 'scim')
  const organization = await organizations.getOrganization(token.organizationId)
  if (!organization) throw unauthorized()
  return { organization: organizationInfo(organization), token: { id: token.id, name: token.name }, groupRoles: token.groupRoles, createdBy: token.createdBy }
}

/** A JSON object body of application/scim+json (or application/json), at most the configuration's `maxBodySize`. */
export async function readScimBody(ctx: Context): Promise<Doc> {
  const request = ctx.request
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/scim+json' && type !== 'application/json') throw new ScimError(415, 'Expected a body of application/scim+json')
  const limit = ctx.config.maxBodySize
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw new ScimError(413, `The body is larger than the ${limit} bytes allowed`)
  const bytes = new Uint8Array(await request.arrayBuffer())
  if (bytes.byteLength > limit) throw new ScimError(413, `The body is larger than the ${limit} bytes allowed`)
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw invalidSyntax('Expected a JSON object in UTF-8')
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalidSyntax('Expected a JSON object')
  return value as Doc
}

/** `startIndex` (1-based, at least 1) and `count` (0 to `max`; more is cut to `max`, RFC 7644 §3.4.2.4). */
export function pageOf(params: URLSearchParams, max: number): { startIndex: number; count: number } {
  const read = (name: string, fallback: number) => {
    const raw = params.get(name)
    if (raw === null || raw === '') return fallback
    if (!/^-?\d{1,15}$/.test(raw)) throw invalidValue(`Expected "${name}" to be a whole number`)
    return Number(raw)
  }
  return { startIndex: Math.max(1, read('startIndex', 1)), count: Math.min(max, Math.max(0, read('count', max))) }
}

export function listReply(ctx: Context, resources: unknown[], total: number, startIndex: number): Reply {
  return scimReply(ctx, 200, { schemas: [urn.list], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources })
}

/** `attributes` / `excludedAttributes` (RFC 7644 §3.9), by top-level name: id and schemas always stay. */
export function project(doc: Doc, params: URLSearchParams): Doc {
  const names = (key: string) =>
    params
      .get(key)
      ?.split(',')
      .map((n) => n.trim().replace(/^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/i, '').split('.')[0]!.toLowerCase())
      .filter(Boolean)
  const keep = names('attributes')
  const drop = names('excludedAttributes')
  const always = new Set(['id', 'schemas'])
  return Object.fromEntries(
    Object.entries(doc).filter(([k]) => {
      const lower = k.toLowerCase()
      if (always.has(lower)) return true
      if (keep?.length) return keep.includes(lower)
      return !drop?.includes(lower)
    }),
  )
}
