/**
 * The wire types: what the server answers the browser and the app (GET /providers, /session,
 * /sessions, /accounts, /passkeys). The records they are made from are the contract's (contract.ts).
 */
import type { AdapterAccount, CommonProviderOptions, OAuthProviderButtonStyles, User } from './contract.js'

/** A provider as the application sees it (GET /providers). */
export interface AppProvider extends CommonProviderOptions {
  signinUrl: string
  callbackUrl: string
  /** latchkey's addition, for buttons. */
  style?: OAuthProviderButtonStyles
  /** latchkey's addition: an email provider's one-time code, where it sends one (its length, and whether it is digits only). */
  code?: { length: number; numeric: boolean }
  /** latchkey's addition: a `Password()` provider's length rules (code points), for the sign-up form. */
  password?: { minLength: number; maxLength: number }
  /**
   * latchkey's addition: a plugin's provider signed in with a form of its own, in two steps: POST
   * /signin/:id with `fields` sends a code (`code` gives its length), POST /callback/:id with the
   * same fields and `code` signs in. The words are the plugin's, as the app configured them.
   */
  form?: ProviderForm
}

/** A plugin-described sign-in form (`AppProvider.form`). */
export interface ProviderForm {
  fields: Array<{ name: string; label: string; type?: string; autocomplete?: string }>
  /** The first step's button. */
  send: string
  /** Said once the code is on its way: `{name}` of a field reads its value. */
  sent: string
  /** The code field's label. */
  codeLabel: string
}

/** What the app sees of a session (GET /session). */
export interface Session {
  user: User
  /** ISO date. */
  expires: string
  /**
   * ISO date: when the user last proved who they are (the sign-in that made this session).
   * Absent where the store does not keep it (an adapter without a session's `createdAt`).
   */
  signedInAt?: string
  /**
   * latchkey's addition: how the user proved who they are at this session's sign-in (RFC 8176
   * names where one fits): `pwd`, `email`, `fed`, `hwk`, `user`, and with a second factor `otp`
   * (an authenticator app) or `recovery`, and `mfa`. Absent where the store does not keep it.
   */
  amr?: string[]
  /**
   * The organizations plugin's: the session's active organization and the user's role in it,
   * read live at each read; absent where none (or the plugin is not installed).
   */
  organization?: { id: string; slug: string; role: string }
  [key: string]: unknown
}

/** One of the user's sessions, as GET /sessions lists it (and `client.sessions` answers). */
export interface SessionInfo {
  /** Opaque: an HMAC of the stored token, never the token or its hash. */
  id: string
  /** ISO date of the sign-in; null where the store did not keep it. */
  createdAt: string | null
  /** ISO date of the last extension (the in-step rule's granularity). */
  lastSeenAt: string
  /** For example "Chrome on Linux", from the sign-in's User-Agent. */
  device: string
  /** This browser's session. */
  current: boolean
}

/** A linked account as the browser sees it (GET /accounts): never a token. */
export interface AccountInfo {
  provider: string
  /** The configured provider's name, or its id when it is no longer configured. */
  name: string
  type: AdapterAccount['type']
  /** The address, for an email account. */
  email?: string
}

/** The signed-in user as GET /identity answers it (and `client.identity` does). */
export interface IdentityInfo {
  name: string | null
  email: string
  /** An https URL (http on localhost), or null. */
  image: string | null
  /** Whether the address can be changed here: the server has an email provider that delivers latchkey's messages. */
  emailChange: boolean
}

/** A passkey as its owner sees it (GET /passkeys): nothing secret, nothing internal. */
export interface PasskeyInfo {
  /** The credential id (base64url): what removal takes. */
  id: string
  deviceType: string
  backedUp: boolean
  transports: string[]
  counter: number
  /** When it was registered (ISO 8601), or null where the adapter does not keep it. */
  createdAt: string | null
  /** The name the user gave it, or null. */
  name: string | null
  /** The authenticator's name from its AAGUID ("iCloud Keychain", "1Password"), or "Passkey" where the model is unknown. */
  authenticator: string
  /** The authenticator model's AAGUID, where it sent one. */
  aaguid: string | null
}

/**
 * What the passkey client tells the browser's passkey manager (the WebAuthn Signal API) after the
 * signed-in user's list is read or changed: per RP ID, the user handle, every credential the server
 * still accepts, and the user's current name and display name. Sent only to that signed-in user.
 */
export interface PasskeySignals {
  rpId: string
  /** The user handle (base64url), as registration gave it. */
  userId: string
  allAcceptedCredentialIds: string[]
  name: string
  displayName: string
}
