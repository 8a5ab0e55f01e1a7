/** Attribute paths (RFC 7644 §3.10) resolved against a resource kind's schema: any case, with or without the schema URN. */
import { invalidPath } from './errors.js'
import { byName, extensionOf, type AttributePath, type ResourceKind } from './schema.js'

/**
 * `name`, `name.sub`, `urn:...:name` or `urn:...:name.sub`. `fail` makes the error (a filter's
 * path is an invalidFilter, a PATCH's an invalidPath); it names the form, never the text.
 */
export function resolvePath(kind: ResourceKind, text: string, fail: (why: string) => Error = invalidPath): AttributePath {
  let rest = text
  let extension: string | undefined
  let list = kind.attributes
  if (/^urn:/i.test(text)) {
    const lower = text.toLowerCase()
    const core = kind.schema.toLowerCase() + ':'
    const ext = Object.keys(kind.extensions).find((u) => lower.startsWith(u.toLowerCase() + ':'))
    if (ext) {
      extension = ext
      list = kind.extensions[ext]!
      rest = text.slice(ext.length + 1)
    } else if (lower.startsWith(core)) rest = text.slice(core.length)
    else throw fail('the schema URN is not one of this resource type')
  }
  const dot = rest.indexOf('.')
  const [head, tail] = dot < 0 ? [rest, undefined] : [rest.slice(0, dot), rest.slice(dot + 1)]
  const attribute = byName(list, head)
  if (!attribute) throw fail(`expected an attribute of the ${kind.name} schema`)
  if (tail === undefined) return { extension, attribute }
  const sub = attribute.subAttributes && byName(attribute.subAttributes, tail)
  if (!sub) throw fail(`expected a sub-attribute of "${attribute.name}"`)
  return { extension, attribute, sub }
}

/** The whole extension a key names (`urn:...:enterprise:2.0:User`), or undefined. */
export const wholeExtension = (kind: ResourceKind, key: string) => extensionOf(kind, key)
