import type { AppProvider, AuthClient, AuthStatus, MfaProof, ProviderForm, SignInResult, WayIn } from '../client/index.js'
import { LatchkeyElement } from './base-element.js'
import { h, refocus } from './dom.js'
import { lastUsed, triedWith } from './last-used.js'
import { errorMessage } from './messages.js'
import type { SignInHost, SignInRenderer } from './sign-in-host.js'
import type { Key } from './words.js'
import { fill } from '../core/locale.js'
import { proofField } from './proof-field.js'
import { underWay } from '../client/under-way.js'
import { forHowLong } from '../core/for-how-long.js'
import { maybe, need } from './plugins.js'

/** What draws one way in: the element's own drawings by name, or a plugin's renderer (lazily loaded). */
type Draw = (p: AppProvider, c: ItemContext) => HTMLElement
type ItemContext = { callbackUrl: string; redirect: boolean; confirm: object; label: (p: AppProvider) => string; autofill: (hint: string) => string }
/** The element's drawing of a provider no plugin draws, by its kind (a table, so no kind is tested here). */
const byKind: Record<string, string> = { email: 'email', credentials: 'credentials', webauthn: 'passkey' }
/** Renderers the element ships but loads only where a page needs them: the password forms. */
const lazyRenderers: Record<string, () => Promise<SignInRenderer>> = { password: async () => (await import('./password-forms.js')).passwordForm }

const fieldType = (name: string) => (/password/i.test(name) ? 'password' : /e-?mail/i.test(name) ? 'email' : 'text')
/** Tries the server gives one pending sign-in (features/mfa/verify.ts). */
const maxTries = 5
const quietAutofill = new Set(['PasskeyCancelled', 'PasskeyUnsupported', 'PasskeyNotAllowed'])
/** The form an `?error=` code is about: its words go under that form's fields. */
const formOf: Record<string, string> = { CredentialsSignin: 'credentials-form password-form', EmailNotVerified: 'password-form', Verification: 'email-form', EmailSignin: 'email-form', InvalidCode: 'code-form', CodeExpired: 'code-form', TooManyAttempts: 'code-form' }

/** WebAuthn here (WebKitGTK has none): the passkey client's own check, else the global it needs. */
const hasWebAuthn = (client: AuthClient) => maybe(client, 'passkey')?.supported() ?? typeof globalThis.PublicKeyCredential === 'function'

/** The letter mark: the name's first letter in a ring, drawn in CSS in the button's text colour. */
const mark = (p: AppProvider) => h('span', { class: 'mark', part: 'logo mark', 'aria-hidden': 'true' }, p.name.trim().charAt(0).toUpperCase())

/**
 * The provider's logo when its configuration names one (`style.logo`), else its letter mark. No
 * logo ships with latchkey: one that does not load gives way to the letter mark, never a broken image.
 */
function logo(p: AppProvider): HTMLElement {
  if (!p.style?.logo) return mark(p)
  const img = h('img', { src: p.style.logo, alt: '', part: 'logo', onerror: () => img.replaceWith(mark(p)) })
  return img
}

/**
 * `<latchkey-signin>`: a button per OAuth/OIDC provider ("Sign in with {name}", brand colour and
 * the configured logo or a letter mark), a form for email and for credentials (fields from
 * `credentials-fields`, default "username,password"), a passkey button where the browser has
 * WebAuthn, and the `?error=` of the URL in words. An error shows under what it is about: a
 * form's fields (which name it in `aria-describedby`), a provider's button, else at the top. One
 * error at a time: a `latchkey-error` from elsewhere on the page replaces this one. "Check your
 * email" shows under the email form, followed by the `email-sent` slot (a link to the mailbox,
 * say). Hidden while signed in; a sign-in or sign-out clears the error, the message and the
 * password. An `?error=` the page opened with shows even while signed in (a sign-in link used
 * twice, say).
 * A sign-in that answers `SecondFactorRequired` (or a page opened with it: an OAuth or email-link
 * sign-in that came back) goes on in one step in place of the forms: the code from the
 * authenticator app or a recovery code, then the session; "Start over" goes back to the forms.
 * Each way in is drawn by what the client's plugins bring (`client.waysIn`), else by the element's
 * own drawing for its kind: the password plugin's form for a `Password()` provider, whose sign-up,
 * confirmation and reset steps show in place of the forms too (password-forms.ts, loaded only
 * where the server has such a provider).
 * Attributes: `callback-url`, `credentials-fields`, `redirect`, and `confirm`: "confirm it's you",
 * shown only while signed in, signing the same user in again (a fresh session) and firing
 * `latchkey-confirmed`; a sign-in as anyone else is refused and changes nothing.
 */
