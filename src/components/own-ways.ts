/**
 * The ways in `<latchkey-signin>` draws itself, for the providers no plugin draws (and the
 * `'passkey'` drawing plugins name; `'code'` is plugin-form.ts): each a renderer on the same host as a plugin's,
 * with a few of the element's own means (`OwnHost`). What each signs in with, and its rank in the
 * step after the identifier, is in `drawn`.
 */
import type { AppProvider, WayInIdentifier } from '../client/index.js'
import { readableOn } from '../core/readable-on.js'
import { h } from './dom.js'
import { triedWith } from './last-used.js'
import { need } from './plugins.js'
import type { SignInHost } from './sign-in-host.js'

export interface OwnHost extends SignInHost {
  /** The credentials form's field names (`credentials-fields`, default `username,password`). */
  fields: string[]
  /** The identifier typed in the first step fills this way's first name field (it takes one). */
  named: boolean
  /** `{ confirm: true }` while confirming, else nothing: what every sign-in here sends. */
  confirm: object
  /** Shows the step after a code was sent: `words` at its top (`mail`: with the `email-sent` slot), the code's form, and Back. */
  sent(words: string, mail: boolean, form?: HTMLFormElement): void
  /** The passkey ceremony from its button: the element's autofill gives way, and starts again after. */
  passkey(provider: AppProvider): Promise<unknown>
}

export type OwnRenderer = (host: OwnHost, provider: AppProvider) => HTMLElement | null

export const fieldType = (name: string) => (/password/i.test(name) ? 'password' : /e-?mail/i.test(name) ? 'email' : 'text')
/** What a field of each input type takes as an identifier; any other, a name of its own. */
const takesOfType: Record<string, WayInIdentifier> = { email: 'email', tel: 'phone' }
const takesOf = (type = 'text', autocomplete = '') => takesOfType[type] ?? (/\btel\b/.test(autocomplete) ? 'phone' : 'username')

/** The first field that is not a secret: the one the identifier fills. */
const nameField = (fields: string[]) => fields.find((name) => fieldType(name) !== 'password')

/**
 * What each drawing signs in with (none: a button of the first step) and its rank among the ways
 * that fit an identifier (lowest: the step's primary): a secret typed here, then a code sent, then
 * a passkey.
 */
export const drawn: Record<string, { takes?: (p: AppProvider, fields: string[]) => WayInIdentifier; rank: number }> = {
  password: { takes: () => 'email', rank: 0 },
  credentials: { takes: (_, fields) => (nameField(fields) ? takesOf(fieldType(nameField(fields)!)) : 'any'), rank: 0 },
  email: { takes: () => 'email', rank: 1 },
  code: { takes: (p) => takesOf(p.form?.fields[0]?.type, p.form?.fields[0]?.autocomplete), rank: 1 },
  passkey: { takes: () => 'any', rank: 2 },
  // Offered only where its discovery answered (an organization's sign-in): then first.
  sso: { takes: () => 'email', rank: -1 },
  button: { rank: 1 },
}

/** The look of a way's action where it stands: filled as the primary, else quiet. */
const look = (host: SignInHost) => (host.place === 'choice' ? 'choice' : 'primary')

/** A quiet button that offers a way with a form of its own as the primary (`choose`). */
const chooser = (host: SignInHost, p: AppProvider, words: string) =>
  h('button', { type: 'button', part: 'button choice', 'data-provider': p.id, onclick: () => host.choose() }, words)

/** An input the identifier fills: hidden, for the form to send and a password manager to read. */
export const carried = (host: OwnHost, props: Record<string, unknown>) => h('input', { ...props, hidden: true, value: host.identifier })

/** The letter mark: the name's first letter in a ring, drawn in CSS in the button's text colour. */
const mark = (p: AppProvider) => h('span', { class: 'mark', part: 'logo mark', 'aria-hidden': 'true' }, p.name.trim().charAt(0).toUpperCase())

/**
 * The provider's logo (`style.logo`: the built-in providers' own, or the app's), else its letter
 * mark; decorative, as the button's words name the provider. One that does not load (an app's CSP
 * without `data:` in `img-src`, a broken URL) gives way to the letter mark, never a broken image.
 */
function logo(p: AppProvider): HTMLElement {
  if (!p.style?.logo) return mark(p)
  const img = h('img', { src: p.style.logo, alt: '', part: 'logo', onerror: () => img.replaceWith(mark(p)) })
  return img
}

/** A form whose submit runs `submitted`; its button looks as the way's place says. */
export function form(host: SignInHost, part: string, p: AppProvider, words: string, nodes: Node[], submitted: (submit: HTMLButtonElement) => void): HTMLFormElement {
  const submit = h('button', { type: 'submit', part: `button submit ${look(host)}` }, words)
  return h('form', {
    part: `form ${part}`, 'data-provider': p.id, 'aria-label': host.label,
    onsubmit: (e: Event) => {
      e.preventDefault()
      triedWith(p.id)
      submitted(submit)
    },
  }, ...nodes, submit)
}

