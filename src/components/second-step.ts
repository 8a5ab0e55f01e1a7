/**
 * `<latchkey-signin>`'s second factor, loaded when a sign-in first asks for one: "Two-step
 * verification" in place of the other steps, the focus in its field. The session follows
 * `client.mfa.verify`; with `redirect`, the page goes where the sign-in lands. What the server
 * says this sign-in takes (`client.mfa.methods()`) adds a passkey button (with the passkey client,
 * where the browser has WebAuthn) and "Don't ask again on this device". "Start over" goes back a
 * step (the server voids a pending sign-in after five wrong codes, or after five minutes).
 */
import type { AuthClient, MfaProof } from '../client/index.js'
import { forHowLong } from '../core/for-how-long.js'
import { h } from './dom.js'
import { errorMessage } from './messages.js'
import { need } from './plugins.js'
import { proofField } from './proof-field.js'
import type { Key, Words } from './words.js'

/** What the second step uses of the element. */
export interface SecondStepHost {
  client: AuthClient
  words: Words
  t(key: Key, values?: Record<string, unknown>): string
  /** Read at the time of each try: the page may set `callback-url` or `redirect` while the step shows. */
  readonly callbackUrl: string
  readonly redirect: boolean
  /** The passkey plugin is there, and the browser has WebAuthn. */
  passkeys: boolean
  run(button: HTMLButtonElement, action: () => Promise<unknown>): Promise<boolean>
  back(): void
}

/** Tries the server gives one pending sign-in (features/mfa/verify.ts). */
const maxTries = 5

export function secondStep(host: SecondStepHost): HTMLElement {
  const { client, words, t, passkeys, run, back } = host
  const verify = async (proof: MfaProof, trustDevice: boolean) => {
    const result = await need(client, 'mfa', 'latchkey-signin').verify({ ...proof, trustDevice, callbackUrl: host.callbackUrl })
    if (host.redirect) location.href = result.url
    return result
  }
  const field = proofField(t)
  const submit = h('button', { type: 'submit', part: 'button submit primary' }, t('verify'))
  const trust = h('input', { type: 'checkbox', part: 'checkbox trust-device' })
  const trustLabel = h('label', { part: 'label trust', hidden: true }, trust, h('span', {}))
  const passkey: HTMLButtonElement = h('button', {
    type: 'button', part: 'button passkey', hidden: true,
    onclick: () => run(passkey, () => verify({ passkey: true }, trust.checked)),
  }, t('usePasskey'))
  // The server takes five tries and then answers every one alike: after the fifth, say so here.
  let tries = 0
  const form = h('form', {
    part: 'form mfa-form', 'aria-label': t('twoStep'),
    onsubmit: (e: Event) => {
      e.preventDefault()
      run(submit, async () => {
        try {
          return await verify(field.proof(), trust.checked)
        } catch (error) {
          if (++tries < maxTries || (error as { code?: string }).code !== 'InvalidCode') throw error
          field.input.disabled = submit.hidden = true
          // A code of this element's own (the components import no client code): what the element shows.
          throw Object.assign(new Error('Five wrong codes: this sign-in takes no more; start over'), { code: 'SecondFactorLocked' })
        }
      })
    },
  }, field.label, trustLabel, submit, field.toggle)
  // Offers what this sign-in takes beyond a typed code; without an answer, the code field stays alone.
  Promise.resolve().then(() => need(client, 'mfa', 'latchkey-signin').methods()).then(({ methods, trustDevices }) => {
    passkey.hidden = !(methods.includes('passkey') && passkeys)
    trustLabel.hidden = !trustDevices
    if (trustDevices) trustLabel.lastChild!.textContent = t('trustDevice', { time: forHowLong(trustDevices, words.lang) })
  }, () => {})
  return h('div', { class: 'stack', part: 'container mfa-step' },
    h('h2', { part: 'heading' }, t('twoStep')),
    h('p', { class: 'message', part: 'message' }, errorMessage('SecondFactorRequired', undefined, undefined, words)),
    form, passkey,
    h('button', { type: 'button', part: 'button start-over link', onclick: back }, t('startOver')))
}
