/**
 * Passkeys: create an account with one (signed out), add one to the account and remove them
 * (signed in). Signing in with a passkey is the button of <latchkey-signin>. One error at a time:
 * an error here is a `latchkey-error` event, which clears the component's, and the component's
 * clears this one; a sign-in or sign-out clears the message.
 */
import type { AuthClient } from 'latchkey'
import type { PasskeyClient, PasskeyInfo } from 'latchkey/passkey'

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, unknown> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] => {
  const node = Object.assign(document.createElement(tag), props)
  node.append(...children)
  return node
}

export function mountPasskeys(root: HTMLElement, client: AuthClient, passkey: PasskeyClient) {
  const message = el('p', { className: 'message', role: 'status' })
  const say = (text: string, error = false) => {
    message.textContent = text
    message.classList.toggle('error', error)
    if (error) root.dispatchEvent(new CustomEvent('latchkey-error', { detail: { code: 'passkey' }, bubbles: true }))
  }
  document.addEventListener('latchkey-error', (e) => e.target !== root && message.classList.contains('error') && say(''))
  /** Runs a passkey ceremony; the new session shows through client.update(), with or without the worker. */
  const run = async (button: HTMLButtonElement, action: () => Promise<unknown>, done: string) => {
    button.disabled = true
    say('')
    try {
      await action()
      say(done)
    } catch (e) {
      say((e as Error).message, true)
    } finally {
      button.disabled = false
    }
  }

  function signedOut() {
    const email = el('input', { type: 'email', name: 'passkey-email', required: true, autocomplete: 'email', placeholder: 'you@example.com' })
    const create = el('button', { type: 'submit', className: 'secondary' }, 'Create a passkey')
    const form = el('form', { className: 'passkey-new', ariaLabel: 'Create an account with a passkey' },
      el('label', {}, 'New here? Create an account with a passkey', email), create)
    form.addEventListener('submit', (e) => {
      e.preventDefault()
      void run(create, async () => {
        await passkey.register({ email: email.value })
        await client.update()
      }, 'Passkey created: you are signed in.')
    })
    return [form]
  }

  function signedIn() {
    const list = el('ul', { className: 'passkey-list' })
    const show = async () => {
      const keys = await passkey.list().catch(() => [])
      list.replaceChildren(...keys.map((k) => {
        const name = el('span', { className: 'passkey-name' }, passkeyName(k))
        const remove = el('button', { type: 'button', className: 'link' }, 'Remove')
        remove.addEventListener('click', () => void run(remove, async () => {
          await passkey.remove(k.id)
          await show()
        }, 'Passkey removed.'))
        const rename = el('button', { type: 'button', className: 'link' }, 'Rename')
        rename.addEventListener('click', () => {
          const input = el('input', { value: k.name ?? '', maxLength: 64, ariaLabel: 'Passkey name', placeholder: passkeyName(k) })
          const save = el('button', { type: 'submit', className: 'link' }, 'Save')
          const form = el('form', { className: 'passkey-rename' }, input, save)
          form.addEventListener('submit', (e) => {
            e.preventDefault()
            void run(save, async () => {
              await passkey.rename(k.id, input.value)
              await show()
            }, 'Passkey renamed.')
          })
          name.replaceWith(form)
          input.focus()
        })
        return el('li', {}, name, el('span', { className: 'muted small' }, passkeyDetail(k)), rename, remove)
      }))
      if (!keys.length) list.append(el('li', { className: 'muted' }, 'No passkeys on this account yet.'))
    }
    const add = el('button', { type: 'button', className: 'secondary' }, 'Add a passkey')
    add.addEventListener('click', () => void run(add, async () => {
      await passkey.register()
      await show()
    }, 'Passkey added: next time, sign in with it.'))
    void show()
    return [el('h3', {}, 'Passkeys'), list, add]
  }

  let shown: string | undefined
  const render = () => {
    if (client.status === shown || client.status === 'loading') return
    // What was said before a sign-in or sign-out is about another session.
    if (shown) say('')
    shown = client.status
    if (!passkey.supported()) return root.replaceChildren(el('p', { className: 'muted' }, 'This browser has no passkeys (WebAuthn).'))
    root.replaceChildren(...(client.status === 'authenticated' ? signedIn() : signedOut()), message)
  }
  client.onSessionChange(render)
  void client.getSession().then(render, render)
}

/**
 * A passkey's name as a person knows it: the one they gave it, else its authenticator's (from the
 * AAGUID: "iCloud Keychain", "1Password"), else where it lives, from its device type and transports.
 */
export function passkeyName(k: PasskeyInfo): string {
  if (k.name) return k.name
  if (k.authenticator !== 'Passkey') return k.authenticator
  if (k.deviceType === 'multiDevice') return 'Synced passkey'
  if (k.transports.some((t) => t === 'usb' || t === 'nfc' || t === 'ble')) return 'Security key'
  return 'Passkey on one device'
}

function passkeyDetail(k: PasskeyInfo): string {
  const kind = k.deviceType === 'multiDevice' ? 'synced across your devices' : 'stays on the device that made it'
  const added = k.createdAt && new Date(k.createdAt).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' })
  // Named by the user: the authenticator's own name still says what it is.
  const what = k.name && k.authenticator !== 'Passkey' ? `${k.authenticator}, ${kind}` : kind
  return added ? `${what} · added ${added}` : what
}