/** The code field: `one-time-code` (a browser may offer it), digits on a phone's keypad where the code is digits, a pasted code taken whole. */
export const codeInput = (numeric: boolean) =>
  h('input', { name: 'code', required: true, part: 'input code-input', autocomplete: 'one-time-code', inputmode: numeric ? 'numeric' : 'text', autocapitalize: numeric ? 'off' : 'characters' })

/** The code's form in the step after it was sent: its submit signs in. */
export function codeForm(host: OwnHost, label: string, words: string, input: HTMLInputElement, signIn: () => Promise<unknown>): HTMLFormElement {
  const submit = h('button', { type: 'submit', part: 'button submit primary' }, words)
  return h('form', {
    part: 'form code-form', 'aria-label': words,
    onsubmit: (e: Event) => {
      e.preventDefault()
      host.run(submit, signIn)
    },
  }, h('label', { part: 'label' }, label, input), submit)
}

/**
 * The email way: "Email me a sign-in code" (a link, where the provider sends no code) for the
 * address typed; once sent, the code step: "Check your email", the `email-sent` slot, and the code
 * (typing it needs `emailCodes()`), which signs in this browser wherever the email was read.
 */
const email: OwnRenderer = (host, p) => {
  if (host.place === 'foot') return null
  const address = carried(host, { type: 'email', name: 'email', autocomplete: 'username', part: 'input' })
  return form(host, 'email-form', p, host.t(p.code ? 'emailCode' : 'emailLink'), [address], async (submit) => {
    const to = address.value
    const ok = await host.run(submit, () => host.client.signIn(p.id, { email: to, callbackUrl: host.callbackUrl, redirect: host.redirect, ...host.confirm }))
    if (!ok) return
    const code = p.code
    const input = code && codeInput(code.numeric)
    const verify = async () => {
      const result = await need(host.client, 'email', 'latchkey-signin').verify({ email: to, code: input!.value, provider: p.id, callbackUrl: host.callbackUrl })
      if (host.redirect && result.url) location.href = result.url
      return result
    }
    const label = code && host.t(code.numeric ? 'codeFromEmailDigits' : 'codeFromEmailCharacters', { count: code.length })
    host.sent(host.t(code ? 'emailAndCodeSent' : 'emailSent', { email: to }), true, input ? codeForm(host, label!, host.t('signInWithCode'), input, verify) : undefined)
  })
}

/** The credentials way: its fields (`credentials-fields`) but the name the identifier fills, and "Sign in with {name}". */
const credentials: OwnRenderer = (host, p) => {
  if (host.place === 'foot') return null
  if (host.place === 'choice') return chooser(host, p, host.label)
  const name = host.named ? nameField(host.fields) : undefined
  const inputs = host.fields.map((field) => {
    const secret = fieldType(field) === 'password'
    const props = { name: field, type: fieldType(field), required: true, part: 'input' }
    return field === name ? carried(host, { ...props, autocomplete: 'username' }) : h('input', { ...props, autocomplete: secret ? 'current-password' : host.username })
  })
  const nodes = inputs.map((input, i) => (input.hidden ? input : h('label', { part: 'label' }, fieldName(host, host.fields[i]!), input)))
  return form(host, 'credentials-form', p, host.label, nodes, (submit) => host.run(submit, () => host.signIn(Object.fromEntries(inputs.map((i) => [i.name, i.value])))))
}

/** A credentials field's label: the catalogue's words for the usual names, else the name itself. */
const fieldName = (host: SignInHost, name: string) => (/^(username|password|email)$/.test(name) ? host.t(name) : name.charAt(0).toUpperCase() + name.slice(1))

/** The passkey way: "Sign in with {name}", the ceremony (with the passkey plugin) or `latchkey-passkey`. */
const passkey: OwnRenderer = (host, p) => {
  if (host.place === 'foot') return null
  const button: HTMLButtonElement = h('button', {
    type: 'button', part: `button passkey ${look(host)}`, 'data-provider': p.id,
    onclick: () => host.run(button, () => (triedWith(p.id), host.passkey(p))),
  }, h('span', {}, host.label))
  return button
}

/**
 * A provider's button in the first step: "Sign in with {name}" filled with its brand colour (OAuth,
 * OIDC), the words white or near-black, whichever reads better on it (or the style's own `text`),
 * and its logo or letter mark.
 */
const button: OwnRenderer = (host, p) => {
  const style = p.style ?? {}
  const brand = style.brandColor ?? style.bg
  const item: HTMLButtonElement = h('button', {
    type: 'button', part: 'button provider', 'data-provider': p.id,
    '--latchkey-brand': brand,
    '--latchkey-brand-text': style.text ?? readableOn(brand),
    onclick: () => host.run(item, () => (triedWith(p.id), host.client.signIn(p.id, { callbackUrl: host.callbackUrl, ...host.confirm }))),
  }, logo(p), h('span', {}, host.label))
  return item
}

/** The element's own drawings, by name (the names `waysIn` and `drawn` use). */
export const own: Record<string, OwnRenderer> = { email, credentials, passkey, button }

