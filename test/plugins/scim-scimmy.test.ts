/**
 * SCIM (src/plugins/scim) checked by a SCIM implementation that is not this project's: SCIMMY
 * (the `scimmy` package, tested by its authors against Microsoft Entra ID). Its RFC 7643 schemas
 * validate every User and Group the server answers; its filter matcher and its PATCH engine are
 * the oracle the server's own filters and PATCH answers are compared with, over the same users.
 */
import SCIMMY from 'scimmy'
import { describe, expect, it } from 'vitest'
import { MemoryAdapter } from '../../src/adapters/memory.js'
import { plugins, scimApp, unique } from './scim-support.js'

type Resource = Record<string, any> & { id: string }

const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User'
const patchSchema = 'urn:ietf:params:scim:api:messages:2.0:PatchOp' as const

/** A user as an IdP sends it: the core schema only, as SCIMMY's User schema knows it. */
function person(tag: string, given: string, family: string, extra: Record<string, unknown> = {}) {
  return {
    schemas: [userSchema],
    userName: `${given.toLowerCase()}-${tag}@example.com`,
    externalId: `ext-${given}-${tag}`,
    name: { givenName: given, familyName: family },
    displayName: `${given} ${family}`,
    emails: [{ value: `${given.toLowerCase()}-${tag}@example.com`, type: 'work', primary: true }],
    active: true,
    ...extra,
  }
}

/** The resource as SCIMMY's schema reads it: throws where an attribute has the wrong type or shape. */
const valid = (definition: typeof SCIMMY.Schemas.User | typeof SCIMMY.Schemas.Group, resource: Resource) => definition.definition.coerce(resource, 'out')

async function withUsers() {
  const app = scimApp(MemoryAdapter({ plugins }))
  const org = await app.organization()
  const tag = unique()
  const sent = [
    person(tag, 'Ada', 'Lovelace', { title: 'Countess' }),
    person(tag, 'Alan', 'Turing', { emails: [{ value: `alan-${tag}@example.com`, type: 'work', primary: true }, { value: `alan-${tag}@home.example`, type: 'home' }] }),
    person(tag, 'Grace', 'Hopper', { active: false, title: 'Rear Admiral' }),
    person(tag, 'Edsger', 'Dijkstra', { nickName: 'EWD' }),
    person(tag, 'Barbara', 'Liskov'),
  ]
  const made: Resource[] = []
  for (const user of sent) {
    const res = await app.call(org.token, 'POST', '/Users', user)
    expect(res.status, await res.clone().text()).toBe(201)
    made.push((await res.json()) as Resource)
  }
  const listed = (await (await app.call(org.token, 'GET', '/Users?count=100')).json()) as { Resources: Resource[]; totalResults: number }
  return { app, org, tag, made, all: listed.Resources, total: listed.totalResults }
}

