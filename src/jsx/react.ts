/**
 * latchkey/jsx/react: `<latchkey-signin>` and the other elements in React 19's JSX, with their
 * attributes and their events as `on<event name>` props (React 19 adds a listener for those on a
 * custom element). `latchkey/react` carries it too.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react'
import type { LatchkeyElementName, LatchkeyElementTypes } from '../components/element-types.js'

type Described<Name extends LatchkeyElementName> = LatchkeyElementTypes[Name]

/** The props of one element in React: React's own for any element, and latchkey's. */
export type LatchkeyReactProps<Name extends LatchkeyElementName> = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & {
  /** React 19 sets `class` on a custom element as it is; `className` works too. */
  class?: string
} & {
  // React 19 sets `true` as an empty attribute and removes the attribute for `false`.
  [Attribute in keyof Described<Name>['attributes']]?: Described<Name>['attributes'][Attribute]
} & {
  [Event in keyof Described<Name>['events'] & string as `on${Event}`]?: (event: Described<Name>['events'][Event]) => void
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'latchkey-signin': LatchkeyReactProps<'latchkey-signin'>
      'latchkey-user': LatchkeyReactProps<'latchkey-user'>
      'latchkey-sessions': LatchkeyReactProps<'latchkey-sessions'>
      'latchkey-accounts': LatchkeyReactProps<'latchkey-accounts'>
      'latchkey-mfa': LatchkeyReactProps<'latchkey-mfa'>
      'latchkey-profile': LatchkeyReactProps<'latchkey-profile'>
      'latchkey-passkeys': LatchkeyReactProps<'latchkey-passkeys'>
      'latchkey-password': LatchkeyReactProps<'latchkey-password'>
      'latchkey-identity': LatchkeyReactProps<'latchkey-identity'>
      'latchkey-organization-switcher': LatchkeyReactProps<'latchkey-organization-switcher'>
      'latchkey-organization': LatchkeyReactProps<'latchkey-organization'>
    }
  }
}
