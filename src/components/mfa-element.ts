import type { AuthClient, MfaCode, MfaEnrolment, MfaFactor, MfaState, TrustedDevice } from '../client/index.js'
import { when } from './dates.js'
import { h, isolate } from './dom.js'
import { ListElement } from './list-element.js'
import { proofField } from './proof-field.js'
import { need } from './plugins.js'

/** The key as an app's "enter a key" screen takes it: groups of four, easier to copy by eye. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret

/**
 * `<latchkey-mfa>`: the signed-in user's second factors. The authenticator apps set up (each with
 * a Remove button that asks for a code from it or a recovery code), "Set up an authenticator app"
 * (a QR code, the key in groups of four, an `otpauth://` link, and the first code to confirm it),
 * the recovery codes when they are new (after the first app, and "New recovery codes", which asks
 * for a code as Remove does; shown this once, with Copy and Download), and how many are left; the browsers trusted to skip the second
 * step, each with Forget. Setting up, removing and new codes need a
 * recent sign-in: the element then asks for one (fresh.ts). Empty when signed out; recovery codes
 * on screen go with the sign-out.
 */
export function mfaElement(client: AuthClient): CustomElementConstructor {
  return class LatchkeyMfa extends ListElement<MfaFactor> {
    private left = 0
    private devices: TrustedDevice[] = []
    /** What is open below the list (the set-up, a removal, new codes): kept while open, so its field keeps what is typed. */
    private panel?: HTMLElement
    /** Frees what the open panel holds (the download's Blob URL). */
    private release?: () => void
    /** Whether what the open panel acts on is still there (the factor it removes), after a re-read. */
    private valid?: () => boolean
    private count = h('p', { part: 'count', class: 'message' })
    private setUp: HTMLButtonElement = h('button', { type: 'button', part: 'button enroll', onclick: () => this.run(this.setUp, async () => this.open(this.enrolment(await this.mfa.enroll())), this.t('whySetUpApp')) })
    private renew: HTMLButtonElement = h('button', { type: 'button', part: 'button renew', onclick: () => this.openForm(this.renewal(), () => this.list.some((f) => f.confirmed)) })
    constructor() {
      super(client)
    }
    private get mfa() {
      return need(this.client, 'mfa', 'latchkey-mfa')
    }
    protected async read() {
      return this.apply(await this.mfa.list())
    }
    /** Another user's recovery codes, or the same user's from before a sign-out the element missed, never stay. */
    protected override forget() {
      this.open(undefined)
    }
    protected override reread() {
      if (this.valid && !this.valid()) this.open(undefined)
    }
    /** Takes in the server's answer: the codes left, and new codes to show; answers the factors. */
    private apply(state: MfaState): MfaFactor[] {
      this.left = state.recoveryCodes
      this.devices = state.trustedDevices ?? []
      if (state.newRecoveryCodes) this.showCodes(state.newRecoveryCodes)
      return state.factors
    }
    private open(panel: HTMLElement | undefined, valid?: () => boolean) {
      this.release?.()
      this.release = undefined
      this.panel = panel
      this.valid = valid
      this.failedForm = undefined
    }
    /**
     * Runs a button's action (`why`: what it does, should it need a recent sign-in; `form`: the
     * form it submits, whose field an error is about); then the focus goes to what it opened (a
     * field, else the panel's words), or back to "Set up".
     */
    private async run(button: HTMLButtonElement, action: () => Promise<unknown>, why?: string, form?: HTMLFormElement) {
      this.failedForm = form
      if (await this.act(button, action, why)) this.focusOpen()
    }
    private close() {
      this.open(undefined)
      this.error.hidden = true
      this.render()
      this.focusOpen()
    }
    private focusOpen() {
      ;(this.panel?.querySelector<HTMLElement>('input, [tabindex="-1"]') ?? this.setUp).focus()
    }
    private enrolment(made: MfaEnrolment): HTMLElement {
      const input = h('input', { name: 'code', required: true, part: 'input code-input', autocomplete: 'one-time-code', inputmode: 'numeric', autocapitalize: 'off' })
      const confirm = h('button', { type: 'submit', part: 'button submit primary' }, this.t('confirm'))
      const form: HTMLFormElement = h('form', {
        part: 'form enroll-form', 'aria-label': this.t('setUpApp'),
        onsubmit: (e: Event) => {
          e.preventDefault()
          void this.run(confirm, async () => {
            const state = await this.mfa.confirm(made.factor.id, input.value)
            this.open(undefined)
            return this.apply(state)
          }, this.t('whySetUpApp'), form)
        },
      },
        h('p', { class: 'message', part: 'message' }, this.t('scanQr')),
        // An image, never markup: the SVG cannot run anything here.
        h('img', { class: 'qr', part: 'qr', alt: this.t('qrAlt'), src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(made.qr)}` }),
        h('p', { class: 'message', part: 'secret' }, this.t('key'), ' ', h('code', {}, grouped(made.secret))),
        h('a', { part: 'link', href: made.uri }, this.t('openInApp')),
        h('label', { part: 'label' }, this.t('appCode'), input),
        confirm,
        h('button', { type: 'button', part: 'button cancel', onclick: () => this.close() }, this.t('cancel')),
      )
      return form
    }
    private removal(factor: MfaFactor): HTMLElement {
      const label = this.t('removeName', { name: this.name(factor) })
      return this.proofForm('remove-form', label, this.t('removeIntro', { name: this.name(factor) }), this.t('remove'), this.t('whyRemoveApp'), (proof) => this.mfa.remove(factor.id, proof))
    }
    /** New recovery codes void the old ones: like a removal, they take a second factor, not only a fresh session. */
    private renewal(): HTMLElement {
      return this.proofForm('renew-form', this.t('newRecoveryCodes'), this.t('renewIntro'), this.t('newRecoveryCodes'), this.t('whyRenewCodes'), (proof) => this.mfa.recoveryCodes(proof))
    }
    /** A form that asks for a second factor (the app's code, or a recovery code) before `action`. */
    private proofForm(part: string, label: string, intro: string, submit: string, why: string, action: (proof: MfaCode) => Promise<MfaState>): HTMLElement {
      const field = proofField(this.t)
      const button = h('button', { type: 'submit', part: 'button submit primary' }, submit)
      const form: HTMLFormElement = h('form', {
        part: `form ${part}`, 'aria-label': label,
        onsubmit: (e: Event) => {
          e.preventDefault()
          void this.run(button, async () => {
            const state = await action(field.proof())
            this.open(undefined)
            return this.apply(state)
          }, why, form)
        },
      },
        h('p', { class: 'message', part: 'message' }, intro),
        field.label, button, field.toggle,
        h('button', { type: 'button', part: 'button cancel', onclick: () => this.close() }, this.t('cancel')),
      )
      return form
    }
    /** Opens `panel` below the list, its field focused; `valid`: whether what it acts on is still there. */
    private openForm(panel: HTMLElement, valid?: () => boolean) {
      this.open(panel, valid)
      this.error.hidden = true
      this.render()
      this.focusOpen()
    }
    /** New recovery codes, shown this once: a list, Copy, and Download as a text file. */
    private showCodes(codes: string[]) {
      const text = `${this.t('recoveryFile', { host: location.host })}\n\n${codes.join('\n')}\n`
      const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }))
      const said = h('span', { part: 'message', role: 'status' })
      const copy = h('button', {
        type: 'button', part: 'button copy',
        onclick: () => navigator.clipboard.writeText(text).then(
          () => (said.textContent = this.t('copied')),
          () => (said.textContent = this.t('copyFailed')),
        ),
      }, this.t('copy'))
      this.open(h('section', { class: 'stack', part: 'recovery-codes', 'aria-label': this.t('recoveryCodes') },
        h('p', { class: 'message', part: 'heading', tabindex: '-1' }, this.t('recoveryIntro')),
        h('ol', { class: 'codes', part: 'codes' }, ...codes.map((c) => h('li', { part: 'code' }, h('code', {}, c)))),
        h('div', { class: 'row', part: 'actions' }, copy, h('a', { part: 'button download', href: url, download: 'recovery-codes.txt' }, this.t('download')), said),
        h('button', { type: 'button', part: 'button done', onclick: () => this.close() }, this.t('done')),
      ))
      this.release = () => URL.revokeObjectURL(url)
    }
    /** The trusted devices, each with Forget (it asks for the second step again there); nothing where there are none. */
    private trusted(): HTMLElement[] {
      if (!this.devices.length) return []
            const rows = this.devices.map((d) => {
        const forget: HTMLButtonElement = h('button', {
          type: 'button', part: 'button forget', 'aria-label': this.t('forgetName', { name: this.deviceName(d) }),
          onclick: () => void this.run(forget, async () => this.apply(await this.mfa.forgetDevice(d.id))),
        }, this.t('forget'))
        return h('li', { part: 'device', 'data-id': d.id }, h('span', { part: 'name' }, this.deviceName(d)), h('span', { part: 'when' }, this.t('trustedUntil', { date: when(this.words.lang, d.expiresAt) })), forget)
      })
      return [h('section', { part: 'trusted-devices', 'aria-label': this.t('trustedDevices') },
        h('p', { class: 'message', part: 'message' }, this.t('trustedIntro')),
        h('ul', { part: 'list', class: 'devices' }, ...rows))]
    }
    /** "Chrome on Linux (this device)". */
    private deviceName = (d: TrustedDevice) => (d.current ? this.t('thisDevice', { device: isolate(d.device) }) : d.device)
    /** "Authenticator app", and its label where it has one. */
    private name = (f: MfaFactor) => (f.label ? this.t('authenticatorAppNamed', { label: f.label }) : this.t('authenticatorApp'))
    protected show() {
      const factors = this.list.filter((f) => f.confirmed)
            const rows = factors.map((f) => {
        const remove: HTMLButtonElement = h('button', {
          type: 'button', part: 'button remove', 'aria-label': this.t('removeName', { name: this.name(f) }),
          onclick: () => this.openForm(this.removal(f), () => this.list.some((x) => x.id === f.id && x.confirmed)),
        }, this.t('remove'))
        return h('li', { part: 'factor', 'data-id': f.id },
          h('span', { part: 'name' }, this.name(f)),
          h('span', { part: 'when' }, this.t('added', { date: when(this.words.lang, f.createdAt) })),
          remove,
        )
      })
      this.count.textContent = this.t('codesLeft', { count: this.left })
      this.setUp.textContent = this.t('setUpApp')
      this.renew.textContent = this.t('newRecoveryCodes')
      this.count.hidden = !factors.length
      this.renew.hidden = !factors.length
      const open = this.panel ? [this.panel] : []
      return [h('ul', { part: 'list', class: 'factors' }, ...rows), this.count, this.setUp, this.renew, ...this.trusted(), ...open]
    }
  }
}
