/**
 * Two kinds of failure. The token routes (an admin's, in the browser) throw `AuthError` with
 * registered codes, as every latchkey route does. The SCIM endpoints answer RFC 7644 §3.12 error
 * bodies (`status`, `scimType`, `detail`) through `ScimError`; their detail names what was
 * expected, never echoes the request.
 */
import { AuthError } from 'latchkey/server'

export const errorCodes = ['ScimTokenNotFound'] as const

export const tokenNotFound = () => new AuthError('ScimTokenNotFound', 'This organization has no SCIM token of this id', { status: 404 })

export type ScimType = 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'invalidVers' | 'sensitive'

export class ScimError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly scimType?: ScimType,
    /** Seconds, for a `Retry-After` header (429, 503). */
    readonly retryAfter?: number,
  ) {
    super(message)
    this.name = 'ScimError'
  }
}

export const invalidFilter = (why: string) => new ScimError(400, `The filter is not one this server reads: ${why}`, 'invalidFilter')
export const invalidPath = (why: string) => new ScimError(400, `The attribute path is not one this server knows: ${why}`, 'invalidPath')
export const invalidValue = (why: string) => new ScimError(400, why, 'invalidValue')
export const invalidSyntax = (why: string) => new ScimError(400, why, 'invalidSyntax')
export const mutability = (name: string) => new ScimError(400, `The attribute "${name}" cannot be changed`, 'mutability')
export const uniqueness = (what: string) => new ScimError(409, `${what} is in use`, 'uniqueness')
export const notFound = (kind: string) => new ScimError(404, `This organization has no ${kind} of this id`)
/** Missing, unknown, revoked, or its organization gone: one answer. */
export const unauthorized = () => new ScimError(401, 'Expected "Authorization: Bearer" with a SCIM token of this organization')
