/**
 * What each element takes and fires, said once: the React, Vue and Svelte typings (src/jsx/) are
 * made from it. `boolean` marks a boolean attribute (present or absent); each framework's typing
 * spells it the way that framework sets an attribute.
 */
import type { AppProvider } from '../client/index.js'
import type { ConfirmNeeded } from './fresh.js'

/**
 * An action needs a recent sign-in: `detail.why` says which, `detail.retry()` runs it again. The
 * element shows `<latchkey-signin confirm>` itself, unless the page calls `preventDefault()` and
 * shows its own.
 */
type ConfirmNeededEvent = CustomEvent<ConfirmNeeded>
/** The server does not offer what the element manages (its feature is off): `detail.code` is `UnknownAction` or `NotSupported`. */
type UnavailableEvent = CustomEvent<{ code: string }>

export interface LatchkeyElementTypes {
  'latchkey-signin': {
    attributes: {
      /** Where to land after signing in (default: this page, without its `error`). */
      'callback-url': string
      /** The credentials form's fields, comma-separated (default `username,password`). */
      'credentials-fields': string
      /** Navigate after a credentials or email sign-in rather than staying on the page. */
      redirect: boolean
      /** "Confirm it's you": shown only while signed in, signs the same user in again. */
      confirm: boolean
      /**
       * After a password or credentials sign-in, let the password manager make a passkey without a
       * prompt (conditional create), where the browser can and the passkey provider has
       * `automaticUpgrade` (docs/passkeys.md). Off by default.
       */
      'passkey-upgrade': boolean
    }
    events: {
      /** An error is shown; `detail.code` is its code (docs/errors.md). */
      'latchkey-error': CustomEvent<{ code: string }>
      /** `confirm`: the same user signed in again; retry what needed a fresh session. */
      'latchkey-confirmed': CustomEvent<null>
      /** The passkey button, pressed with no passkey client attached. */
      'latchkey-passkey': CustomEvent<{ provider: AppProvider }>
    }
  }
  'latchkey-user': {
    attributes: {
      /** Where to land after signing out. */
      'callback-url': string
      /** Navigate after signing out. */
      redirect: boolean
      /** The sign-out button's text (default "Sign out"). */
      'signout-label': string
    }
    events: {}
  }
  'latchkey-sessions': {
    attributes: {}
    events: {
      /** Ending another session needs a recent sign-in. */
      'latchkey-confirm-needed': ConfirmNeededEvent
      /** Sessions are JWTs here: there is no list. */
      'latchkey-unavailable': UnavailableEvent
    }
  }
  'latchkey-accounts': {
    attributes: {
      /** Where a "Connect" sign-in comes back to (default: this page). */
      'callback-url': string
    }
    events: {
      /** Connecting or unlinking needs a recent sign-in. */
      'latchkey-confirm-needed': ConfirmNeededEvent
      'latchkey-unavailable': UnavailableEvent
    }
  }
  'latchkey-mfa': {
    attributes: {}
    events: {
      /** Setting up, removing or new recovery codes needs a recent sign-in. */
      'latchkey-confirm-needed': ConfirmNeededEvent
      /** The server has `mfa` off. */
      'latchkey-unavailable': UnavailableEvent
    }
  }
  'latchkey-passkeys': {
    attributes: {}
    events: {
      /** Adding or removing a passkey needs a recent sign-in. */
      'latchkey-confirm-needed': ConfirmNeededEvent
      'latchkey-unavailable': UnavailableEvent
    }
  }
  'latchkey-password': {
    attributes: {}
    events: {
      /** Setting or changing the password needs a recent sign-in. */
      'latchkey-confirm-needed': ConfirmNeededEvent
      /** The server has no `Password()` provider. */
      'latchkey-unavailable': UnavailableEvent
    }
  }
  'latchkey-identity': {
    attributes: {}
    events: {
      /** Changing the email address needs a recent sign-in. */
      'latchkey-confirm-needed': ConfirmNeededEvent
    }
  }
  'latchkey-organization-switcher': {
    attributes: {}
    events: {}
  }
  'latchkey-organization': {
    attributes: {
      /** The organization shown (default: the session's active one). */
      'organization-id': string
      /** Its sub-headings' level, 1 to 6 (default 3). */
      'heading-level': string
    }
    events: {
      /** Deleting the organization, or making or unmaking an owner, needs a recent sign-in. */
      'latchkey-confirm-needed': ConfirmNeededEvent
    }
  }
  'latchkey-sso-setup': {
    attributes: {
      /** The organization whose sign-in is set up (default: the session's active one). */
      'organization-id': string
      /** Its sub-headings' level, 1 to 6 (default 3). */
      'heading-level': string
    }
    events: {
      /** Adding or deleting a connection, or making a SCIM token, needs a recent sign-in. */
      'latchkey-confirm-needed': ConfirmNeededEvent
    }
  }
  'latchkey-connected-apps': {
    attributes: {}
    events: {
      /** The server has no oauth-server plugin. */
      'latchkey-unavailable': UnavailableEvent
    }
  }
  'latchkey-profile': {
    attributes: {
      /** The sections shown, and their order, comma-separated (default `identity,password,passkeys,mfa,sessions,accounts,connected-apps,organization`). */
      sections: string
      /** The sections' heading level, 1 to 6 (default 2), read when a section is first shown. */
      'heading-level': string
      /** Where a "Connect" sign-in of the connected accounts comes back to (default: this page). */
      'callback-url': string
    }
    events: {
      /** An action of a section needs a recent sign-in (the section asks for it). */
      'latchkey-confirm-needed': ConfirmNeededEvent
    }
  }
}

export type LatchkeyElementName = keyof LatchkeyElementTypes
