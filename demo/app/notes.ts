/**
 * The app's own data: notes from /api/notes, which answers only a signed-in user. Signed out (or
 * when the API answers 401) the panel says so; a sign-out in any tab empties it in every tab,
 * since the session worker tells each one.
 */
import type { AuthClient } from 'latchkey'

export function mountNotes(root: HTMLElement, client: AuthClient): void {
  root.innerHTML = `<form class="notes-form"><label>New note <input name="text" maxlength="280" required autocomplete="off"></label><button type="submit">Add</button></form>
<p class="muted notes-status" role="status"></p><ul class="notes-list"></ul>`
  const form = root.querySelector('form')!
  const input = form.querySelector('input')!
  const status = root.querySelector<HTMLElement>('.notes-status')!
  const list = root.querySelector('ul')!

  const show = (notes: string[] | null, message = '') => {
    list.replaceChildren(...(notes ?? []).map((text) => Object.assign(document.createElement('li'), { textContent: text })))
    form.hidden = notes === null
    status.textContent = message || (notes === null ? 'Sign in to see your notes.' : notes.length ? '' : 'No notes yet.')
  }
  const answer = async (response: Response) => {
    if (response.status === 401) return show(null)
    if (!response.ok) return show([], ((await response.json().catch(() => ({}))) as { error?: string }).error ?? `The notes could not be read (${response.status})`)
    show(((await response.json()) as { notes: string[] }).notes)
  }
  const load = () => fetch('/api/notes', { credentials: 'same-origin' }).then(answer, () => show([], 'The notes could not be read (offline?)'))

  form.addEventListener('submit', (e) => {
    e.preventDefault()
    void fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: input.value }) })
      .then(answer)
      .then(() => (input.value = ''))
  })
  client.onSessionChange((session) => (session ? void load() : show(null)))
  show(null, 'Loading…')
  void client.getSession().then((session) => (session ? load() : show(null)), () => show(null))
}
