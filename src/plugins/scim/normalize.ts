/**
 * A resource's attributes as the IdP sent them, made canonical against the schema: names in the
 * schema's spelling whatever their case, types checked (Entra's "True"/"False" read as booleans),
 * read-only attributes and the password dropped (a password is never stored: the organization's
 * IdP signs its people in), unknown attributes ignored (RFC 7644 §3.3 lets a server).
 */
import { invalidValue } from './errors.js'
import { byName, extensionOf, type Attribute, type ResourceKind } from './schema.js'

export type Doc = Record<string, unknown>

const isObject = (v: unknown): v is Doc => !!v && typeof v === 'object' && !Array.isArray(v)
const maxString = 2048
const maxValues = 100

/** One value of `attribute` (for a multi-valued one, one element when `single`). Undefined for null: unassigned. */
export function normalizeValue(attribute: Attribute, value: unknown, single = false): unknown {
  if (value === null || value === undefined) return undefined
  if (attribute.multiValued && !single) {
    const list = Array.isArray(value) ? value : [value]
    if (list.length > maxValues) throw invalidValue(`Expected at most ${maxValues} values of "${attribute.name}"`)
    return list.map((v) => normalizeValue(attribute, v, true)).filter((v) => v !== undefined)
  }
  switch (attribute.type) {
    case 'complex':
      if (!isObject(value)) throw invalidValue(`Expected "${attribute.name}" to be an object`)
      return normalizeAttributes(attribute.subAttributes ?? [], value, false)
    case 'boolean':
      if (typeof value === 'boolean') return value
      // Microsoft Entra ID sends "True" and "False".
      if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true'
      throw invalidValue(`Expected "${attribute.name}" to be true or false`)
    case 'integer':
    case 'decimal':
      if (typeof value !== 'number' || !Number.isFinite(value) || (attribute.type === 'integer' && !Number.isInteger(value))) throw invalidValue(`Expected "${attribute.name}" to be a number`)
      return value
    default:
      if (typeof value !== 'string' || value.length > maxString) throw invalidValue(`Expected "${attribute.name}" to be a string of at most ${maxString} characters`)
      return value
  }
}

/** The known attributes of `body` among `list`; `writable` drops the ones a client may not set. */
export function normalizeAttributes(list: readonly Attribute[], body: Doc, writable = true): Doc {
  const out: Doc = {}
  for (const [key, value] of Object.entries(body)) {
    const attribute = byName(list, key)
    if (!attribute || (writable && (attribute.mutability === 'readOnly' || attribute.mutability === 'writeOnly'))) continue
    const v = normalizeValue(attribute, value)
    if (v !== undefined) out[attribute.name] = v
  }
  return out
}

/** A whole resource of `kind` from a POST or PUT body: its core attributes, and each extension under its URN. */
export function normalizeResource(kind: ResourceKind, body: Doc): Doc {
  const doc = normalizeAttributes(kind.attributes, body)
  for (const [key, value] of Object.entries(body)) {
    const ext = extensionOf(kind, key)
    if (ext && isObject(value)) doc[ext] = normalizeAttributes(kind.extensions[ext]!, value)
  }
  return doc
}
