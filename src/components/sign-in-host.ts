/**
 * What `<latchkey-signin>` gives a renderer of a way in (a client plugin's `waysIn`): its client,
 * its steps and its words. A renderer answers what it draws at `place` for `provider`, or null
 * for nothing there.
 */
import type { AppProvider, AuthClient, SignInResult } from '../client/index.js'
import type { Key } from './words.js'

/**
 * Where a drawing goes. `button`: the first step, above the "or" (a way that takes no identifier:
 * OAuth, a badge). The step after the identifier, for a way that takes one: `primary`, its whole
 * form with the step's one primary action (`part~="primary"`); `choice`, a quiet button among the
 * other ways (signing in at once, or `choose()` to become the primary); `foot`, links at the foot
 * of both steps to flows of its own (a sign-up), or null.
 */
export type SignInPlace = 'button' | 'primary' | 'choice' | 'foot'

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
  place: SignInPlace
  /** What was typed into the first step's field, as it is now (empty before). */
  readonly identifier: string
  /** What this way's `offers` answered for the identifier offered (its `detail`); undefined for a way without `offers`. */
  readonly offered?: unknown
  /** Runs a step from its button: a refusal in words under its form; answers whether it went through. */
  run(button: HTMLButtonElement, action: () => Promise<unknown>): Promise<boolean>
  /** Signs in with this provider and `fields`, staying on the page (a second factor may follow), then goes on. */
  signIn(fields: Record<string, string>): Promise<SignInResult>
  /** Shows `mode` in place of the steps, the focus in its first field; none: the first step again. */
  open(mode?: HTMLElement): void
  /** Back to the step before (`open`'s mode to the ways offered, those to the first step), its first field focused. */
  back(): void
  /** Offers this way as the primary one of the step after the identifier (a `choice` chosen). */
  choose(): void
  /** Goes on to the step after the identifier for `identifier`, this way its primary, saying `words` at its top (after a sign-up, a reset). */
  resume(identifier: string, words?: string): void
  /**
   * The element's status line saying `words` (`mail`: followed by the `email-sent` slot), to place;
   * said while drawing and left unplaced, it shows at the top of the first step.
   */
  say(words: string, mail?: boolean): HTMLElement
  /** Shows the words of `code` after `near`. */
  refuse(code: string, near: HTMLElement): void
  /** `key`'s message in the element's language: the way in's own `messages` first, then the element's catalogue. */
  t(key: Key | (string & {}), values?: Record<string, unknown>): string
}

export type SignInRenderer = (host: SignInHost, provider: AppProvider) => HTMLElement | null
