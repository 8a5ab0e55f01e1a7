/** The plugin's error codes (registered: the browser sees them), each with its status. */
import { AuthError } from 'latchkey/server'

export const errorCodes = ['OrganizationNotFound', 'OrganizationForbidden', 'MemberNotFound', 'LastOwner', 'SlugTaken', 'AlreadyMember', 'InvitationInvalid', 'InvitationNotFound', 'DomainInvalid', 'DomainNotFound', 'DomainNotVerified', 'DomainTaken'] as const

/** Not a member, or no such organization: one answer, so nobody learns which ids exist. */
export const organizationNotFound = () => new AuthError('OrganizationNotFound', 'No organization of yours has this id', { status: 404 })

export const forbidden = (permission: string) => new AuthError('OrganizationForbidden', `Your role in this organization does not allow this (${permission})`, { status: 403 })

/** A role above the actor's own: nobody grants more than they hold. */
export const aboveOwnRole = () => new AuthError('OrganizationForbidden', 'You cannot give or change a role above your own', { status: 403 })

export const memberNotFound = () => new AuthError('MemberNotFound', 'No member of this organization has this user id', { status: 404 })

export const lastOwner = () => new AuthError('LastOwner', 'The organization needs an owner: make another member owner first', { status: 409 })

export const slugTaken = () => new AuthError('SlugTaken', 'Another organization has this slug; choose another', { status: 409 })

export const alreadyMember = () => new AuthError('AlreadyMember', 'This address belongs to a member of the organization already', { status: 409 })

/** Used, expired, revoked, replaced, unknown, or for another address: one code, no detail. */
export const invitationInvalid = () =>
  new AuthError('InvitationInvalid', 'This invitation does not work: it was used, revoked or replaced, it expired, or it was sent to another address', { status: 400 })

export const invitationNotFound = () => new AuthError('InvitationNotFound', 'This organization has no pending invitation of this id', { status: 404 })

export const domainInvalid = () =>
  new AuthError('DomainInvalid', 'Expected "domain": a domain name such as example.com (not an IP address, a wildcard or a public suffix such as "com" or "co.uk")', { status: 400 })

export const domainNotFound = () => new AuthError('DomainNotFound', 'This organization has no domain of this id', { status: 404 })

/** The proof was not found: no record, another value, or the lookup failed (logged). */
export const domainNotVerified = (name: string) =>
  new AuthError('DomainNotVerified', `No TXT record at ${name} holds this domain's value yet: publish it, wait for DNS to carry it, and try again`, { status: 400 })

/** Verified by another organization: one domain, one organization. */
export const domainTaken = () => new AuthError('DomainTaken', 'Another organization has verified this domain', { status: 409 })
