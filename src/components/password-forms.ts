import type { AppProvider } from '../client/index.js'
import type { SignInHost } from './sign-in-host.js'
import { h } from './dom.js'
import type { Key } from './words.js'
import { need } from './plugins.js'

function field(words: string, props: Record<string, unknown>, ...after: Node[]): [HTMLLabelElement, HTMLInputElement] {
  const input = h('input', { required: true, part: 'input', ...props })
  return [h('label', { part: 'label' }, words, input, ...after), input]
}

function form(part: string, words: string, submitWords: string, fields: Node[], submitted: (submit: HTMLButtonElement) => void): HTMLFormElement {
  const submit = h('button', { type: 'submit', part: 'button submit primary' }, submitWords)
  return h('form', {
    part: `form ${part}`, 'aria-label': words,
    onsubmit: (e: Event) => {
      e.preventDefault()
      submitted(submit)
    },
  }, ...fields, submit)
}

/** What the emailed links' pages (server: features/password/pages.ts) send back to the sign-in page, `?notice=`. */
const notices: Record<string, Key> = { 'email-verified': 'addressConfirmed', 'password-reset': 'passwordChanged' }

/**
 * A `Password()` provider's way in. In the step after the identifier: the Password field
 * (`current-password`, the address carried for the password manager as `username`) and "Sign in"
 * as the primary, or "Use your password" among the choices. At the foot of the steps: "Create an
 * account" and "Forgot password?", which open their steps in place of the others, a new password's
 * rule shown before it is sent. A sign-in refused with `EmailNotVerified`, and a sign-up, go on to
 * the code from the confirmation email; a confirmed address and a reset end at the password step
 * for that address. An emailed link's page comes back here with `?notice=`, said in words.
 */
export function passwordForm(host: SignInHost, p: AppProvider): HTMLElement | null {
  const { client, t, label } = host
  const button = (part: string, words: string, onclick: () => void) => h('button', { type: 'button', part: `button ${part}`, onclick }, words)
  const codeField = () => field(t('codeFromEmail'), { name: 'code', part: 'input code-input', autocomplete: 'one-time-code', inputmode: 'numeric', autocapitalize: 'off' })
  /** A step's address field, starting with the address typed into the first step. */
  const emailField = () => field(t('email'), { type: 'email', name: 'email', autocomplete: 'username', value: /@/.test(host.identifier) ? host.identifier : '' })
  // No maxlength: a longer password pasted in would be cut short unseen (and kept whole by a
  // password manager); the server refuses it in words instead. The rule shows before it is sent.
  const newPassword = (words: string) => {
    const rule = p.password && h('span', { class: 'hint', part: 'hint' }, t('useAtLeast', { count: p.password.minLength }))
    return field(words, { type: 'password', name: 'password', autocomplete: 'new-password', minlength: p.password?.minLength }, ...(rule ? [rule] : []))
  }

  /** A step in place of the others: a heading, its nodes, "Back to sign in". */
  const mode = (part: string, heading: string, ...nodes: Node[]) =>
    h('div', { class: 'stack', part: `container ${part}-step` }, h('h2', { part: 'heading' }, heading), ...nodes, button('back link', t('backToSignIn'), host.back))

  /** The code from the confirmation email, and "Send the email again"; `intro` puts words under the heading; `done` once confirmed. */
  const verify = (address: string, intro: (heading: HTMLElement) => void, done = () => host.resume(address, t('addressConfirmed'))) => {
    const [codeLabel, code] = codeField()
    const resend: HTMLButtonElement = button('resend link', t('sendAgain'), () =>
      host.run(resend, async () => {
        await need(client, 'password', 'latchkey-signin').resend(address)
        resend.after(host.say(t('sentAgain', { email: address }), true))
      }))
    const verifyForm = form('verify-form', t('confirmEmail'), t('confirm'), [codeLabel], (submit) =>
      host.run(submit, async () => {
        await need(client, 'password', 'latchkey-signin').verify({ email: address, code: code.value })
        done()
      }))
    const step = mode('verify', t('confirmEmail'), verifyForm, resend)
    host.open(step)
    intro(step.firstChild as HTMLElement)
  }

  function signUp() {
    const [addressLabel, address] = emailField()
    const [nameLabel, name] = field(t('name'), { name: 'name', autocomplete: 'name', required: false })
    const [chosenLabel, chosen] = newPassword(t('password'))
    host.open(mode('signup', t('createAccount'), form('signup-form', t('createAccount'), t('createAccountButton'), [addressLabel, nameLabel, chosenLabel], (submit) =>
      host.run(submit, async () => {
        await need(client, 'password', 'latchkey-signin').signUp({ email: address.value, password: chosen.value, name: name.value || undefined })
        verify(address.value, (heading) => heading.after(host.say(t('signUpSent'), true)))
      }))))
  }

  function forgot() {
    const [addressLabel, address] = emailField()
    const [codeLabel, code] = codeField()
    const [chosenLabel, chosen] = newPassword(t('newPassword'))
    // The account the new password is for, so a password manager saves it under that name.
    const account = h('input', { type: 'email', name: 'email', autocomplete: 'username', hidden: true })
    const resetForm = form('reset-form', t('choosePassword'), t('changePassword'), [account, codeLabel, chosenLabel], (submit) =>
      host.run(submit, async () => {
        await need(client, 'password', 'latchkey-signin').reset({ email: account.value, code: code.value, password: chosen.value })
        host.resume(account.value, t('passwordChanged'))
      }))
    resetForm.hidden = true
    const forgotForm = form('forgot-form', t('resetPassword'), t('sendReset'), [addressLabel], (submit) =>
      host.run(submit, async () => {
        await need(client, 'password', 'latchkey-signin').forgot(address.value)
        account.value = address.value
        forgotForm.after(host.say(t('resetSent', { email: address.value }), true))
        resetForm.hidden = false
        code.focus()
      }))
    host.open(mode('forgot', t('resetPassword'), forgotForm, resetForm))
  }

  if (host.place === 'choice') return button('choice', t('usePassword'), host.choose)
  if (host.place === 'foot') {
    const notice = notices[new URLSearchParams(location.search).get('notice') ?? '']
    if (notice) host.say(t(notice))
    return host.confirming ? null : h('div', { class: 'row', part: 'links' }, button('forgot link', t('forgotPassword'), forgot), button('signup link', t('createAccount'), signUp))
  }
  // The address, for the password manager to save the password under.
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', value: host.identifier, hidden: true, part: 'input' })
  const [passwordLabel, password] = field(t('password'), { type: 'password', name: 'password', autocomplete: 'current-password' })
  const signInForm: HTMLFormElement = form('password-form', label, t('signIn'), [email, passwordLabel], (submit) =>
    host.run(submit, async () => {
      const result = await host.signIn({ email: email.value, password: password.value })
      if (result.error !== 'EmailNotVerified') return result
      // Confirmed, back at this form: the password typed is still there, so its button takes the focus.
      verify(email.value, (heading) => host.refuse('EmailNotVerified', heading), () => {
        host.back()
        signInForm.prepend(host.say(t('addressConfirmed')))
        ;(password.value ? submit : password).focus()
      })
    }))
  return signInForm
}
