/** The session panel: who, until when, and when the engine will next ask the server. Ticks every second. */
import type { AuthStatus, SessionState } from 'latchkey'
import { clock, relative } from './time.js'

const labels: Record<AuthStatus, string> = { loading: 'Loading…', authenticated: 'Signed in', unauthenticated: 'Signed out' }

export function createSessionPanel(root: HTMLElement) {
  let state: SessionState | undefined
  let status: AuthStatus = 'loading'

  const field = (id: string, label: string) => {
    const dd = document.createElement('dd')
    dd.id = id
    const dt = document.createElement('dt')
    dt.textContent = label
    return [dt, dd] as const
  }
  const rows = {
    status: field('panel-status', 'Status'),
    user: field('panel-user', 'User'),
    expires: field('panel-expires', 'Expires'),
    due: field('panel-due', 'Next refresh'),
    engine: field('panel-engine', 'Engine'),
  }
  const dl = document.createElement('dl')
  dl.className = 'panel'
  for (const [dt, dd] of Object.values(rows)) dl.append(dt, dd)
  root.replaceChildren(dl)

  const when = (dd: HTMLElement, ms: number | undefined, note = '') => {
    dd.replaceChildren()
    if (ms === undefined || Number.isNaN(ms)) return void (dd.textContent = '—')
    const strong = document.createElement('strong')
    strong.textContent = clock(ms)
    const rel = document.createElement('span')
    rel.className = 'muted'
    rel.textContent = ` ${relative(ms)}${note}`
    dd.append(strong, rel)
  }

  function render() {
    const session = state?.session
    const stale = state?.stale
    const badge = document.createElement('span')
    badge.className = `badge ${stale ? 'stale' : status}`
    badge.textContent = stale ? `${labels[status]} · offline` : labels[status]
    rows.status[1].replaceChildren(badge)
    rows.user[1].textContent = session?.user ? [session.user.name, session.user.email].filter(Boolean).join(' · ') : '—'
    when(rows.expires[1], session ? Date.parse(session.expires) : undefined)
    const worker = !!navigator.serviceWorker?.controller
    when(rows.due[1], state?.due, worker ? ', by the session worker' : ', by this tab')
    rows.engine[1].textContent = worker ? 'Service worker (/latchkey-sw.js), shared by every tab' : 'In this tab (the worker is not in control yet)'
  }
  setInterval(render, 1000)
  render()

  return {
    show(next: SessionState | undefined) {
      if (next) state = next
      render()
    },
    status(next: AuthStatus) {
      status = next
      render()
    },
    refresh: render,
  }
}
