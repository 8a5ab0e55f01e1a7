/**
 * PATCH (RFC 7644 §3.5.2) on a canonical resource document, with the shapes Okta and Microsoft
 * Entra ID send: op names in any case ("Replace"), "Operations" in any case, no path with a value
 * object (its keys may be paths: "name.givenName", or a URN-prefixed one), a value filter path
 * (`emails[type eq "work"].value`) that matches nothing making the element it describes, string
 * booleans, `remove` with a value list (members to drop), and Okta's `id` inside a replace's value.
 * A read-only attribute (id, meta, a user's groups) is a 400 mutability error, nothing changed.
 */
import { invalidPath, invalidSyntax, invalidValue, mutability, ScimError } from './errors.js'
import { matches, parseFilter, type Filter } from './filter.js'
import { normalizeValue, type Doc } from './normalize.js'
import { resolvePath } from './paths.js'
import { extensionOf, type Attribute, type AttributePath, type ResourceKind } from './schema.js'

export const maxOperations = 100
type Op = 'add' | 'replace' | 'remove'

interface Target extends AttributePath {
  filter?: Filter
}

const isObject = (v: unknown): v is Doc => !!v && typeof v === 'object' && !Array.isArray(v)

/** `attr`, `attr.sub`, `attr[filter]`, `attr[filter].sub`, each with or without its schema URN. */
function parseTarget(kind: ResourceKind, text: string): Target {
  const open = text.indexOf('[')
  if (open < 0) return resolvePath(kind, text)
  const close = text.lastIndexOf(']')
  if (close < open) throw invalidPath('a "[" is not closed')
  const base = resolvePath(kind, text.slice(0, open))
  if (base.sub || !base.attribute.multiValued) throw invalidPath('a value filter needs a multi-valued attribute')
  const after = text.slice(close + 1)
  let sub: Attribute | undefined
  if (after) {
    if (!after.startsWith('.')) throw invalidPath('expected ".sub-attribute" after "]"')
    sub = base.attribute.subAttributes?.find((a) => a.name.toLowerCase() === after.slice(1).toLowerCase())
    if (!sub) throw invalidPath(`expected a sub-attribute of "${base.attribute.name}"`)
  }
  // Inside the brackets, paths are the attribute's sub-attributes: parsed as a filter on `attr[...]`.
  const whole = parseFilter(kind, `${base.extension ? base.extension + ':' : ''}${base.attribute.name}[${text.slice(open + 1, close)}]`)
  if (whole.op !== 'has') throw invalidPath('expected one value filter')
  return { ...base, sub, filter: whole.filter }
}

function refuseReadOnly(t: Target): void {
  const a = t.sub ?? t.attribute
  if (t.attribute.mutability === 'readOnly' || a.mutability === 'readOnly') throw mutability(t.sub ? `${t.attribute.name}.${a.name}` : a.name)
}

/** The `attr eq "v"` pairs of a filter joined by `and`: what a new element must hold to match it. */
function equalities(f: Filter): Doc | undefined {
  if (f.op === 'and') {
    const [l, r] = [equalities(f.left), equalities(f.right)]
    return l && r ? { ...l, ...r } : undefined
  }
  return f.op === 'eq' && 'relative' in f.path ? { [f.path.relative.name]: f.value } : undefined
}

function apply(kind: ResourceKind, doc: Doc, op: Op, t: Target, raw: unknown): void {
  refuseReadOnly(t)
  const container: Doc = t.extension ? ((doc[t.extension] as Doc | undefined) ?? (doc[t.extension] = {})) : doc
  const name = t.attribute.name
  const a = t.attribute
  if (op === 'remove') return remove(container, t, raw)
  if (raw === undefined) throw invalidValue(`Expected "value" for ${op}`)
  if (t.filter) {
    const list = ((container[name] as Doc[] | undefined) ?? []).slice()
    let hit = false
    for (let i = 0; i < list.length; i++) {
      if (!matches(t.filter, list[i]!)) continue
      hit = true
      list[i] = t.sub ? { ...list[i], [t.sub.name]: normalizeValue(t.sub, raw) } : { ...list[i], ...(normalizeValue(a, raw, true) as Doc) }
    }
    if (!hit) {
      // Entra adds `emails[type eq "work"].value` where the user has no such email yet: the element the filter describes.
      const made = equalities(t.filter)
      if (!made) throw new ScimError(400, 'The value filter matches no value, and describes none to add', 'noTarget')
      list.push(t.sub ? { ...made, [t.sub.name]: normalizeValue(t.sub, raw) } : { ...made, ...(normalizeValue(a, raw, true) as Doc) })
    }
    container[name] = list
    return
  }
  if (t.sub) {
    if (a.multiValued) {
      container[name] = ((container[name] as Doc[] | undefined) ?? []).map((e) => ({ ...e, [t.sub!.name]: normalizeValue(t.sub!, raw) }))
      return
    }
    const parent = isObject(container[name]) ? (container[name] as Doc) : {}
    const v = normalizeValue(t.sub, raw)
    if (v === undefined) delete parent[t.sub.name]
    else parent[t.sub.name] = v
    container[name] = parent
    return
  }
  const v = normalizeValue(a, raw)
  if (v === undefined) delete container[name]
  else if (a.multiValued && op === 'add') {
    const had = (container[name] as unknown[] | undefined) ?? []
    const seen = new Set(had.map((e) => JSON.stringify(e)))
    container[name] = [...had, ...(v as unknown[]).filter((e) => !seen.has(JSON.stringify(e)))]
  } else if (a.type === 'complex' && !a.multiValued && isObject(container[name])) container[name] = { ...(container[name] as Doc), ...(v as Doc) }
  else container[name] = v
}

