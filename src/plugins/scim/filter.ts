/**
 * SCIM filters (RFC 7644 §3.4.2.2): parsed into a tree checked against the schema, then matched
 * against rendered resources. Nothing of a filter reaches SQL but the values of the plain
 * `attr eq "value"` lookups the store answers by index (`plainEquality`), as bound parameters.
 * Bounded in length and depth, so a hostile one costs no more than a small one.
 */
import { invalidFilter } from './errors.js'
import { resolvePath } from './paths.js'
import type { Attribute, AttributePath, ResourceKind } from './schema.js'

export const maxFilterLength = 1000
const maxDepth = 8
const compareOps = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le'] as const
type CompareOp = (typeof compareOps)[number]
type Value = string | number | boolean | null

/** A path within a filter: from the resource's root, or (inside `attr[...]`) a sub-attribute of the bracketed one. */
export type FilterPath = AttributePath | { relative: Attribute }

export type Filter =
  | { op: 'and' | 'or'; left: Filter; right: Filter }
  | { op: 'not'; filter: Filter }
  | { op: 'pr'; path: FilterPath }
  | { op: CompareOp; path: FilterPath; value: Value }
  | { op: 'has'; path: AttributePath; filter: Filter }

type Token = { kind: 'word'; text: string } | { kind: 'value'; value: Value } | { kind: '(' | ')' | '[' | ']' }

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === ' ') i++
    else if ('()[]'.includes(c)) {
      tokens.push({ kind: c as '(' })
      i++
    } else if (c === '"') {
      // A JSON string: its end is the first quote no backslash escapes.
      let j = i + 1
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      if (j >= text.length) throw invalidFilter('a string is not closed')
      let value: unknown
      try {
        value = JSON.parse(text.slice(i, j + 1))
      } catch {
        throw invalidFilter('a string is not valid JSON')
      }
      tokens.push({ kind: 'value', value: value as string })
      i = j + 1
    } else {
      const m = /^[A-Za-z0-9:._$+-]+/.exec(text.slice(i))
      if (!m) throw invalidFilter('expected attribute paths, operators, and JSON values')
      const word = m[0]
      const lower = word.toLowerCase()
      if (lower === 'true' || lower === 'false') tokens.push({ kind: 'value', value: lower === 'true' })
      else if (lower === 'null') tokens.push({ kind: 'value', value: null })
      else if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(word)) tokens.push({ kind: 'value', value: Number(word) })
      else tokens.push({ kind: 'word', text: word })
      i += word.length
    }
  }
  return tokens
}

/** Parses `text` for `kind`; every attribute it names must be one the schema has and a client may read. */
export function parseFilter(kind: ResourceKind, text: string): Filter {
  if (text.length > maxFilterLength) throw invalidFilter(`at most ${maxFilterLength} characters`)
  const tokens = tokenize(text)
  let at = 0
  const peek = () => tokens[at]
  const word = (t: Token | undefined) => (t?.kind === 'word' ? t.text.toLowerCase() : undefined)
  const expect = (k: Token['kind']) => {
    if (tokens[at]?.kind !== k) throw invalidFilter(`expected "${k}"`)
    at++
  }

  const path = (text: string, within?: Attribute): FilterPath => {
    if (within) {
      const sub = within.subAttributes?.find((a) => a.name.toLowerCase() === text.toLowerCase())
      if (!sub) throw invalidFilter(`expected a sub-attribute of "${within.name}"`)
      return { relative: sub }
    }
    const resolved = resolvePath(kind, text, invalidFilter)
    if ((resolved.sub ?? resolved.attribute).mutability === 'writeOnly') throw invalidFilter('a write-only attribute cannot be filtered on')
    return resolved
  }

  const or = (depth: number, within?: Attribute): Filter => {
    if (depth > maxDepth) throw invalidFilter(`at most ${maxDepth} levels of nesting`)
    let left = and(depth, within)
    while (word(peek()) === 'or') {
      at++
      left = { op: 'or', left, right: and(depth, within) }
    }
    return left
  }
  const and = (depth: number, within?: Attribute): Filter => {
    let left = unary(depth, within)
    while (word(peek()) === 'and') {
      at++
      left = { op: 'and', left, right: unary(depth, within) }
    }
    return left
  }
  const unary = (depth: number, within?: Attribute): Filter => {
    const t = peek()
    if (word(t) === 'not' && tokens[at + 1]?.kind === '(') {
      at++
      expect('(')
      const inner = or(depth + 1, within)
      expect(')')
      return { op: 'not', filter: inner }
    }
    if (t?.kind === '(') {
      at++
      const inner = or(depth + 1, within)
      expect(')')
      return inner
    }
    if (t?.kind !== 'word') throw invalidFilter('expected an attribute path')
    at++
    if (peek()?.kind === '[') {
      if (within) throw invalidFilter('a value filter cannot hold another')
      const outer = resolvePath(kind, t.text, invalidFilter)
      if (outer.sub || !outer.attribute.subAttributes) throw invalidFilter('a value filter needs a complex attribute')
      at++
      const inner = or(depth + 1, outer.attribute)
      expect(']')
      return { op: 'has', path: outer, filter: inner }
    }
    const p = path(t.text, within)
    const op = word(peek())
    if (op === 'pr') {
      at++
      return { op: 'pr', path: p }
    }
    if (!op || !(compareOps as readonly string[]).includes(op)) throw invalidFilter('expected an operator: eq, ne, co, sw, ew, gt, lt, ge, le or pr')
    at++
    const v = peek()
    if (v?.kind !== 'value') throw invalidFilter('expected a JSON value (a quoted string, a number, true, false or null) after the operator')
    at++
    const target = 'relative' in p ? p.relative : (p.sub ?? p.attribute)
    if (target.type === 'complex') throw invalidFilter('a complex attribute is compared through its sub-attributes')
    if ((target.type === 'boolean' || v.value === null || typeof v.value === 'boolean') && !['eq', 'ne'].includes(op)) throw invalidFilter(`"${op}" does not compare booleans or null`)
    return { op: op as CompareOp, path: p, value: v.value }
  }

  if (!tokens.length) throw invalidFilter('the filter is empty')
  const tree = or(0)
  if (at !== tokens.length) throw invalidFilter('the filter has text after its end')
  return tree
}

