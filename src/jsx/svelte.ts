/**
 * latchkey/jsx/svelte: the elements in Svelte 5's markup type-check (svelte-check), with their
 * attributes and their events as `on<event name>` attributes (`onlatchkey-error={...}`).
 */
import type { HTMLAttributes } from 'svelte/elements'
import type { LatchkeyElementName, LatchkeyElementTypes } from '../components/element-types.js'

type Described<Name extends LatchkeyElementName> = LatchkeyElementTypes[Name]

/**
 * A boolean attribute as Svelte sets it: Svelte writes `false` out as the text "false", which
 * still counts as present, so the attribute takes `true` or `''`, and `undefined` to leave it off.
 */
type SvelteValue<T> = [T] extends [boolean] ? true | '' | null | undefined : T

/** The attributes of one element in Svelte markup. */
export type LatchkeySvelteAttributes<Name extends LatchkeyElementName> = HTMLAttributes<HTMLElement> & {
  [Attribute in keyof Described<Name>['attributes']]?: SvelteValue<Described<Name>['attributes'][Attribute]>
} & {
  [Event in keyof Described<Name>['events'] & string as `on${Event}`]?: (event: Described<Name>['events'][Event]) => void
}

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'latchkey-signin': LatchkeySvelteAttributes<'latchkey-signin'>
    'latchkey-user': LatchkeySvelteAttributes<'latchkey-user'>
    'latchkey-sessions': LatchkeySvelteAttributes<'latchkey-sessions'>
    'latchkey-accounts': LatchkeySvelteAttributes<'latchkey-accounts'>
    'latchkey-mfa': LatchkeySvelteAttributes<'latchkey-mfa'>
    'latchkey-profile': LatchkeySvelteAttributes<'latchkey-profile'>
    'latchkey-passkeys': LatchkeySvelteAttributes<'latchkey-passkeys'>
    'latchkey-password': LatchkeySvelteAttributes<'latchkey-password'>
    'latchkey-identity': LatchkeySvelteAttributes<'latchkey-identity'>
    'latchkey-organization-switcher': LatchkeySvelteAttributes<'latchkey-organization-switcher'>
    'latchkey-organization': LatchkeySvelteAttributes<'latchkey-organization'>
  }
}
