/**
 * The SCIM schemas this server speaks (RFC 7643 §4, §8.7): the core User with the enterprise
 * extension, and the core Group. One description serves the /Schemas answer and every check of
 * an attribute's name, type and mutability in bodies, filters and PATCH paths.
 */

export const urn = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  enterprise: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  config: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const

export type AttributeType = 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime' | 'integer' | 'decimal'
export type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly'

export interface Attribute {
  name: string
  type: AttributeType
  multiValued: boolean
  mutability: Mutability
  caseExact: boolean
  required: boolean
  subAttributes?: Attribute[]
  uniqueness?: 'server' | 'none'
  returned?: 'always' | 'never' | 'default'
}

type Spec = Partial<Attribute> & { name: string }
const attr = ({ name, type = 'string', multiValued = false, mutability = 'readWrite', caseExact = false, required = false, subAttributes, uniqueness, returned }: Spec): Attribute => ({
  name,
  type,
  multiValued,
  mutability,
  caseExact,
  required,
  ...(subAttributes && { subAttributes }),
  ...(uniqueness && { uniqueness }),
  ...(returned && { returned }),
})
const str = (name: string, more: Partial<Attribute> = {}) => attr({ name, ...more })
/** A multi-valued complex attribute of the usual shape: value, display, type, primary. */
const plural = (name: string, valueType: AttributeType = 'string', more: Partial<Attribute> = {}) =>
  attr({ name, type: 'complex', multiValued: true, ...more, subAttributes: [str('value', { type: valueType }), str('display'), str('type'), str('primary', { type: 'boolean' })] })

/** Every resource's own attributes (RFC 7643 §3.1). */
const common = [
  str('id', { mutability: 'readOnly', caseExact: true, uniqueness: 'server', returned: 'always' }),
  str('externalId', { caseExact: true }),
  attr({
    name: 'meta',
    type: 'complex',
    mutability: 'readOnly',
    subAttributes: ['resourceType', 'location', 'version'].map((n) => str(n, { mutability: 'readOnly', caseExact: true })).concat(['created', 'lastModified'].map((n) => str(n, { type: 'dateTime', mutability: 'readOnly' }))),
  }),
]

export const userAttributes: Attribute[] = [
  str('userName', { required: true, uniqueness: 'server' }),
  attr({ name: 'name', type: 'complex', subAttributes: ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((n) => str(n)) }),
  ...['displayName', 'nickName', 'profileUrl', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone'].map((n) => str(n, n === 'profileUrl' ? { type: 'reference' } : {})),
  str('active', { type: 'boolean' }),
  str('password', { mutability: 'writeOnly', returned: 'never' }),
  plural('emails'),
  plural('phoneNumbers'),
  plural('ims'),
  plural('photos', 'reference'),
  attr({
    name: 'addresses',
    type: 'complex',
    multiValued: true,
    subAttributes: ['formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type'].map((n) => str(n)).concat([str('primary', { type: 'boolean' })]),
  }),
  attr({ name: 'groups', type: 'complex', multiValued: true, mutability: 'readOnly', subAttributes: [str('value', { mutability: 'readOnly' }), str('$ref', { type: 'reference', mutability: 'readOnly' }), str('display', { mutability: 'readOnly' }), str('type', { mutability: 'readOnly' })] }),
  plural('entitlements'),
  plural('roles'),
  plural('x509Certificates'),
]

export const enterpriseAttributes: Attribute[] = [
  ...['employeeNumber', 'costCenter', 'organization', 'division', 'department'].map((n) => str(n)),
  attr({ name: 'manager', type: 'complex', subAttributes: [str('value'), str('$ref', { type: 'reference' }), str('displayName', { mutability: 'readOnly' })] }),
]

export const groupAttributes: Attribute[] = [
  str('displayName', { required: true }),
  attr({ name: 'members', type: 'complex', multiValued: true, subAttributes: [str('value', { mutability: 'immutable', caseExact: true }), str('$ref', { type: 'reference', mutability: 'immutable' }), str('display', { mutability: 'readOnly' }), str('type', { mutability: 'immutable' })] }),
]

/** A resource type: its core schema and attributes, and its extensions. */
export interface ResourceKind {
  name: 'User' | 'Group'
  endpoint: '/Users' | '/Groups'
  schema: string
  attributes: Attribute[]
  extensions: Record<string, Attribute[]>
}

export const userKind: ResourceKind = { name: 'User', endpoint: '/Users', schema: urn.user, attributes: [...common, ...userAttributes], extensions: { [urn.enterprise]: enterpriseAttributes } }
export const groupKind: ResourceKind = { name: 'Group', endpoint: '/Groups', schema: urn.group, attributes: [...common, ...groupAttributes], extensions: {} }

export const byName = (list: readonly Attribute[], name: string): Attribute | undefined => {
  const lower = name.toLowerCase()
  return list.find((a) => a.name.toLowerCase() === lower)
}

/** The extension a key names (any case), as its URN spelled here. */
export const extensionOf = (kind: ResourceKind, key: string): string | undefined => Object.keys(kind.extensions).find((u) => u.toLowerCase() === key.toLowerCase())

/** An attribute path's parts once its schema URN is read off: `urn:...:enterprise:2.0:User:manager.value` → extension, manager, value. */
export interface AttributePath {
  /** The extension's URN; undefined for the core schema. */
  extension?: string
  attribute: Attribute
  sub?: Attribute
}
