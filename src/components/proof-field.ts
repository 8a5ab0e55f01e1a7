import type { MfaCode } from '../client/index.js'
import { h } from './dom.js'
import type { Key } from './words.js'

/**
 * The field a second factor is typed into: a code from the authenticator app (a browser may offer
 * it, `one-time-code`; digits on a phone's keypad), or, after "Use a recovery code instead", one
 * of the recovery codes. `proof()` is what was typed, named for the server; `t` says things in the element's language.
 */
export function proofField(t: (key: Key) => string): { label: HTMLLabelElement; input: HTMLInputElement; toggle: HTMLButtonElement; proof(): MfaCode } {
  const input = h('input', { name: 'code', required: true, part: 'input code-input', autocomplete: 'one-time-code', inputmode: 'numeric', autocapitalize: 'off' })
  const words = document.createTextNode(t('appCode'))
  let recovery = false
  const toggle: HTMLButtonElement = h('button', {
    type: 'button', part: 'button switch',
    onclick: () => {
      recovery = !recovery
      words.data = t(recovery ? 'recoveryCode' : 'appCode')
      toggle.textContent = t(recovery ? 'useAppCode' : 'useRecoveryCode')
      input.name = recovery ? 'recoveryCode' : 'code'
      input.autocomplete = recovery ? 'off' : 'one-time-code'
      input.inputMode = recovery ? 'text' : 'numeric'
      input.value = ''
      input.focus()
    },
  }, t('useRecoveryCode'))
  return {
    label: h('label', { part: 'label' }, words, input),
    input,
    toggle,
    proof: () => (recovery ? { recoveryCode: input.value } : { code: input.value }),
  }
}