export function signInElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeySignIn extends LatchkeyElement {
    private body?: HTMLElement
    private error = h('p', { id: 'error', class: 'error', part: 'error', role: 'alert', hidden: true })
    private sent = h('span')
    private mailSlot = h('slot', { name: 'email-sent' })
    private message = h('p', { class: 'message', part: 'message', role: 'status', hidden: true }, this.sent, ' ', this.mailSlot)
    /** A password provider's length rules, so a refused length names the limit. */
    private lengths?: { minLength: number; maxLength: number }
    /** Another element's error (the page's own forms) makes this one obsolete. */
    private othersFailed = (e: Event) => e.target !== this && (this.error.hidden = true)
    /** The pending autofill request, so only one waits at a time. */
    private waiting?: Promise<unknown>
    /** The last known status: a change between signed in and out clears what was said. */
    private seen?: AuthStatus
    /** The code of the error shown, and its reason: said again in a new language. */
    private code?: string
    private reason?: string
    /** The providers the forms are built from, kept to build them again in a new language. */
    private providers?: AppProvider[]
    /** The second-factor step, while a sign-in waits for it. */
    private step?: HTMLElement
    constructor() {
      super(client)
    }
    override connectedCallback() {
      super.connectedCallback()
      document.addEventListener('latchkey-error', this.othersFailed)
      const code = new URLSearchParams(location.search).get('error')
      if (code) this.showError(code)
      this.client
        .getProviders()
        .then(async (p) => {
          const all = Object.values(p)
          await Promise.all(all.map((provider) => this.resolve(provider)))
          this.build(all)
        })
        .catch((e) => this.failed(e))
    }
    override disconnectedCallback() {
      super.disconnectedCallback()
      document.removeEventListener('latchkey-error', this.othersFailed)
    }
    protected override failed(e: unknown, near?: HTMLElement) {
      const { code, reason } = e as { code?: string; reason?: string }
      this.showError(code ?? 'ServerError', reason, near)
    }
    private showError(code: string, reason?: string, near?: HTMLElement) {
      // Not a failure: the sign-in goes on with its second factor.
      if (code === 'SecondFactorRequired') return this.challenge()
      this.error.textContent = errorMessage(code, reason, this.lengths, this.words)
      this.code = code
      this.reason = reason
      this.place(near ?? this.formFor(code))
      this.error.hidden = false
      this.dispatchEvent(new CustomEvent('latchkey-error', { detail: { code }, bubbles: true, composed: true }))
    }
    private formFor(code: string | undefined): HTMLElement | undefined {
      const parts = code && formOf[code]
      return (parts && this.body?.querySelector<HTMLElement>(parts.split(' ').map((part) => `form[part~="${part}"]`).join())) || undefined
    }
    /** Puts the error under a form's fields (before its button), after a button, or at the top. */
    private place(near?: HTMLElement) {
      this.undescribe()
      const form = near?.closest('form')
      const heading = this.body?.querySelector('[part~="heading"]')
      if (form) {
        form.querySelector('button[type=submit]')?.before(this.error)
        for (const input of form.querySelectorAll('input')) input.setAttribute('aria-describedby', this.error.id)
      } else if (near) near.after(this.error)
      else if (heading) heading.after(this.error)
      else this.body?.prepend(this.error)
    }
    private undescribe() {
      for (const input of this.root.querySelectorAll('[aria-describedby]')) input.removeAttribute('aria-describedby')
    }
    /** Hides the error and the message: a new attempt, or a sign-in, makes them obsolete. */
    private clear() {
      this.error.hidden = true
      this.message.hidden = true
      this.undescribe()
    }
    /** Work under way (a sign-in step, the autofill's answer, the upgrade's decision), for `settled`. */
    private work = underWay()
    private track = this.work.track
    /** Resolves once no sign-in work of this element is under way (docs/elements.md). */
    get settled(): Promise<void> {
      return this.work.settled()
    }
    /** Runs a sign-in step from `button`; answers whether it went through. */
    private run(button: HTMLButtonElement, action: () => Promise<SignInResult | undefined | unknown>, done?: string): Promise<boolean> {
      return this.track(this.attempt(button, action, done))
    }
    private async attempt(button: HTMLButtonElement, action: () => Promise<SignInResult | undefined | unknown>, done?: string): Promise<boolean> {
      this.clear()
      button.disabled = true
      try {
        const result = (await action()) as SignInResult | undefined
        if (result?.error) {
          this.showError(result.error, undefined, button)
          return false
        }
        else if (result?.ok && this.confirming) {
          this.forgetPasswords()
          this.dispatchEvent(new CustomEvent('latchkey-confirmed', { bubbles: true, composed: true }))
        }
        // Under the form it answers, not at the end of the list.
        else if (result && done) button.after(this.say(done, true))
        return true
      } catch (e) {
        this.failed(e, button)
        return false
      } finally {
        button.disabled = false
        // A disabled button loses the focus; where it still shows, it takes the focus back.
        refocus(() => (button.getClientRects().length ? button : undefined))
      }
    }
    /** The status line saying `words` (`mail`: followed by the `email-sent` slot), for the caller to place. */
    private say(words: string, mail = false): HTMLElement {
      this.sent.textContent = words
      this.mailSlot.hidden = !mail
      this.message.hidden = false
      return this.message
    }
    /** A credentials sign-in stays on the page whatever `redirect` says (a second factor may follow here), and navigates once signed in. */
    private async credentials(p: AppProvider, fields: Record<string, string>, callbackUrl: string, redirect: boolean, confirm: object) {
      const result = await this.client.signIn(p.id, { ...fields, callbackUrl, redirect: false, ...confirm })
      if (result.ok && !this.confirming) this.upgrade()
      if (redirect && result.ok && result.url) location.href = result.url
      return result
    }
    /**
     * `passkey-upgrade`: right after a sign-in, the password manager may make a passkey without a
     * prompt. Not awaited: the browser may keep it pending, and a refusal changes nothing here.
     */
    private upgrade() {
      const passkey = maybe(this.client, 'passkey')
      if (!passkey || !this.hasAttribute('passkey-upgrade')) return
      // Only the decision is tracked: the browser may keep the upgrade itself pending.
      this.track(passkey.capabilities().then((c) => void (c.conditionalCreate && passkey.upgrade().catch(() => {})))).catch(() => {})
    }
    /** Shows `mode` (a step of its own) in place of the forms, the focus in its first field; none: the forms again. */
    private open(mode?: HTMLElement) {
      this.step = mode
      this.clear()
      this.render()
      mode?.querySelector<HTMLElement>('input:not([hidden])')?.focus()
    }
    /** "Confirm it's you": every sign-in here must be the signed-in user's, and makes the session fresh. */
    private get confirming(): boolean {
      return this.hasAttribute('confirm')
    }
    /** Where a sign-in lands: `callback-url`, else this page without its `?error=`. */
    private get callbackUrl(): string {
      return this.getAttribute('callback-url') ?? location.href.replace(/[?&]error=[^&]*/, '')
    }
    private forgetPasswords() {
      for (const input of this.body?.querySelectorAll('input[type=password]') ?? []) (input as HTMLInputElement).value = ''
    }
    protected override relang() {
      if (this.code) this.error.textContent = errorMessage(this.code, this.reason, this.lengths, this.words)
      if (this.providers) this.build(this.providers)
      else this.update()
    }
    private build(all: AppProvider[]) {
      this.providers = all
      // A passkey button the browser cannot run would only fail when pressed.
      const isPasskey = (p: AppProvider) => this.drawings.get(p.id)?.name === 'passkey'
      const providers = hasWebAuthn(this.client) ? all : all.filter((p) => !isPasskey(p))
      const callbackUrl = this.callbackUrl
      const redirect = this.hasAttribute('redirect')
      const confirm = this.confirming ? { confirm: true } : {}
      const label = (p: AppProvider) => this.t('signInWith', { name: p.name })
      // With a passkey provider and the passkey client, the name fields offer passkeys in the autofill.
      const passkey = maybe(this.client, 'passkey') ? providers.find(isPasskey) : undefined
      const autofill = (hint: string) => (passkey ? `${hint} webauthn` : hint)
      this.signInButtons.clear()
      const items = providers.map((p) => {
        const item = this.item(p, { callbackUrl, redirect, confirm, label, autofill })
        this.signInButtons.set(p.id, item instanceof HTMLButtonElement ? item : item.querySelector('button[type=submit]')!)
        return item
      })
      const heading = this.confirming ? [h('p', { class: 'message', part: 'heading' }, this.t('confirmHeading'))] : []
      this.body = h('div', { class: 'stack', part: 'container' }, ...heading, this.error, ...items)
      this.markLastUsed()
      // An error shown before the forms were there (the URL's) moves under the form it is about.
      if (!this.error.hidden) this.place(this.formFor(this.code))
      this.render()
      if (passkey) this.autofill(passkey, callbackUrl, redirect)
    }
    /** The button that signs in with each provider (a form's submit button), for the "Last used" badge. */
    private signInButtons = new Map<string, HTMLButtonElement>()
    private badge = h('span', { class: 'last-used', part: 'last-used' })
    /** Marks the provider of the last sign-in on this device, in words (not colour alone). */
    private markLastUsed() {
      const button = this.signInButtons.get(lastUsed() ?? '')
      this.badge.textContent = this.t('lastUsed')
      if (button) button.append(this.badge)
      else this.badge.remove()
    }
    /** Each provider's drawing, by its id: what a plugin's way in names, else the element's for its kind. */
    private drawings = new Map<string, { name: string; draw: Draw }>()
    private async resolve(p: AppProvider) {
      const way = this.client.waysIn.find((w) => w.knows(p))
      const renderer = way?.renderer ?? (p.form && p.code ? 'code' : byKind[p.type] ?? 'button')
      const load = typeof renderer === 'function' ? (renderer as () => Promise<SignInRenderer>) : lazyRenderers[renderer]
      const name = typeof renderer === 'string' ? renderer : 'plugin'
      if (load) {
        const render = await load()
        return void this.drawings.set(p.id, { name, draw: (p, c) => render(this.host(p, c, way?.messages), p) })
      }
      this.drawings.set(p.id, { name, draw: this.own[name] ?? this.own.button! })
    }
    private item(p: AppProvider, c: ItemContext): HTMLElement {
      return (this.drawings.get(p.id)?.draw ?? this.own.button!)(p, c)
    }
    /** What a renderer uses of this element (sign-in-host.ts). */
    private host(p: AppProvider, { callbackUrl, redirect, confirm, label, autofill }: ItemContext, own: WayIn['messages']): SignInHost {
      const password = p.password
      if (password) this.lengths = password
      return {
        client: this.client, confirming: this.confirming, username: autofill('username'), label: label(p), callbackUrl, redirect,
        run: (button: HTMLButtonElement, action: () => Promise<unknown>) => this.run(button, action),
        signIn: (fields: Record<string, string>) => (triedWith(p.id), this.credentials(p, fields, callbackUrl, redirect, confirm)),
        open: (mode?: HTMLElement) => this.open(mode),
        say: (words: string, mail?: boolean) => this.say(words, mail),
        refuse: (code: string, near: HTMLElement) => this.showError(code, undefined, near),
        t: (key, values) => {
          const lang = this.words.lang
          const text = own?.[lang]?.[key] ?? own?.en[key]
          return text === undefined ? this.t(key as Key, values) : fill(lang, text, values)
        },
      }
    }
    /** The element's own drawings. */
    private own: Record<string, Draw> = {
      // Without the emailCodes plugin the code form still shows, and says which plugin it needs.
      email: (p, c) => this.emailForm(p, c),
      code: (p, { callbackUrl, redirect, confirm, label }) => this.pluginForm(p, p.form!, p.code!, callbackUrl, redirect, confirm, label(p)),
      credentials: (p, c) => this.credentialsForm(p, c),
      passkey: (p, c) => this.button(p, c, true),
      button: (p, c) => this.button(p, c, false),
    }
    /** The email form, with the emailed code's form after it where the provider sends one. */
    private emailForm(p: AppProvider, { callbackUrl, redirect, confirm, label, autofill }: ItemContext): HTMLFormElement {
      const input = h('input', { type: 'email', name: 'email', required: true, autocomplete: autofill('email'), part: 'input' })
      const submit = h('button', { type: 'submit', part: 'button submit' }, label(p))
      // The code form stands after the email form (forms do not nest), once an email went out.
      const code = p.code && this.codeForm(p, p.code, () => input.value, callbackUrl, redirect)
      const form: HTMLFormElement = h('form', {
        part: 'form email-form', 'aria-label': label(p),
        onsubmit: async (e: Event) => {
          e.preventDefault()
          triedWith(p.id)
          const ok = await this.run(submit, () => this.client.signIn(p.id, { email: input.value, callbackUrl, redirect, ...confirm }), this.t(code ? 'emailAndCodeSent' : 'emailSent', { email: input.value }))
          if (ok && code) {
            form.after(code)
            code.hidden = false
            code.querySelector('input')!.focus()
          }
        },
      }, h('label', { part: 'label' }, this.t('email'), input), submit)
      return form
    }
    /** The credentials form: fields from `credentials-fields`, default "username,password". */
    private credentialsForm(p: AppProvider, { callbackUrl, redirect, confirm, label, autofill }: ItemContext): HTMLFormElement {
      const names = (this.getAttribute('credentials-fields') ?? 'username,password').split(',').map((s) => s.trim()).filter(Boolean)
      const inputs = names.map((name) => h('input', { name, type: fieldType(name), required: true, part: 'input', autocomplete: fieldType(name) === 'password' ? 'current-password' : autofill('username') }))
      const submit = h('button', { type: 'submit', part: 'button submit' }, label(p))
      return h('form', {
        part: 'form credentials-form', 'aria-label': label(p),
        onsubmit: (e: Event) => {
          e.preventDefault()
          const fields = Object.fromEntries(inputs.map((i) => [i.name, i.value]))
          triedWith(p.id)
          this.run(submit, () => this.credentials(p, fields, callbackUrl, redirect, confirm))
        },
      }, ...inputs.map((input, i) => h('label', { part: 'label' }, this.fieldName(names[i]), input)), submit)
    }
    /** A provider's button: "Sign in with {name}" in its brand colour (OAuth, OIDC), or the passkey button. */
    private button(p: AppProvider, { callbackUrl, redirect, confirm, label }: ItemContext, passkey: boolean): HTMLButtonElement {
      const style = p.style ?? {}
      const button: HTMLButtonElement = h('button', {
        type: 'button',
        part: `button ${passkey ? 'passkey' : 'provider'}`,
        'data-provider': p.id,
        '--latchkey-brand': style.brandColor ?? style.bg,
        '--latchkey-brand-text': style.text,
        onclick: () =>
          this.run(button, () => {
            triedWith(p.id)
            if (!passkey) return this.client.signIn(p.id, { callbackUrl, ...confirm })
            // client.signIn runs the passkey plugin's ceremony and then refreshes the session; the
            // button's ceremony cancels the waiting autofill, which starts again once it ends.
            if (maybe(this.client, 'passkey')) return this.client.signIn(p.id, { callbackUrl, redirect, ...confirm }).finally(() => this.autofill(p, callbackUrl, redirect))
            this.dispatchEvent(new CustomEvent('latchkey-passkey', { detail: { provider: p }, bubbles: true, composed: true }))
            return Promise.resolve()
          }),
      }, !passkey && logo(p), h('span', {}, label(p)))
      return button
    }
    /** A credentials field's label: the catalogue's words for the usual names, else the name itself. */
    private fieldName(name: string) {
      return /^(username|password|email)$/.test(name) ? this.t(name as 'email') : name.charAt(0).toUpperCase() + name.slice(1)
    }
    /**
     * "Enter the code from the email": `autocomplete="one-time-code"` (a browser may offer the
     * code), digits on a phone's keypad where the code is digits, and a pasted code taken whole
     * (the server drops spaces and dashes). It signs in this browser, wherever the email was read.
     */
    private codeForm(p: AppProvider, { length, numeric }: { length: number; numeric: boolean }, email: () => string, callbackUrl: string, redirect: boolean): HTMLFormElement {
      const input = h('input', {
        name: 'code', required: true, part: 'input code-input', autocomplete: 'one-time-code',
        inputmode: numeric ? 'numeric' : 'text', autocapitalize: numeric ? 'off' : 'characters',
      })
      const submit = h('button', { type: 'submit', part: 'button submit' }, this.t('signInWithCode'))
      return h('form', {
        part: 'form code-form', 'aria-label': this.t('signInWithEmailCode'), hidden: true,
        onsubmit: (e: Event) => {
          e.preventDefault()
          this.run(submit, async () => {
            const result = await need(this.client, 'email', 'latchkey-signin').verify({ email: email(), code: input.value, provider: p.id, callbackUrl })
            if (redirect && result.url) location.href = result.url
            return result
          })
        },
      }, h('label', { part: 'label' }, this.t(numeric ? 'codeFromEmailDigits' : 'codeFromEmailCharacters', { count: length }), input), submit)
    }
    /**
     * A provider its plugin describes (`form`: a phone number, say): its fields send a code, and
     * the code form then stands after it, as the email form's does. The words are the plugin's.
     */
    private pluginForm(p: AppProvider, form: ProviderForm, { numeric }: { numeric: boolean }, callbackUrl: string, redirect: boolean, confirm: object, label: string): HTMLFormElement {
      const inputs = form.fields.map((f) => h('input', { name: f.name, type: f.type ?? 'text', required: true, autocomplete: f.autocomplete ?? 'off', part: 'input' }))
      const values = (): Record<string, string> => Object.fromEntries(inputs.map((i) => [i.name, i.value]))
      const send = h('button', { type: 'submit', part: 'button submit' }, form.send)
      const input = h('input', {
        name: 'code', required: true, part: 'input code-input', autocomplete: 'one-time-code',
        inputmode: numeric ? 'numeric' : 'text', autocapitalize: numeric ? 'off' : 'characters',
      })
      const submit = h('button', { type: 'submit', part: 'button submit' }, label)
      const code: HTMLFormElement = h('form', {
        part: 'form code-form', 'aria-label': label, hidden: true,
        onsubmit: (e: Event) => {
          e.preventDefault()
          this.run(submit, async () => {
            const result = await this.client.signIn(p.id, { ...values(), code: input.value, callbackUrl, redirect: false, ...confirm })
            if (redirect && result.ok && result.url) location.href = result.url
            return result
          })
        },
      }, h('label', { part: 'label' }, form.codeLabel, input), submit)
      const first: HTMLFormElement = h('form', {
        part: 'form plugin-form', 'data-provider': p.id, 'aria-label': label,
        onsubmit: async (e: Event) => {
          e.preventDefault()
          triedWith(p.id)
          const sent = values()
          if (!(await this.run(send, () => this.client.signIn(p.id, { ...sent, callbackUrl, redirect: false, ...confirm })))) return
          send.after(this.say(form.sent.replace(/\{(\w+)\}/g, (name, key: string) => sent[key] ?? name)))
          first.after(code)
          code.hidden = false
          input.focus()
        },
      }, ...form.fields.map((f, i) => h('label', { part: 'label' }, f.label, inputs[i])), send)
      return first
    }
    /**
     * "Two-step verification": the sign-in's second factor, in place of the forms, the focus in its
     * field. The session follows `client.mfa.verify`; with `redirect`, the page goes where the
     * sign-in lands. What the server says this sign-in takes (`client.mfa.methods()`) adds a
     * passkey button (with the passkey client, where the browser has WebAuthn) and "Don't ask
     * again on this device". "Start over" goes back to the forms (the server voids a pending
     * sign-in after five wrong codes, or after five minutes).
     */
    private challenge() {
      this.clear()
      this.forgetPasswords()
      const field = proofField(this.t)
      const submit = h('button', { type: 'submit', part: 'button submit' }, this.t('verify'))
      const trust = h('input', { type: 'checkbox', part: 'checkbox trust-device' })
      const trustLabel = h('label', { part: 'label trust', hidden: true }, trust, h('span', {}))
      const passkey: HTMLButtonElement = h('button', {
        type: 'button', part: 'button passkey', hidden: true,
        onclick: () => this.run(passkey, () => this.verify({ passkey: true }, trust.checked)),
      }, this.t('usePasskey'))
      // The server takes five tries and then answers every one alike: after the fifth, say so here.
      let tries = 0
      const form = h('form', {
        part: 'form mfa-form', 'aria-label': this.t('twoStep'),
        onsubmit: (e: Event) => {
          e.preventDefault()
          this.run(submit, async () => {
            try {
              return await this.verify(field.proof(), trust.checked)
            } catch (error) {
              if (++tries < maxTries || (error as { code?: string }).code !== 'InvalidCode') throw error
              field.input.disabled = submit.hidden = true
              // A code of this element's own (the components import no client code): what `failed` shows.
              throw Object.assign(new Error('Five wrong codes: this sign-in takes no more; start over'), { code: 'SecondFactorLocked' })
            }
          })
        },
      }, field.label, trustLabel, submit, field.toggle)
      const startOver = h('button', { type: 'button', part: 'button start-over', onclick: () => this.startOver() }, this.t('startOver'))
      this.step = h('div', { class: 'stack', part: 'container mfa-step' },
        h('h2', { part: 'heading' }, this.t('twoStep')),
        h('p', { class: 'message', part: 'message' }, errorMessage('SecondFactorRequired', undefined, undefined, this.words)),
        form, passkey, startOver)
      this.render()
      field.input.focus()
      // Offers what this sign-in takes beyond a typed code; without an answer, the code field stays alone.
      Promise.resolve().then(() => need(this.client, 'mfa', 'latchkey-signin').methods()).then(({ methods, trustDevices }) => {
        passkey.hidden = !(methods.includes('passkey') && maybe(this.client, 'passkey') && hasWebAuthn(this.client))
        trustLabel.hidden = !trustDevices
        if (trustDevices) trustLabel.lastChild!.textContent = this.t('trustDevice', { time: forHowLong(trustDevices, this.words.lang) })
      }, () => {})
    }
    private async verify(proof: MfaProof, trustDevice: boolean) {
      const result = await need(this.client, 'mfa', 'latchkey-signin').verify({ ...proof, trustDevice, callbackUrl: this.callbackUrl })
      if (this.hasAttribute('redirect')) location.href = result.url
      return result
    }
    private startOver() {
      this.open()
      this.body?.querySelector('input')?.focus()
    }
    /** Waits for the user to pick a passkey from the autofill; quietly ends where there is none. */
    private autofill(p: AppProvider, callbackUrl: string, redirect: boolean) {
      if (this.waiting || this.client.status === 'authenticated' || this.confirming) return
      const asked = this.client.signIn(p.id, { conditional: true, callbackUrl, redirect })
      const handled = asked.then(
        (result) => (result?.error ? this.showError(result.error) : result?.ok && triedWith(p.id)),
        // The autofill runs in the background: one that gives way, is not offered, or times out
        // unused (the browser says not-allowed) is no error to show.
        (e: { code?: string }) => !quietAutofill.has(e?.code ?? '') && this.failed(e),
      )
      // Under way for `settled` once the browser answered: until then it waits on the person.
      const answered = () => void this.track(handled)
      asked.then(answered, answered)
      this.waiting = handled.finally(() => (this.waiting = undefined))
    }
    private outlet = h('slot')
    protected render() {
      const status = this.client.status
      const signedIn = status === 'authenticated'
      if (this.seen && this.seen !== status && status !== 'loading' && !this.confirming) {
        // A sign-in or sign-out: nothing from before is left for the next person to see. The
        // page's first reading of the session is neither, and keeps an `?error=` it came with.
        // The second factor's step ends too: its sign-in went through, or another one did.
        this.clear()
        this.forgetPasswords()
        this.step = undefined
        // Signed out in this tab, the focus left nowhere comes to the first field.
        if (!signedIn) refocus(() => this.body?.querySelector('input'))
      }
      // A session appeared: the provider this tab tried last becomes "Last used".
      if (signedIn && lastUsed(true)) this.markLastUsed()
      if (status !== 'loading') this.seen = status
      // Confirming is for the signed-in user: that form shows while signed in, and not otherwise.
      const shown = this.confirming ? signedIn : !signedIn
      const step = shown ? this.step : undefined
      if (this.body) this.body.hidden = !shown || !!step
      this.outlet.name = signedIn ? 'signed-in' : 'signed-out'
      // Signed in, an error still shown stands on its own, above the hidden forms.
      const alone = !this.body || (signedIn && !this.confirming && !this.error.hidden)
      this.paint(alone ? this.error : undefined, step, this.body, this.outlet)
    }
  }
}
