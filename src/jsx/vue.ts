/**
 * latchkey/jsx/vue: the elements as global components for Vue's template type-check (vue-tsc,
 * Volar), with their attributes and events (`@latchkey-error`). At run time Vue must still be
 * told they are custom elements (`compilerOptions.isCustomElement`, see docs/elements.md).
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue'
import type { LatchkeyElementName, LatchkeyElementTypes } from '../components/element-types.js'

type Described<Name extends LatchkeyElementName> = LatchkeyElementTypes[Name]
type Events<Name extends LatchkeyElementName> = Described<Name>['events']

/** `latchkey-error` → `LatchkeyError`: the name Vue gives the `on…` prop of `@latchkey-error`. */
type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${Pascal<Tail>}` : Capitalize<S>

/**
 * A boolean attribute as Vue sets it: Vue writes `false` out as the text "false", which still
 * counts as present, so the attribute takes `true` or `''`, and `null` to leave it off.
 */
type VueValue<T> = [T] extends [boolean] ? true | '' | null : T

/** The props of one element in a Vue template. */
export type LatchkeyVueProps<Name extends LatchkeyElementName> = HTMLAttributes & {
  [Attribute in keyof Described<Name>['attributes']]?: VueValue<Described<Name>['attributes'][Attribute]>
} & {
  [Event in keyof Events<Name> & string as `on${Pascal<Event>}`]?: (event: Events<Name>[Event]) => void
}

/** One element as a component type, the shape Vue's docs give for custom elements. */
export type LatchkeyVueElement<Name extends LatchkeyElementName> = new () => HTMLElement & {
  /** For the template type-check only. */
  $props: LatchkeyVueProps<Name> & PublicProps
  /** For the template type-check only. */
  $emit: EmitFn<{ [Event in keyof Events<Name>]: (event: Events<Name>[Event]) => void }>
}

declare module 'vue' {
  interface GlobalComponents {
    'latchkey-signin': LatchkeyVueElement<'latchkey-signin'>
    'latchkey-user': LatchkeyVueElement<'latchkey-user'>
    'latchkey-sessions': LatchkeyVueElement<'latchkey-sessions'>
    'latchkey-accounts': LatchkeyVueElement<'latchkey-accounts'>
    'latchkey-mfa': LatchkeyVueElement<'latchkey-mfa'>
    'latchkey-profile': LatchkeyVueElement<'latchkey-profile'>
    'latchkey-passkeys': LatchkeyVueElement<'latchkey-passkeys'>
    'latchkey-password': LatchkeyVueElement<'latchkey-password'>
    'latchkey-identity': LatchkeyVueElement<'latchkey-identity'>
    'latchkey-organization-switcher': LatchkeyVueElement<'latchkey-organization-switcher'>
    'latchkey-organization': LatchkeyVueElement<'latchkey-organization'>
  }
}