describe('SCIM as SCIMMY reads it', () => {
  it('every User the server answers (created, read, listed) passes SCIMMY’s RFC 7643 User schema, and keeps what was sent', async () => {
    const { app, org, made, all, total } = await withUsers()
    expect(total).toBe(made.length)
    for (const user of [...made, ...all]) expect(() => valid(SCIMMY.Schemas.User, user)).not.toThrow()
    const read = (await (await app.call(org.token, 'GET', `/Users/${made[1]!.id}`)).json()) as Resource
    const coerced = valid(SCIMMY.Schemas.User, read)
    expect(coerced.userName).toBe(made[1]!.userName)
    expect(coerced.emails.map((e: { type: string }) => e.type).sort()).toEqual(['home', 'work'])
    expect(coerced.meta.resourceType).toBe('User')
  })

  it('filters answer the users SCIMMY’s own matcher picks from the same list', async () => {
    const { app, org, tag, all } = await withUsers()
    const filters = [
      `userName eq "ada-${tag}@example.com"`,
      `userName sw "a"`,
      `name.familyName co "o"`,
      `active eq false`,
      `active eq true and name.givenName sw "A"`,
      `title pr`,
      `not (title pr)`,
      `emails[type eq "home"]`,
      `emails[type eq "work" and value ew "@example.com"]`,
      `externalId eq "ext-Grace-${tag}" or nickName eq "EWD"`,
      `displayName gt "C"`,
      `name.givenName le "B"`,
    ]
    for (const filter of filters) {
      const res = await app.call(org.token, 'GET', `/Users?count=100&filter=${encodeURIComponent(filter)}`)
      expect(res.status, filter).toBe(200)
      const ours = ((await res.json()) as { Resources?: Resource[] }).Resources ?? []
      const theirs = new SCIMMY.Types.Filter(filter).match(all) as Resource[]
      expect(ours.map((r) => r.id).sort(), filter).toEqual(theirs.map((r) => r.id).sort())
    }
  })

  it('PATCH leaves a user as SCIMMY’s PATCH engine leaves the same user (the RFC 7644 §3.5.2 shapes)', async () => {
    const { app, org, made } = await withUsers()
    // [the user it is sent to, its operations]: each changes something of that user.
    const patches: Array<[number, object[]]> = [
      [0, [{ op: 'replace', path: 'active', value: false }]],
      [1, [{ op: 'replace', path: 'name.familyName', value: 'Byron' }, { op: 'add', path: 'title', value: 'Analyst' }]],
      [2, [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'moved@example.com' }]],
      [0, [{ op: 'remove', path: 'title' }]],
      [4, [{ op: 'add', value: { nickName: 'Countess', displayName: 'A. Lovelace' } }]],
      [1, [{ op: 'remove', path: 'emails[type eq "home"]' }]],
    ]
    const watched = ['active', 'name', 'title', 'nickName', 'displayName', 'emails'] as const
    for (const [index, operations] of patches) {
      const target = made[index]!
      const before = (await (await app.call(org.token, 'GET', `/Users/${target.id}`)).json()) as Resource
      const res = await app.call(org.token, 'PATCH', `/Users/${target.id}`, { schemas: [patchSchema], Operations: operations })
      expect(res.status, JSON.stringify(operations)).toBe(200)
      const ours = valid(SCIMMY.Schemas.User, (await res.json()) as Resource)
      const theirs = await new SCIMMY.Messages.PatchOp({ schemas: [patchSchema], Operations: operations as any }).apply(new SCIMMY.Schemas.User(before) as any, (patched: unknown) => patched as any)
      // SCIMMY answers nothing where the operations changed nothing; each here changes something.
      expect(theirs, JSON.stringify(operations)).toBeDefined()
      const expected = valid(SCIMMY.Schemas.User, JSON.parse(JSON.stringify(theirs)))
      for (const key of watched) expect(ours[key], `${key} after ${JSON.stringify(operations)}`).toEqual(expected[key])
    }
  })

  it('a Group with members passes SCIMMY’s Group schema, and a member filter picks what SCIMMY picks', async () => {
    const { app, org, made } = await withUsers()
    const res = await app.call(org.token, 'POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Engineers', members: made.slice(0, 2).map((u) => ({ value: u.id })) })
    expect(res.status, await res.clone().text()).toBe(201)
    const group = (await res.json()) as Resource
    const coerced = valid(SCIMMY.Schemas.Group, group)
    expect(coerced.members.map((m: { value: string }) => m.value).sort()).toEqual(made.slice(0, 2).map((u) => u.id).sort())
    const groups = ((await (await app.call(org.token, 'GET', '/Groups')).json()) as { Resources: Resource[] }).Resources
    const filter = `members[value eq "${made[0]!.id}"]`
    const ours = ((await (await app.call(org.token, 'GET', `/Groups?filter=${encodeURIComponent(filter)}`)).json()) as { Resources?: Resource[] }).Resources ?? []
    expect(ours.map((g) => g.id)).toEqual((new SCIMMY.Types.Filter(filter).match(groups) as Resource[]).map((g) => g.id))
  })
})
