/**
 * The routes' input, read strictly: a field of the wrong type, length or form is 400
 * `InvalidRequest` naming what was expected (never what was sent), before anything changes.
 */
import { AuthError, type Body } from 'latchkey/server'

export const maxName = 100
export const maxSlug = 48
export const maxLogo = 2048
const maxId = 200
const maxEmail = 254

/** Lowercase letters, digits and "-", not at either end: the slug of an organization. */
export const slugPattern = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/

const invalid = (message: string) => new AuthError('InvalidRequest', message, { status: 400 })

/** Control characters and the ones that turn text around: no name needs them. */
const unprintable = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

function given(body: Body, field: string): unknown {
  return Object.hasOwn(body, field) ? body[field] : undefined
}

/** A required id field: a short string. */
export function readId(body: Body, field: string): string {
  const value = given(body, field)
  if (typeof value !== 'string' || !value || value.length > maxId) throw invalid(`Expected "${field}": an id, as a string of at most ${maxId} characters`)
  return value
}

export function readName(body: Body, required: boolean): string | undefined {
  const value = given(body, 'name')
  if (value === undefined && !required) return undefined
  const name = typeof value === 'string' ? value.trim() : ''
  if (!name || name.length > maxName || unprintable.test(name)) throw invalid(`Expected "name": the organization's name, 1 to ${maxName} printable characters`)
  return name
}

export function readSlug(body: Body): string | undefined {
  const value = given(body, 'slug')
  if (value === undefined || value === '') return undefined
  if (typeof value !== 'string' || value.length > maxSlug || !slugPattern.test(value)) {
    throw invalid(`Expected "slug": lowercase letters, digits and "-" (not at either end), at most ${maxSlug} characters`)
  }
  return value
}

/** `logo`: an https (or http) URL, or null or "" to remove it; undefined when not given. */
export function readLogo(body: Body): string | null | undefined {
  const value = given(body, 'logo')
  if (value === undefined) return undefined
  if (value === null || value === '') return null
  const fail = () => invalid(`Expected "logo": an https URL of at most ${maxLogo} characters, or null to remove it`)
  if (typeof value !== 'string' || value.length > maxLogo) throw fail()
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw fail()
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw fail()
  return url.href
}

/** The slug a name gives where none was asked for: "Acme Inc." → "acme-inc". */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxSlug - 7)
    .replace(/-+$/g, '')
  return slug || 'organization'
}

export function readEmail(body: Body): string {
  const value = given(body, 'email')
  const email = typeof value === 'string' ? value.trim().toLowerCase() : ''
  if (!email || email.length > maxEmail || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw invalid('Expected "email": one email address')
  return email
}

export function readRole(body: Body, roles: readonly string[]): string {
  const value = given(body, 'role')
  if (typeof value !== 'string' || !roles.includes(value)) throw invalid(`Expected "role": one of ${roles.join(', ')}`)
  return value
}

/** `organizationId` of a switch: an id, or null for none. */
export function readSwitchTarget(body: Body): string | null {
  const value = given(body, 'organizationId')
  if (value === null || value === '') return null
  if (typeof value !== 'string' || value.length > maxId) throw invalid('Expected "organizationId": the id of one of your organizations, or null for none')
  return value
}
