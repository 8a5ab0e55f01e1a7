/** Reads a form or JSON request body into a flat record, bounded in size. */
import { AuthError } from '../../core/errors.js'
import type { Body, Context } from './types.js'
import { requestKey } from './state.js'

export type { Body } from './types.js'

export async function readBody(request: Request, limit: number): Promise<Body> {
  if (request.method !== 'POST') return {}
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > limit) throw tooLarge(limit)
  const text = await readText(request, limit)
  if (!text) return {}
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (type === 'application/json') return parseJson(text)
  if (type === 'application/x-www-form-urlencoded' || type === '') return Object.fromEntries(new URLSearchParams(text))
  throw new AuthError('InvalidRequest', 'Expected a body of application/x-www-form-urlencoded or application/json, got another content type', { status: 415 })
}

/**
 * The body of a route that answers with a redirect. `json=true` in it (form or JSON) asks for
 * `200 { url }` as `X-Auth-Return-Redirect: 1` does: next-auth v4's client asks that way.
 * Read before anything can fail, so a refusal is answered the same way.
 */
export async function readRedirectingBody(ctx: Context): Promise<Body> {
  const body = await readBody(ctx.request, ctx.config.maxBodySize)
  if (body.json === 'true' || body.json === true) jsonAsked.set(ctx, true)
  return body
}

/** The body asked for `200 { url }` with `json=true` (next-auth v4's client). */
const jsonAsked = requestKey<true>('json=true asked for 200 { url }')

/** True when this request's body asked with `json=true`: `ctx.returnRedirect` reads it (context.ts). */
export function askedForJson(ctx: Context): boolean {
  return jsonAsked.has(ctx)
}

async function readText(request: Request, limit: number): Promise<string> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(concat(chunks, size))
  } catch {
    throw new AuthError('InvalidRequest', 'Expected a UTF-8 request body')
  }
}

function parseJson(text: string): Body {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new AuthError('InvalidRequest', 'Expected a JSON object in the request body, got malformed JSON')
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new AuthError('InvalidRequest', `Expected a JSON object in the request body, got ${Array.isArray(value) ? 'an array' : typeof value}`)
  }
  return value as Body
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.byteLength
  }
  return out
}

function tooLarge(limit: number): AuthError {
  return new AuthError('PayloadTooLarge', `The request body is larger than the ${limit} bytes allowed`, { status: 413 })
}

/** A string field of the body, or undefined; anything else is bad input. `null` reads as absent unless `nullable` is false. */
export function stringField(body: Body, name: string, { nullable = true } = {}): string | undefined {
  const value = body[name]
  if (value === undefined || (value === null && nullable)) return undefined
  if (typeof value !== 'string') {
    throw new AuthError('InvalidRequest', `Expected "${name}" to be a string, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`)
  }
  return value
}
