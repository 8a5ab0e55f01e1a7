/**
 * What POST /identity `action=update` takes: a name and an image, each a string or null (cleared),
 * checked before anything is stored. A name is shown on pages, emails and other people's screens,
 * so it holds no control character nor anything that reorders the text around it; an image is
 * loaded by browsers, so it is an https URL (http only on loopback, for development).
 */
import { AuthError } from '../../../core/errors.js'
import type { Body } from '../../kernel/body.js'
import { isLoopback } from '../../kernel/public-origin.js'

export const maxName = 100
export const maxImage = 2048

/** C0 and C1 controls, DEL, the line and paragraph separators, and the bidi embeddings, overrides and isolates. */
const unsafeInName = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u

export interface ProfileChange {
  name?: string | null
  image?: string | null
}

/** The change `body` asks for; 400 `InvalidRequest` naming what was expected when any of it is wrong. */
export function readProfileChange(body: Body): ProfileChange {
  if (body.email !== undefined) throw new AuthError('InvalidRequest', 'Expected "name" and "image" only: the address changes with action "change-email", which confirms it first')
  const change: ProfileChange = {}
  if (body.name !== undefined) change.name = nameOf(body.name)
  if (body.image !== undefined) change.image = imageOf(body.image)
  if (!('name' in change) && !('image' in change)) throw new AuthError('InvalidRequest', 'Expected "name" or "image" (a string, or null to clear it)')
  return change
}

function nameOf(value: unknown): string | null {
  if (value === null) return null
  const expected = `Expected "name" to be 1 to ${maxName} characters without control characters, or null to clear it`
  if (typeof value !== 'string') throw new AuthError('InvalidRequest', `${expected}; got ${kind(value)}`)
  const name = value.trim()
  const length = [...name].length
  if (!length || length > maxName) throw new AuthError('InvalidRequest', `${expected}; got ${length ? `${length} characters` : 'an empty one'}`)
  if (unsafeInName.test(name)) throw new AuthError('InvalidRequest', `${expected}; got one with a control character`)
  return name
}

function imageOf(value: unknown): string | null {
  if (value === null) return null
  const expected = `Expected "image" to be an https URL (http only on localhost) of at most ${maxImage} characters, or null to clear it`
  if (typeof value !== 'string') throw new AuthError('InvalidRequest', `${expected}; got ${kind(value)}`)
  if (value.length > maxImage) throw new AuthError('InvalidRequest', `${expected}; got ${value.length} characters`)
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    throw new AuthError('InvalidRequest', `${expected}; got no URL`)
  }
  const allowed = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.host))
  if (!allowed) throw new AuthError('InvalidRequest', `${expected}; got a URL of another scheme or host`)
  // A password in an image URL would be shown to everyone who sees the image.
  if (url.username || url.password) throw new AuthError('InvalidRequest', `${expected}; got one with a user name or password in it`)
  if (url.href.length > maxImage) throw new AuthError('InvalidRequest', `${expected}; got ${url.href.length} characters once written out`)
  return url.href
}

const kind = (value: unknown) => (Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`)