type Doc = Record<string, unknown>

/** The values a path names in `doc` (a rendered resource, or one element of a multi-valued attribute). */
function valuesOf(doc: Doc, path: FilterPath): unknown[] {
  if ('relative' in path) return [doc[path.relative.name]].flat().filter((v) => v !== undefined && v !== null)
  const container = (path.extension ? doc[path.extension] : doc) as Doc | undefined
  const value = container?.[path.attribute.name]
  if (value === undefined || value === null) return []
  const list = Array.isArray(value) ? value : [value]
  if (path.sub) return list.map((v) => (v as Doc)?.[path.sub!.name]).filter((v) => v !== undefined)
  // A multi-valued complex attribute compared as a whole compares its elements' values.
  return path.attribute.type === 'complex' ? list.map((v) => (v as Doc)?.value) : list
}

const attributeOf = (path: FilterPath) => ('relative' in path ? path.relative : (path.sub ?? path.attribute))

function compare(op: CompareOp, actual: unknown, expected: Value, attribute: Attribute): boolean {
  if (expected === null) return op === 'eq' ? actual === null : actual !== null
  if (typeof expected === 'boolean' || typeof actual === 'boolean') return (actual === expected) === (op === 'eq')
  let a: string | number
  let b: string | number
  if (attribute.type === 'dateTime') {
    a = Date.parse(String(actual))
    b = Date.parse(String(expected))
    if (Number.isNaN(a) || Number.isNaN(b)) return op === 'ne'
  } else if (typeof expected === 'number') {
    a = Number(actual)
    b = expected
  } else {
    a = attribute.caseExact ? String(actual) : String(actual).toLowerCase()
    b = attribute.caseExact ? expected : expected.toLowerCase()
  }
  switch (op) {
    case 'eq':
      return a === b
    case 'ne':
      return a !== b
    case 'co':
      return String(a).includes(String(b))
    case 'sw':
      return String(a).startsWith(String(b))
    case 'ew':
      return String(a).endsWith(String(b))
    case 'gt':
      return a > b
    case 'lt':
      return a < b
    case 'ge':
      return a >= b
    case 'le':
      return a <= b
  }
}

export function matches(filter: Filter, doc: Doc): boolean {
  switch (filter.op) {
    case 'and':
      return matches(filter.left, doc) && matches(filter.right, doc)
    case 'or':
      return matches(filter.left, doc) || matches(filter.right, doc)
    case 'not':
      return !matches(filter.filter, doc)
    case 'pr':
      return valuesOf(doc, filter.path).some((v) => v !== null && v !== '' && !(Array.isArray(v) && !v.length))
    case 'has': {
      const container = (filter.path.extension ? doc[filter.path.extension] : doc) as Doc | undefined
      const list = [container?.[filter.path.attribute.name] ?? []].flat() as Doc[]
      return list.some((element) => element && typeof element === 'object' && matches(filter.filter, element))
    }
    default: {
      const values = valuesOf(doc, filter.path)
      const attribute = attributeOf(filter.path)
      // ne: true when no value equals; the rest: true when some value satisfies.
      if (filter.op === 'ne') return !values.some((v) => compare('eq', v, filter.value, attribute))
      return values.some((v) => compare(filter.op as CompareOp, v, filter.value, attribute))
    }
  }
}

/** `attr eq "text"` on one of `names` (top-level, core schema): the lookup a store answers by index. */
export function plainEquality(filter: Filter, names: readonly string[]): { name: string; value: string } | undefined {
  if (filter.op !== 'eq' || typeof filter.value !== 'string' || 'relative' in filter.path) return undefined
  const { extension, attribute, sub } = filter.path
  return !extension && !sub && names.includes(attribute.name) ? { name: attribute.name, value: filter.value } : undefined
}
