/** /ServiceProviderConfig, /ResourceTypes and /Schemas (RFC 7644 §4, RFC 7643 §5–7): what this server supports, from schema.ts. */
import type { Context, Reply } from 'latchkey/server'
import { notFound } from './errors.js'
import { listReply, scimReply } from './http.js'
import type { ResolvedScim } from './options.js'
import { enterpriseAttributes, groupAttributes, groupKind, urn, userAttributes, userKind, type Attribute } from './schema.js'

const base = (ctx: Context) => `${ctx.baseUrl}/scim/v2`

export function serviceProviderConfig(ctx: Context, options: ResolvedScim): Reply {
  return scimReply(ctx, 200, {
    schemas: [urn.config],
    documentationUri: 'https://github.com/latchkey/latchkey/blob/main/docs/scim.md',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: options.maxResults },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [{ type: 'oauthbearertoken', name: 'Bearer token', description: "A SCIM token of the organization, made by one of its admins", primary: true }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base(ctx)}/ServiceProviderConfig` },
  })
}

const resourceTypes = (ctx: Context) =>
  [userKind, groupKind].map((k) => ({
    schemas: [urn.resourceType],
    id: k.name,
    name: k.name,
    endpoint: k.endpoint,
    schema: k.schema,
    schemaExtensions: Object.keys(k.extensions).map((schema) => ({ schema, required: false })),
    meta: { resourceType: 'ResourceType', location: `${base(ctx)}/ResourceTypes/${k.name}` },
  }))

const described = (a: Attribute): Record<string, unknown> => ({
  name: a.name,
  type: a.type,
  multiValued: a.multiValued,
  required: a.required,
  caseExact: a.caseExact,
  mutability: a.mutability,
  returned: a.returned ?? 'default',
  uniqueness: a.uniqueness ?? 'none',
  ...(a.subAttributes && { subAttributes: a.subAttributes.map(described) }),
})

const schemas = (ctx: Context) =>
  [
    { id: urn.user, name: 'User', attributes: userAttributes },
    { id: urn.enterprise, name: 'EnterpriseUser', attributes: enterpriseAttributes },
    { id: urn.group, name: 'Group', attributes: groupAttributes },
  ].map((s) => ({ schemas: [urn.schema], id: s.id, name: s.name, attributes: s.attributes.map(described), meta: { resourceType: 'Schema', location: `${base(ctx)}/Schemas/${s.id}` } }))

export function resourceTypesReply(ctx: Context, id: string | undefined): Reply {
  const all = resourceTypes(ctx)
  if (id === undefined) return listReply(ctx, all, all.length, 1)
  const found = all.find((t) => t.id === id)
  if (!found) throw notFound('resource type')
  return scimReply(ctx, 200, found)
}

export function schemasReply(ctx: Context, id: string | undefined): Reply {
  const all = schemas(ctx)
  if (id === undefined) return listReply(ctx, all, all.length, 1)
  const found = all.find((s) => s.id === id)
  if (!found) throw notFound('schema')
  return scimReply(ctx, 200, found)
}