function remove(container: Doc, t: Target, raw: unknown): void {
  const name = t.attribute.name
  const list = container[name]
  if (t.filter) {
    if (!Array.isArray(list)) return
    if (t.sub) container[name] = list.map((e: Doc) => (matches(t.filter!, e) ? (({ [t.sub!.name]: _, ...rest }) => rest)(e) : e))
    else container[name] = list.filter((e: Doc) => !matches(t.filter!, e))
    return
  }
  if (t.sub) {
    if (isObject(list)) delete list[t.sub.name]
    else if (Array.isArray(list)) container[name] = list.map((e: Doc) => (({ [t.sub!.name]: _, ...rest }) => rest)(e))
    return
  }
  // Entra removes group members with `path: "members"` and the members to drop as the value.
  if (Array.isArray(list) && Array.isArray(raw)) {
    const drop = new Set(raw.map((e) => (isObject(e) ? String(e.value) : String(e))))
    container[name] = list.filter((e: Doc) => !drop.has(String(e?.value)))
    return
  }
  delete container[name]
}

/** Applies the body's operations to a copy of `doc`, all or none; `id` is the resource's, for Okta's echo of it. */
export function applyPatch(kind: ResourceKind, current: Doc, body: Doc, id: string): Doc {
  const schemas = body.schemas
  if (schemas !== undefined && !(Array.isArray(schemas) && schemas.some((s) => typeof s === 'string' && s.toLowerCase() === 'urn:ietf:params:scim:api:messages:2.0:patchop'))) {
    throw invalidSyntax('Expected "schemas" to hold urn:ietf:params:scim:api:messages:2.0:PatchOp')
  }
  const key = Object.keys(body).find((k) => k.toLowerCase() === 'operations')
  const ops = key ? body[key] : undefined
  if (!Array.isArray(ops) || !ops.length || ops.length > maxOperations) throw invalidSyntax(`Expected "Operations": a list of 1 to ${maxOperations} operations`)
  const doc = structuredClone(current)
  for (const raw of ops) {
    if (!isObject(raw)) throw invalidSyntax('Expected each operation to be an object')
    const get = (k: string) => raw[Object.keys(raw).find((n) => n.toLowerCase() === k) ?? k]
    const op = typeof get('op') === 'string' ? (get('op') as string).toLowerCase() : ''
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw invalidSyntax('Expected "op": add, replace or remove')
    const path = get('path')
    const value = get('value')
    if (path !== undefined && (typeof path !== 'string' || !path || path.length > 1000)) throw invalidPath('expected "path" to be a string')
    if (path) {
      apply(kind, doc, op, parseTarget(kind, path), value)
      continue
    }
    if (op === 'remove') throw new ScimError(400, 'A remove needs a "path"', 'noTarget')
    if (!isObject(value)) throw invalidValue('Expected "value" to be an object of attributes where the operation has no "path"')
    for (const [k, v] of Object.entries(value)) {
      if (k.toLowerCase() === 'schemas') continue
      // Okta sends the group's own id in a replace's value.
      if (k.toLowerCase() === 'id' && v === id) continue
      const ext = extensionOf(kind, k)
      if (ext) {
        if (!isObject(v)) throw invalidValue(`Expected the extension ${ext} to be an object`)
        for (const [ek, ev] of Object.entries(v)) apply(kind, doc, op, resolvePath(kind, `${ext}:${ek}`), ev)
      } else apply(kind, doc, op, resolvePath(kind, k), v)
    }
  }
  return doc
}
