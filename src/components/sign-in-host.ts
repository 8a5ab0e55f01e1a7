/**
 * What `<latchkey-signin>` gives a renderer of a way in (a client plugin's `waysIn`): its client,
 * its steps and its words. A renderer answers the form or button that signs in with `provider`.
 */
import type { AppProvider, AuthClient, SignInResult } from '../client/index.js'
import type { Key } from './words.js'

export interface SignInHost {
  client: AuthClient
  /** "Confirm it's you": only the signed-in user may sign in again (no sign-up, no reset). */
  confirming: boolean
  /** The name field's autocomplete (with `webauthn` where passkeys are offered in it). */
  username: string
  /** "Sign in with {name}", in the element's language. */
  label: string
  callbackUrl: string
  redirect: boolean
  /** Runs a step from its button: a refusal in words under its form; answers whether it went through. */
  run(button: HTMLButtonElement, action: () => Promise<unknown>): Promise<boolean>
  /** Signs in with this provider and `fields`, staying on the page (a second factor may follow), then goes on. */
  signIn(fields: Record<string, string>): Promise<SignInResult>
  /** Shows `mode` in place of the forms, the focus in its first field; none: the forms again. */
  open(mode?: HTMLElement): void
  /** The element's status line saying `words` (`mail`: followed by the `email-sent` slot), to place. */
  say(words: string, mail?: boolean): HTMLElement
  /** Shows the words of `code` after `near`. */
  refuse(code: string, near: HTMLElement): void
  /** `key`'s message in the element's language: the way in's own `messages` first, then the element's catalogue. */
  t(key: Key | (string & {}), values?: Record<string, unknown>): string
}

export type SignInRenderer = (host: SignInHost, provider: AppProvider) => HTMLElement
