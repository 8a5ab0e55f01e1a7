/**
 * The first step's one field: what each way in signs in with, the shape of what was typed, and
 * the field's label and keyboard for the ways this configuration has. Which ways fit depends on
 * the configuration and on the shape of the text alone, never on an account: the next step is
 * the same for an address that has an account and for one that has none (docs/security.md).
 */
import type { WayInIdentifier } from '../client/index.js'
import type { Key } from './words.js'

/** What was typed looks like an email address, a phone number, or else a name. */
export type Shape = Exclude<WayInIdentifier, 'any'>

export function shapeOf(value: string): Shape {
  if (/^[^\s@]+@[^\s@]+$/.test(value)) return 'email'
  // Digits as people type a number (spaces, dashes, brackets, a leading +), at least three.
  if (/^\+?[\d\s().-]+$/.test(value) && value.replace(/\D/g, '').length >= 3) return 'phone'
  return 'username'
}

/**
 * How well a way that signs in with `takes` fits what was typed: 0 it is what it takes, 1 a name
 * of its own takes any text, 2 it needs none (a passkey); undefined: it does not fit.
 */
export function fit(takes: WayInIdentifier, shape: Shape): number | undefined {
  if (takes === shape) return 0
  return ({ username: 1, any: 2 } as Partial<Record<WayInIdentifier, number>>)[takes]
}

/** The field's label for the shapes the ways take (in the catalogue's order: email, phone, username). */
const labels: Record<string, Key> = {
  email: 'email',
  phone: 'phone',
  username: 'username',
  'email phone': 'emailOrPhone',
  'email username': 'emailOrUsername',
  'phone username': 'phoneOrUsername',
  'email phone username': 'emailPhoneOrUsername',
}
const order: Shape[] = ['email', 'phone', 'username']

/** The keyboard and autofill of a field for one shape; for several, a text field named for any name. */
const inputs: Partial<Record<Shape, { type: string; name: string; autocomplete: string }>> = {
  email: { type: 'email', name: 'email', autocomplete: 'username' },
  phone: { type: 'tel', name: 'phone', autocomplete: 'tel' },
}
const anyText = { type: 'text', name: 'username', autocomplete: 'username' }

/** The identifier field for the shapes `takes` names: its label's key, its type, name and autocomplete. */
export function identifierField(takes: Iterable<Shape>): { label: Key; type: string; name: string; autocomplete: string } {
  const shapes = order.filter((shape) => [...takes].includes(shape))
  const one = shapes.length === 1 ? inputs[shapes[0]!] : undefined
  return { label: labels[shapes.join(' ')]!, ...(one ?? anyText) }
}
