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
