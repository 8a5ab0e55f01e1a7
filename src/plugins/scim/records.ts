/** The SCIM plugin's records, as its store methods (store.ts) take and answer them. Every method is scoped to one organization. */

export interface ScimTokenRecord {
  id: string
  organizationId: string
  /** What the admin called it ("Okta"), to tell tokens apart. */
  name: string
  /** The admin who made it; null once that user is gone. */
  createdBy: string | null
  createdAt: Date
  /** A SCIM group's displayName or externalId → the role its members get (never owner). Empty: groups grant nothing. */
  groupRoles: Record<string, string>
}

/** A provisioned user: the SCIM resource, and the latchkey user it stands for. */
export interface ScimUserRecord {
  /** The SCIM resource's id (not the latchkey user's). */
  id: string
  organizationId: string
  /** The latchkey user. */
  userId: string
  userName: string
  externalId: string | null
  active: boolean
  /** The rest of the resource as the IdP last sent it (never a password), by canonical attribute name. */
  attributes: Record<string, unknown>
  createdAt: Date
  updatedAt: Date
  version: number
}

export interface ScimGroupRecord {
  id: string
  organizationId: string
  displayName: string
  externalId: string | null
  /** The SCIM user resource ids of its members, sorted. */
  members: string[]
  createdAt: Date
  updatedAt: Date
  version: number
}

/** A group as a user's `groups` lists it, and as a role mapping reads it. */
export interface GroupOfUser {
  id: string
  displayName: string
  externalId: string | null
}

export interface Page {
  offset: number
  limit: number
}

/** Why a write touched nothing: the resource is not the organization's, or a unique name is another's. */
export type Taken = 'taken'

export interface ScimStore {
  createScimToken(token: ScimTokenRecord & { tokenHash: string }): Promise<ScimTokenRecord>
  listScimTokens(organizationId: string): Promise<ScimTokenRecord[]>
  /** False where the organization has no token of this id. */
  deleteScimToken(organizationId: string, id: string): Promise<boolean>
  scimTokenByHash(tokenHash: string): Promise<ScimTokenRecord | null>

  /** 'taken' where the organization has a resource of this userName (any case) or for this latchkey user. */
  createScimUser(user: ScimUserRecord): Promise<ScimUserRecord | Taken>
  getScimUser(organizationId: string, id: string): Promise<ScimUserRecord | null>
  /** By creation, then id; `userName` matches in any case, `externalId` exactly. */
  listScimUsers(organizationId: string, where: { userName?: string; externalId?: string }, page: Page): Promise<{ total: number; users: ScimUserRecord[] }>
  /** Bumps the version. Null where the organization has none of this id. */
  updateScimUser(organizationId: string, id: string, changes: Pick<ScimUserRecord, 'userName' | 'externalId' | 'active' | 'attributes' | 'updatedAt'>): Promise<ScimUserRecord | null | Taken>
  /** Its group memberships go with it. */
  deleteScimUser(organizationId: string, id: string): Promise<ScimUserRecord | null>

  /** 'taken' where the organization has a group of this displayName (any case). Members not of the organization are left out. */
  createScimGroup(group: ScimGroupRecord): Promise<ScimGroupRecord | Taken>
  getScimGroup(organizationId: string, id: string): Promise<ScimGroupRecord | null>
  listScimGroups(organizationId: string, where: { displayName?: string; externalId?: string }, page: Page): Promise<{ total: number; groups: ScimGroupRecord[] }>
  /** Replaces its name and members (members not of the organization are left out); bumps the version. */
  updateScimGroup(organizationId: string, id: string, changes: Pick<ScimGroupRecord, 'displayName' | 'externalId' | 'members' | 'updatedAt'>): Promise<ScimGroupRecord | null | Taken>
  deleteScimGroup(organizationId: string, id: string): Promise<boolean>
  /** The groups a user resource is a member of, by name. */
  groupsOfScimUser(organizationId: string, id: string): Promise<Array<{ id: string; displayName: string }>>
  /** The groups of many user resources at once (one query: a page of users), by name; every id asked is a key, and none of another organization. */
  groupsOfScimUsers(organizationId: string, ids: string[]): Promise<Record<string, GroupOfUser[]>>
}
