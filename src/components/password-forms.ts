import type { AppProvider } from '../client/index.js'
import type { SignInHost } from './sign-in-host.js'
import { h } from './dom.js'
import type { Key } from './words.js'
import { need } from './plugins.js'

function field(words: string, props: Record<string, unknown>): [HTMLLabelElement, HTMLInputElement] {
  const input = h('input', { required: true, part: 'input', ...props })
  return [h('label', { part: 'label' }, words, input), input]
}

function form(part: string, words: string, submitWords: string, fields: Node[], submitted: (submit: HTMLButtonElement) => void, ...after: Node[]): HTMLFormElement {
  const submit = h('button', { type: 'submit', part: 'button submit' }, submitWords)
  return h('form', {
    part: `form ${part}`, 'aria-label': words,
    onsubmit: (e: Event) => {
      e.preventDefault()
      submitted(submit)
    },
  }, ...fields, submit, ...after)
}

/** What the emailed links' pages (server: features/password/pages.ts) send back to the sign-in page, `?notice=`. */
const notices: Record<string, Key> = { 'email-verified': 'addressConfirmed', 'password-reset': 'passwordChanged' }

/**
 * The sign-in form of a `Password()` provider (Email, Password), with "Forgot password?" and
 * "Create an account", which open the sign-up and reset steps in place of the forms. The
 * `autocomplete` values (`username`, `current-password`, `new-password`, `one-time-code`) let
 * password managers fill, save and generate. A sign-in refused with `EmailNotVerified`, and a
 * sign-up, go on to the code from the confirmation email; each step ends back at this form with
 * the address filled. An emailed link's page comes back here with `?notice=`, said in words.
 */
export function passwordForm(host: SignInHost, p: AppProvider): HTMLFormElement {
  const { client, t, label } = host
  const codeField = () => field(t('codeFromEmail'), { name: 'code', part: 'input code-input', autocomplete: 'one-time-code', inputmode: 'numeric', autocapitalize: 'off' })
  const [emailLabel, email] = field(t('email'), { type: 'email', name: 'email', autocomplete: host.username })
  /** A step's address field, starting with the address typed into the sign-in form. */
  const emailField = () => field(t('email'), { type: 'email', name: 'email', autocomplete: 'username', value: email.value })
  const [passwordLabel, password] = field(t('password'), { type: 'password', name: 'password', autocomplete: 'current-password' })
  // No maxlength: a longer password pasted in would be cut short unseen (and kept whole by a
  // password manager); the server refuses it in words instead.
  const newPassword = (words: string) => field(words, { type: 'password', name: 'password', autocomplete: 'new-password', minlength: p.password?.minLength })
  const button = (part: string, words: string, onclick: () => void) => h('button', { type: 'button', part: `button ${part}`, onclick }, words)

  /** A step in place of the forms: a heading, its nodes, "Back to sign in". */
  const mode = (part: string, heading: string, ...nodes: Node[]) =>
    h('div', { class: 'stack', part: `container ${part}-step` }, h('h2', { part: 'heading' }, heading), ...nodes, button('back', t('backToSignIn'), () => {
      host.open()
      email.focus()
    }))

  /** Back to the sign-in form, the address filled, the focus where the next thing is typed. */
  const back = (address: string, words: string) => {
    host.open()
    email.value = address
    signInForm.prepend(host.say(words))
    ;(password.value ? signInForm.querySelector('button')! : password).focus()
  }

  /** The code from the confirmation email, and "Send the email again"; `intro` puts words under the heading. */
  const verify = (address: string, intro: (heading: HTMLElement) => void) => {
    const [codeLabel, code] = codeField()
    const resend: HTMLButtonElement = button('resend', t('sendAgain'), () =>
      host.run(resend, async () => {
        await need(client, 'password', 'latchkey-signin').resend(address)
        resend.after(host.say(t('sentAgain', { email: address }), true))
      }))
    const verifyForm = form('verify-form', t('confirmEmail'), t('confirm'), [codeLabel], (submit) =>
      host.run(submit, async () => {
        await need(client, 'password', 'latchkey-signin').verify({ email: address, code: code.value })
        back(address, t('addressConfirmed'))
      }))
    const step = mode('verify', t('confirmEmail'), verifyForm, resend)
    host.open(step)
    intro(step.firstChild as HTMLElement)
  }

  const signUp = () => {
    const [addressLabel, address] = emailField()
    const [nameLabel, name] = field(t('name'), { name: 'name', autocomplete: 'name', required: false })
    const [chosenLabel, chosen] = newPassword(t('password'))
    host.open(mode('signup', t('createAccount'), form('signup-form', t('createAccount'), t('createAccountButton'), [addressLabel, nameLabel, chosenLabel], (submit) =>
      host.run(submit, async () => {
        await need(client, 'password', 'latchkey-signin').signUp({ email: address.value, password: chosen.value, name: name.value || undefined })
        verify(address.value, (heading) => heading.after(host.say(t('signUpSent'), true)))
      }))))
  }

  const forgot = () => {
    const [addressLabel, address] = emailField()
    const [codeLabel, code] = codeField()
    const [chosenLabel, chosen] = newPassword(t('newPassword'))
    // The account the new password is for, so a password manager saves it under that name.
    const account = h('input', { type: 'email', name: 'email', autocomplete: 'username', hidden: true })
    const resetForm = form('reset-form', t('choosePassword'), t('changePassword'), [account, codeLabel, chosenLabel], (submit) =>
      host.run(submit, async () => {
        await need(client, 'password', 'latchkey-signin').reset({ email: account.value, code: code.value, password: chosen.value })
        password.value = ''
        back(account.value, t('passwordChanged'))
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

  const signInForm = form('password-form', label, label, [emailLabel, passwordLabel], (submit) =>
    host.run(submit, async () => {
      const result = await host.signIn({ email: email.value, password: password.value })
      if (result.error !== 'EmailNotVerified') return result
      verify(email.value, (heading) => host.refuse('EmailNotVerified', heading))
    }), ...(host.confirming ? [] : [h('div', { class: 'row' }, button('forgot', t('forgotPassword'), forgot), button('signup', t('createAccount'), signUp))]))
  const notice = notices[new URLSearchParams(location.search).get('notice') ?? '']
  if (notice) signInForm.prepend(host.say(t(notice)))
  return signInForm
}
