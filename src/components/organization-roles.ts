/** What `<latchkey-organization-switcher>` and `<latchkey-organization>` share: roles in words and by rank, and a change told to both. */
import type { ProfileKey } from './profile-words.js'

const builtIn: Record<string, ProfileKey> = { owner: 'roleOwner', admin: 'roleAdmin', member: 'roleMember' }

/** A role in words: a built-in one in the element's language, an app's own by its name. */
export const roleWords = (p: (key: ProfileKey) => string, role: string) => (builtIn[role] ? p(builtIn[role]) : role)

/** 3 owner, 2 admin, 1 member and every app role: as the server ranks them (nobody grants above their own). */
export const rankOf = (role: string) => ({ owner: 3, admin: 2 })[role] ?? 1

/** Fired on the document when one element changed the user's organizations (made, left, deleted, renamed): the others read theirs anew. */
export const organizationsChanged = 'latchkey-organizations-changed'
export const tellOrganizationsChanged = (from: HTMLElement) => document.dispatchEvent(new CustomEvent(organizationsChanged, { detail: from }))

/** A refusal made here, before asking the server: said as the server's would be; `field`, the field at fault. */
export const invalid = (field?: HTMLInputElement) => Object.assign(new Error('invalid'), { code: 'InvalidRequest', field })
/** A name the server takes: 1 to 100 printable characters (its fields.ts). */
export const takenName = (name: string) => !!name && [...name].length <= 100 && !/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(name)
