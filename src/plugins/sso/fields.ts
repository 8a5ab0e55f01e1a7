/**
 * The fields of a connection as an admin sends them (POST /sso-connections/:organization), read
 * into their one form: each wrong one is a 400 InvalidRequest that names the field and what it
 * takes, never the value sent.
 */
import { AuthError, type Body } from 'latchkey/server'
import type { AttributeMapping } from './records.js'

const bad = (message: string) => new AuthError('InvalidRequest', message, { status: 400 })

export function readText(body: Body, name: string, max: number, required: true): string
export function readText(body: Body, name: string, max: number, required?: false): string | undefined
export function readText(body: Body, name: string, max: number, required = false): string | undefined {
  const value = body[name]
  if (value === undefined || value === null || value === '') {
    if (required) throw bad(`Expected "${name}", got none`)
    return undefined
  }
  if (typeof value !== 'string' || value.length > max || !value.trim()) throw bad(`Expected "${name}" to be text of at most ${max} characters`)
  return value.trim()
}

export function readFlag(body: Body, name: string): boolean | undefined {
  const value = body[name]
  if (value === undefined) return undefined
  if (value === true || value === 'true') return true
  if (value === false || value === 'false') return false
  throw bad(`Expected "${name}" to be true or false`)
}

export function readKind(body: Body): 'oidc' | 'saml' {
  const kind = body.kind
  if (kind !== 'oidc' && kind !== 'saml') throw bad('Expected "kind" to be oidc or saml')
  return kind
}

export function readId(body: Body, name: string): string {
  const value = body[name]
  if (typeof value !== 'string' || !/^[A-Za-z0-9-]{1,64}$/.test(value)) throw bad(`Expected "${name}" to be an id`)
  return value
}

const domainPattern = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

/** A domain as typed, in its one form (lower case, no trailing dot); null where it is none. */
export function domainOf(text: string): string | null {
  const domain = text.trim().toLowerCase().replace(/\.$/, '')
  return domainPattern.test(domain) ? domain : null
}

/** The address's domain, lower case; null for what is no address. */
export function addressDomain(email: unknown): string | null {
  if (typeof email !== 'string' || email.length > 320) return null
  const at = email.lastIndexOf('@')
  return at > 0 ? domainOf(email.slice(at + 1)) : null
}

export function readDomains(body: Body): string[] | undefined {
  const value = body.domains
  if (value === undefined) return undefined
  const list = typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : value
  if (!Array.isArray(list) || list.length > 20 || list.some((d) => typeof d !== 'string')) throw bad('Expected "domains" to be a list of at most 20 domains')
  const domains = list.map((d) => domainOf(d as string))
  if (domains.some((d) => d === null)) throw bad('Expected each of "domains" to be a domain name, such as example.com')
  return [...new Set(domains as string[])]
}

/** A role a first sign-in may give: any of the organization's but owner. */
export function readRole(value: unknown, name: string, roles: { has(role: string): boolean }): string {
  if (typeof value !== 'string' || !roles.has(value) || value === 'owner') throw bad(`Expected "${name}" to be one of the organization's roles other than owner`)
  return value
}

export function readGroupRoles(body: Body, roles: { has(role: string): boolean }): Record<string, string> | undefined {
  const value = body.groupRoles
  if (value === undefined) return undefined
  if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length > 50) throw bad('Expected "groupRoles" to be an object of at most 50 groups, each naming a role')
  const out: Record<string, string> = {}
  for (const [group, role] of Object.entries(value)) {
    if (!group || group.length > 200) throw bad('Expected each group of "groupRoles" to be a name of at most 200 characters')
    out[group] = readRole(role, `groupRoles.${group.length > 40 ? 'a group' : group}`, roles)
  }
  return out
}

export function readAttributes(body: Body, defaults: AttributeMapping): AttributeMapping | undefined {
  const value = body.attributes
  if (value === undefined) return undefined
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw bad('Expected "attributes" to be { email, name, groups }: the attribute or claim of each')
  const given = value as Record<string, unknown>
  const out = { ...defaults }
  for (const key of ['email', 'name', 'groups'] as const) {
    const v = given[key]
    if (v === undefined) continue
    if (typeof v !== 'string' || !v || v.length > 200) throw bad(`Expected "attributes.${key}" to be an attribute name of at most 200 characters`)
    out[key] = v
  }
  return out
}

/** An IdP URL an admin gives: https, or http to this machine where the app allows it (development). */
export function readIdpUrl(body: Body, name: string, loopbackHttp: boolean, required: true): string
export function readIdpUrl(body: Body, name: string, loopbackHttp: boolean, required?: false): string | undefined
export function readIdpUrl(body: Body, name: string, loopbackHttp: boolean, required = false): string | undefined {
  const text = required ? readText(body, name, 2000, true) : readText(body, name, 2000)
  if (text === undefined) return undefined
  if (!isIdpUrl(text, loopbackHttp)) throw bad(`Expected "${name}" to be an https URL${loopbackHttp ? ' (or http to this machine)' : ''}`)
  return text
}

export function isIdpUrl(text: string, loopbackHttp: boolean): boolean {
  if (!URL.canParse(text)) return false
  const url = new URL(text)
  if (url.username || url.password || url.hash) return false
  if (url.protocol === 'https:') return true
  return loopbackHttp && url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]')
}
