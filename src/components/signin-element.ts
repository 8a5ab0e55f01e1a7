import type { AppProvider, AuthClient, AuthStatus, SignInResult, WayIn, WayInIdentifier, WayInOffer } from '../client/index.js'
import { LatchkeyElement } from './base-element.js'
import { h, refocus } from './dom.js'
import { lastUsed, triedWith } from './last-used.js'
import { errorMessage } from './messages.js'
import type { SignInHost, SignInPlace, SignInRenderer } from './sign-in-host.js'
import type { Key } from './words.js'
import { fill } from '../core/locale.js'
import { underWay } from '../client/under-way.js'
import { maybe } from './plugins.js'
import { fit, identifierField, shapeOf, type Shape } from './identifier.js'
import { drawn, own, type OwnHost } from './own-ways.js'

/**
 * How a way in is drawn (a plugin's renderer, or the element's own of that name), what it signs
 * in with (none: a button of the first step), and its rank among the ways that fit.
 */
interface Drawing {
  name: string
  draw: SignInRenderer | ((host: OwnHost, p: AppProvider) => HTMLElement | null)
  messages?: WayIn['messages']
  offers?: WayIn['offers']
  offersAgainOn?: WayIn['offersAgainOn']
  takes?: WayInIdentifier
  rank: number
}
/** The element's drawing of a provider no plugin draws, by its kind (a table, so no kind is tested here). */
const byKind: Record<string, string> = { email: 'email', credentials: 'credentials', webauthn: 'passkey' }
/** Renderers the element ships but loads only where a page needs them: the password forms, a plugin's form. */
const lazyRenderers: Record<string, () => Promise<Drawing['draw']>> = {
  password: async () => (await import('./password-forms.js')).passwordForm,
  code: async () => (await import('./plugin-form.js')).pluginForm,
  sso: async () => (await import('./sso-way.js')).ssoWay,
}

const quietAutofill = new Set(['PasskeyCancelled', 'PasskeyUnsupported', 'PasskeyNotAllowed'])
/** The `?error=` codes about a way the identifier starts (a used link, a refused password): said under its field. */
const aboutIdentifier = new Set(['CredentialsSignin', 'EmailNotVerified', 'Verification', 'EmailSignin'])

/** WebAuthn here (WebKitGTK has none): the passkey client's own check, else the global it needs. */
const hasWebAuthn = (client: AuthClient) => maybe(client, 'passkey')?.supported() ?? typeof globalThis.PublicKeyCredential === 'function'

/** Whether a node shows (is laid out): hidden fields and those of a hidden step do not. */
const shows = (el: Element) => el.getClientRects().length > 0

/**
 * `<latchkey-signin>`, identifier first. The first step: a button per way in that takes no
 * identifier (OAuth/OIDC: "Sign in with {name}", brand colour, the provider's logo or a letter
 * mark), an "or", and one field for what the other ways sign in with (an email address, a phone
 * number, a username: its label says which), with passkeys offered in its autofill, and one
 * primary Continue. Continue asks the server nothing (but a way's `offers`: sso's discovery, by
 * the domain alone): the next step offers the ways that fit the shape of what was typed (a phone
 * number goes the phone way), the configuration's alone, the same for an address with an account
 * and one without. That step shows the identifier, the
 * first-ranked way whole (its form, the one primary action), the others as quiet choices, and
 * Back. A way's flows of its own (the password plugin's sign-up and reset) are links at the foot
 * of both steps. Every way is drawn by what the client's plugins bring (`client.waysIn`), else by
 * the element's own drawing for its kind (own-ways.ts).
 * An error shows under what it is about: a form's fields (which name it in `aria-describedby`),
 * else at the top of the step. One error at a time: a `latchkey-error` from elsewhere on the page
 * replaces this one. Hidden while signed in; a sign-in or sign-out clears the error, the message,
 * the password and the steps. An `?error=` the page opened with shows even while signed in.
 * A sign-in that answers `SecondFactorRequired` (or a page opened with it) goes on in one step in
 * place of the others: the code from the authenticator app or a recovery code, then the session;
 * "Start over" goes back a step.
 * Attributes: `callback-url`, `credentials-fields`, `redirect`, `passkey-upgrade`, and `confirm`:
 * "confirm it's you", shown only while signed in, signing the same user in again (a fresh session)
 * and firing `latchkey-confirmed`; a sign-in as anyone else is refused and changes nothing.
 */
