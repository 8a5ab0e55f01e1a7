/**
 * Passkeys: create an account with one (signed out), add one to the account and remove them
 * (signed in). Signing in with a passkey is the button of <latchkey-signin>.
 */
import type { AuthClient } from 'latchkey'
import type { PasskeyClient } from 'latchkey/passkey'

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
  }
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
        const remove = el('button', { type: 'button', className: 'link' }, 'Remove')
        remove.addEventListener('click', () => void run(remove, async () => {
          await passkey.remove(k.id)
          await show()
        }, 'Passkey removed.'))
        return el('li', {}, el('code', {}, `${k.id.slice(0, 12)}…`), ` ${k.deviceType === 'multiDevice' ? 'synced' : 'this device'}`, remove)
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
    shown = client.status
    if (!passkey.supported()) return root.replaceChildren(el('p', { className: 'muted' }, 'This browser has no passkeys (WebAuthn).'))
    root.replaceChildren(...(client.status === 'authenticated' ? signedIn() : signedOut()), message)
  }
  client.onSessionChange(render)
  void client.getSession().then(render, render)
}