export function signInElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeySignIn extends LatchkeyElement {
    /** The first step. */
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
    /** The providers the steps are built from, kept to build them again in a new language. */
    private providers?: AppProvider[]
    /** The ways that take an identifier, in the server's order. */
    private ways: AppProvider[] = []
    /** The first step's field, and its label's words. */
    private input?: HTMLInputElement
    private label = ''
    /** The steps shown over the first: the ways offered for an identifier, and one more (a code, a sign-up, the second factor). */
    private steps: HTMLElement[] = []
    /** The ways step shown, for what it was drawn. */
    private offered?: { identifier: string; primary: string; step: HTMLElement }
    /** The ways' links to flows of their own, at the foot of the first step or of the ways offered. */
    private foot = h('div', { class: 'row', part: 'foot' })
    /** What the ways with `offers` answered for the last identifier Continue was pressed on, by provider id. */
    private answers?: { identifier: string; offers: Map<string, WayInOffer | null> }
    /** With a passkey provider and the passkey client, the identifier field offers passkeys in the autofill. */
    private passkeys = false
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
    /** The status line saying `words` (`mail`: followed by the `email-sent` slot), for the caller to place. */
    private say(words: string, mail = false): HTMLElement {
      this.sent.textContent = words
      this.mailSlot.hidden = !mail
      this.message.hidden = false
      return this.message
    }
    /** An error's words; `{label}` is the first step's field's. */
    private said(code: string, reason?: string) {
      return errorMessage(code, reason, this.lengths, this.words, { label: this.label })
    }
    private showError(code: string, reason?: string, near?: HTMLElement) {
      // Not a failure: the sign-in goes on with its second factor.
      if (code === 'SecondFactorRequired') return this.challenge()
      this.display(code, reason, near)
      const identifier = this.offered?.identifier
      const again = this.ways.filter((p) => this.drawings.get(p.id)!.offersAgainOn?.includes(code))
      if (identifier && again.length) this.track(this.offerAgain(identifier, again, code, reason)).catch(() => {})
    }
    /**
     * A way refused `identifier` with a code another way asks to hear (sso's `SsoRequired`): those
     * ways' `offers` are asked again, fresh; one that now offers itself is drawn as the step's
     * primary, the refusal's words at its top. Nothing offered: the words stay where they were.
     */
    private async offerAgain(identifier: string, ways: AppProvider[], code: string, reason?: string) {
      const answered = await Promise.all(ways.map(async (p) => [p.id, await this.drawings.get(p.id)!.offers!(this.client, identifier, { fresh: true }).catch(() => null)] as const))
      const found = answered.find(([, offer]) => offer)
      // Typed again, or gone back, meanwhile: the answer is for a step no longer shown.
      if (!found || this.offered?.identifier !== identifier || this.input?.value.trim() !== identifier) return
      const kept = this.answers?.identifier === identifier ? [...this.answers.offers] : []
      this.answers = { identifier, offers: new Map([...kept, ...answered]) }
      this.offer(identifier, found[0])
      this.display(code, reason)
    }
    private display(code: string, reason?: string, near?: HTMLElement) {
      this.error.textContent = this.said(code, reason)
      this.code = code
      this.reason = reason
      this.place(near)
      this.error.hidden = false
      this.dispatchEvent(new CustomEvent('latchkey-error', { detail: { code }, bubbles: true, composed: true }))
    }
    /** The step shown: the last one opened, else the first. */
    private get shown(): HTMLElement | undefined {
      return this.steps.at(-1) ?? this.body
    }
    /** Puts the error under a form's fields (before its button), after a button, or at the top of the step shown. */
    private place(near?: HTMLElement) {
      this.undescribe()
      const form = near?.closest('form')
      const top = this.shown
      const heading = top?.querySelector(':scope > [part~="heading"]')
      if (form) {
        form.querySelector('button[type=submit]')?.before(this.error)
        for (const input of form.querySelectorAll('input')) input.setAttribute('aria-describedby', this.error.id)
      } else if (near) near.after(this.error)
      else if (heading) heading.after(this.error)
      else top?.prepend(this.error)
    }
    private undescribe() {
      for (const root of [this.body, ...this.steps]) for (const input of root?.querySelectorAll('[aria-describedby]') ?? []) input.removeAttribute('aria-describedby')
    }
    /** Hides the error and the message: a new attempt, or a new step, makes them obsolete. */
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
    private run(button: HTMLButtonElement, action: () => Promise<SignInResult | undefined | unknown>): Promise<boolean> {
      return this.track(this.attempt(button, action))
    }
    private async attempt(button: HTMLButtonElement, action: () => Promise<SignInResult | undefined | unknown>): Promise<boolean> {
      this.clear()
      button.disabled = true
      try {
        const result = (await action()) as SignInResult | undefined
        if (result?.error) {
          this.showError(result.error, undefined, button)
          return false
        } else if (result?.ok && this.confirming) {
          this.forgetPasswords()
          this.dispatchEvent(new CustomEvent('latchkey-confirmed', { bubbles: true, composed: true }))
        }
        return true
      } catch (e) {
        this.failed(e, button)
        return false
      } finally {
        button.disabled = false
        // A disabled button loses the focus; where it still shows, it takes the focus back.
        refocus(() => (shows(button) ? button : undefined))
      }
    }
    /** A credentials sign-in stays on the page whatever `redirect` says (a second factor may follow here), and navigates once signed in. */
    private async credentials(p: AppProvider, fields: Record<string, string>) {
      const result = await this.client.signIn(p.id, { ...fields, callbackUrl: this.callbackUrl, redirect: false, ...this.confirm })
      if (result.ok && !this.confirming) this.upgrade()
      if (this.hasAttribute('redirect') && result.ok && result.url) location.href = result.url
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
    /**
     * The passkey button's ceremony: client.signIn runs the passkey plugin's and then refreshes the
     * session; it cancels the waiting autofill, which starts again once it ends. Without the
     * plugin, `latchkey-passkey` tells the page.
     */
    private passkey(p: AppProvider): Promise<unknown> {
      if (maybe(this.client, 'passkey')) return this.client.signIn(p.id, { callbackUrl: this.callbackUrl, redirect: this.hasAttribute('redirect'), ...this.confirm }).finally(() => this.autofill(p))
      this.dispatchEvent(new CustomEvent('latchkey-passkey', { detail: { provider: p }, bubbles: true, composed: true }))
      return Promise.resolve()
    }
    /** Shows `mode` over the ways offered (in place of another step), the focus in its first field; none: the first step. */
    private open(mode?: HTMLElement) {
      const ways = this.steps[0] === this.offered?.step ? this.steps.slice(0, 1) : []
      this.steps = mode ? [...ways, mode] : []
      this.clear()
      this.render()
      if (mode) (mode.querySelector<HTMLElement>('input:not([hidden])') ?? mode.querySelector<HTMLElement>('[part~="primary"]'))?.focus()
      else this.focusFirst()
    }
    /** Back a step: to the ways offered, or to the first step with the focus in its field. */
    private back() {
      this.steps.pop()
      this.clear()
      this.render()
      const top = this.steps.at(-1)
      if (top) this.focusWays(top)
      else this.focusFirst()
    }
    private focusFirst() {
      ;(this.input ?? this.body?.querySelector<HTMLElement>('input, button'))?.focus()
    }
    /** In the ways offered: the first field left to fill, else the primary action. */
    private focusWays(step: HTMLElement) {
      const fields = [...step.querySelectorAll('input')].filter(shows)
      ;(fields.find((input) => !input.value) ?? step.querySelector<HTMLElement>('[part~="primary"]') ?? fields[0])?.focus()
    }
    /** "Confirm it's you": every sign-in here must be the signed-in user's, and makes the session fresh. */
    private get confirming(): boolean {
      return this.hasAttribute('confirm')
    }
    private get confirm(): object {
      return this.confirming ? { confirm: true } : {}
    }
    /** Where a sign-in lands: `callback-url`, else this page without its `?error=`. */
    private get callbackUrl(): string {
      return this.getAttribute('callback-url') ?? location.href.replace(/[?&]error=[^&]*/, '')
    }
    private get credentialsFields(): string[] {
      return (this.getAttribute('credentials-fields') ?? 'username,password').split(',').map((s) => s.trim()).filter(Boolean)
    }
    private forgetPasswords() {
      for (const root of [this.body, ...this.steps]) for (const input of root?.querySelectorAll('input[type=password]') ?? []) (input as HTMLInputElement).value = ''
    }
    protected override relang() {
      if (this.code) this.error.textContent = this.said(this.code, this.reason)
      if (this.providers) this.build(this.providers)
      else this.update()
    }
    private build(all: AppProvider[]) {
      this.providers = all
      // A passkey button the browser cannot run would only fail when pressed.
      const isPasskey = (p: AppProvider) => this.drawings.get(p.id)?.name === 'passkey'
      const providers = hasWebAuthn(this.client) ? all : all.filter((p) => !isPasskey(p))
      const passkey = maybe(this.client, 'passkey') ? providers.find(isPasskey) : undefined
      this.passkeys = !!passkey
      const takes = (p: AppProvider) => this.drawings.get(p.id)?.takes
      this.ways = providers.filter(takes)
      const shapes = new Set(this.ways.map(takes).filter((t) => t !== 'any') as Shape[])
      this.signInButtons.clear()
      const buttons = providers.filter((p) => !takes(p)).map((p) => this.draw(p, 'button'))
      // With no way that takes an identifier, those that need none stand in the first step.
      const field = shapes.size ? [this.identifierForm(shapes)] : this.ways.map((p, i) => this.draw(p, i ? 'choice' : 'primary'))
      this.input = shapes.size ? field[0]!.querySelector('input')! : undefined
      const or = buttons.some(Boolean) && field.some(Boolean) ? [this.divider()] : []
      this.foot.replaceChildren(...this.ways.map((p) => this.draw(p, 'foot')).filter((n): n is HTMLElement => !!n))
      this.foot.hidden = !this.foot.childElementCount
      const heading = this.confirming ? [h('p', { class: 'message', part: 'heading' }, this.t('confirmHeading'))] : []
      this.body = h('div', { class: 'stack', part: 'container' }, ...heading, this.error, ...buttons, ...or, ...field)
      // Words a way said while drawing (an emailed link's notice) show at the top.
      if (!this.message.hidden && !this.steps.length) this.error.after(this.message)
      this.markLastUsed()
      // An error shown before the steps were there (the URL's) moves under the field, or to the top.
      if (!this.error.hidden) this.place(aboutIdentifier.has(this.code ?? '') ? this.input : undefined)
      // The ways offered, drawn again in the new language.
      const offered = this.offered
      if (offered && this.steps.length === 1 && this.steps[0] === offered.step) this.offer(offered.identifier, offered.primary, false)
      this.render()
      if (passkey) this.autofill(passkey)
    }
    private divider() {
      return h('p', { class: 'or', part: 'divider' }, h('span', {}, this.t('or')))
    }
    /** The first step's field (its label for the shapes the ways take) and Continue. */
    private identifierForm(shapes: Set<Shape>): HTMLFormElement {
      const field = identifierField(shapes)
      this.label = this.t(field.label)
      const input = h('input', {
        type: field.type, name: field.name, part: 'input identifier', autocapitalize: 'none', spellcheck: false,
        autocomplete: this.passkeys ? `${field.autocomplete} webauthn` : field.autocomplete,
        // Drawn again (a new language), it keeps what was typed.
        value: this.input?.value,
      })
      return h('form', {
        part: 'form identifier-form', 'aria-label': this.t('signIn'), novalidate: true,
        onsubmit: (e: Event) => {
          e.preventDefault()
          this.track(this.continue()).catch((error) => this.failed(error, this.input))
        },
      }, h('label', { part: 'label' }, this.label, input), h('button', { type: 'submit', part: 'button submit primary continue' }, this.t('continue')))
    }
    /**
     * The ways that fit what was typed: what it is first, then a name of its own, then none needed;
     * by rank, then the server's order. A way with `offers` is there only where it answered for
     * `identifier`, and first; one answered `alone` leaves no other.
     */
    private fitting(identifier: string): AppProvider[] {
      const shape = shapeOf(identifier)
      const answered = this.answers?.identifier === identifier ? this.answers.offers : undefined
      const offer = (p: AppProvider) => (this.drawings.get(p.id)!.offers ? answered?.get(p.id) ?? null : undefined)
      const order = (p: AppProvider) => [offer(p) ? 0 : 1, fit(this.drawings.get(p.id)!.takes!, shape), this.drawings.get(p.id)!.rank] as number[]
      const ways = this.ways
        .filter((p) => order(p)[1] !== undefined && offer(p) !== null)
        .sort((a, b) => order(a)[0]! - order(b)[0]! || order(a)[1]! - order(b)[1]! || order(a)[2]! - order(b)[2]!)
      const alone = ways.filter((p) => offer(p)?.alone)
      return alone.length ? alone : ways
    }
    /**
     * Continue: the ways that fit what was typed; none that takes it, the field says so. The only
     * request it may make is a way's `offers` (sso's discovery, by the address's domain alone, the
     * same answer for every address of it); without such a way, it asks the server nothing.
     */
    private async continue() {
      const value = this.input!.value.trim()
      const shaped = value ? this.ways.filter((p) => fit(this.drawings.get(p.id)!.takes!, shapeOf(value)) !== undefined) : []
      const asking = shaped.filter((p) => this.drawings.get(p.id)!.offers)
      if (asking.length) {
        this.clear()
        const answered = await Promise.all(asking.map(async (p) => [p.id, await this.drawings.get(p.id)!.offers!(this.client, value)] as const))
        // Typed again meanwhile: this answer is for another address.
        if (this.input!.value.trim() !== value) return
        this.answers = { identifier: value, offers: new Map(answered) }
      }
      const ways = value ? this.fitting(value) : []
      if (!ways.some((p) => this.drawings.get(p.id)!.takes !== 'any')) return this.showError('IdentifierInvalid', undefined, this.input)
      this.offer(value, ways[0]!.id)
    }
    /** The step after the identifier: the identifier, `primary` whole, the other ways that fit as choices, Back, the foot. */
    private offer(identifier: string, primary: string, focus = true) {
      // No field where no way takes an identifier: a choice of the first step chosen.
      if (this.input) this.input.value = identifier
      const ways = this.fitting(identifier)
      const first = ways.find((p) => p.id === primary) ?? ways[0]!
      const choices = ways.filter((p) => p !== first).map((p) => this.draw(p, 'choice')).filter((n): n is HTMLElement => !!n)
      const step = h('div', { class: 'stack', part: 'container ways-step' },
        identifier ? h('h2', { part: 'heading account' }, h('bdi', {}, identifier)) : null,
        this.draw(first, 'primary'),
        ...(choices.length ? [this.divider(), ...choices] : []),
        h('button', { type: 'button', part: 'button back link', onclick: () => this.back() }, this.t('back')))
      this.offered = { identifier, primary: first.id, step }
      this.steps = [step]
      this.markLastUsed()
      if (!focus) return
      this.clear()
      this.render()
      this.focusWays(step)
    }
    /** After a sign-up or a reset: the ways offered for `identifier`, `p` the primary, `words` at the top. */
    private resume(p: AppProvider, identifier: string, words?: string) {
      this.offer(identifier, p.id, false)
      this.clear()
      if (words) this.offered!.step.firstChild!.after(this.say(words))
      this.render()
      this.focusWays(this.offered!.step)
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
    private drawings = new Map<string, Drawing>()
    private async resolve(p: AppProvider) {
      const way = this.client.waysIn.find((w) => w.knows(p))
      const renderer = way?.renderer ?? (p.form && p.code ? 'code' : byKind[p.type] ?? 'button')
      const name = typeof renderer === 'string' ? renderer : 'plugin'
      const load = typeof renderer === 'function' ? (renderer as () => Promise<SignInRenderer>) : lazyRenderers[name]
      const known = drawn[name] ?? { rank: 1 }
      const draw = load ? await load() : own[name] ?? own.button!
      this.drawings.set(p.id, { name, draw, messages: way?.messages, offers: way?.offers, offersAgainOn: way?.offersAgainOn, takes: way?.identifier ?? known.takes?.(p, this.credentialsFields), rank: known.rank })
    }
    /** `p` drawn at `place`; its sign-in button remembered for the "Last used" badge. */
    private draw(p: AppProvider, place: SignInPlace): HTMLElement | null {
      const drawing = this.drawings.get(p.id)!
      const item = (drawing.draw as (host: OwnHost, p: AppProvider) => HTMLElement | null)(this.host(p, place, drawing), p)
      const button = item instanceof HTMLButtonElement ? item : item?.querySelector<HTMLButtonElement>('button[type=submit]')
      if (button && place !== 'foot') this.signInButtons.set(p.id, button)
      return item
    }
    /** What a renderer uses of this element (sign-in-host.ts), with the element's own means for its own drawings. */
    private host(p: AppProvider, place: SignInPlace, { messages: own, takes, offers }: Drawing): OwnHost {
      if (p.password) this.lengths = p.password
      const element = this
      return {
        client: this.client, confirming: this.confirming, place, callbackUrl: this.callbackUrl, redirect: this.hasAttribute('redirect'),
        username: place === 'button' && this.passkeys ? 'username webauthn' : 'username',
        label: this.t('signInWith', { name: p.name }),
        get identifier() {
          return element.input?.value.trim() ?? ''
        },
        get offered() {
          const answers = element.answers
          return offers && answers && answers.identifier === element.input?.value.trim() ? answers.offers.get(p.id)?.detail : undefined
        },
        run: (button, action) => this.run(button, action),
        signIn: (fields) => (triedWith(p.id), this.credentials(p, fields)),
        open: (mode) => this.open(mode),
        back: () => this.back(),
        choose: () => this.offer(element.input?.value.trim() ?? '', p.id),
        resume: (identifier, words) => this.resume(p, identifier, words),
        say: (words, mail) => this.say(words, mail),
        refuse: (code, near) => this.showError(code, undefined, near),
        t: (key, values) => {
          const lang = this.words.lang
          const text = own?.[lang]?.[key] ?? own?.en[key]
          return text === undefined ? this.t(key as Key, values) : fill(lang, text, values)
        },
        fields: this.credentialsFields, named: takes !== 'any', confirm: this.confirm,
        sent: (words, mail, form) => {
          const step = h('div', { class: 'stack', part: 'container code-step' }, ...(form ? [form] : []), h('button', { type: 'button', part: 'button back link', onclick: () => this.back() }, this.t('back')))
          this.open(step)
          step.prepend(this.say(words, mail))
        },
        passkey: (provider) => this.passkey(provider),
      }
    }
    /** The sign-in's second factor (second-step.ts, loaded the first time one is asked), in place of the steps. */
    private challenge() {
      this.forgetPasswords()
      this.track(import('./second-step.js').then(({ secondStep }) => {
        const { client, words, t } = this
        const element = this
        this.open(secondStep({
          client, words, t, passkeys: !!maybe(client, 'passkey') && hasWebAuthn(client),
          get callbackUrl() {
            return element.callbackUrl
          },
          get redirect() {
            return element.hasAttribute('redirect')
          },
          run: (button, action) => this.run(button, action),
          back: () => this.back(),
        }))
      })).catch((e) => this.failed(e))
    }
    /** Waits for the user to pick a passkey from the autofill; quietly ends where there is none. */
    private autofill(p: AppProvider) {
      if (this.waiting || this.client.status === 'authenticated' || this.confirming) return
      const asked = this.client.signIn(p.id, { conditional: true, callbackUrl: this.callbackUrl, redirect: this.hasAttribute('redirect') })
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
        // The steps end too: the sign-in went through, or another one did.
        this.clear()
        this.forgetPasswords()
        this.steps = []
        this.offered = undefined
        // Signed out in this tab, the focus left nowhere comes to the first field.
        if (!signedIn) refocus(() => this.input ?? this.body?.querySelector('input'))
      }
      // A session appeared: the provider this tab tried last becomes "Last used".
      if (signedIn && lastUsed(true)) this.markLastUsed()
      if (status !== 'loading') this.seen = status
      // Confirming is for the signed-in user: that form shows while signed in, and not otherwise.
      const shown = this.confirming ? signedIn : !signedIn
      const step = shown ? this.steps.at(-1) : undefined
      if (this.body) this.body.hidden = !shown || !!step
      // The foot stands at the end of the first step, or of the ways offered.
      const footAt = step ? (step === this.offered?.step ? step : undefined) : this.body
      if (footAt && this.foot.parentNode !== footAt) footAt.append(this.foot)
      this.outlet.name = signedIn ? 'signed-in' : 'signed-out'
      // Signed in, an error still shown stands on its own, above the hidden steps.
      const alone = !this.body || (signedIn && !this.confirming && !this.error.hidden)
      this.paint(alone ? this.error : undefined, this.body, step, this.outlet)
    }
  }
}
