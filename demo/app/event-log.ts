/** The event log: each state the engine tells this tab, in words, newest first. */
import type { Session, SessionState } from 'latchkey'
import { clock } from './time.js'

type Kind = 'signed-in' | 'signed-out' | 'switched' | 'extended' | 'checked' | 'offline' | 'online' | 'note'

const who = (s: Session | null | undefined) => s?.user?.email ?? s?.user?.name ?? 'someone'

function describe(prev: SessionState | undefined, next: SessionState): [Kind, string] {
  const was = prev?.session
  const is = next.session
  if (next.stale && !prev?.stale) return ['offline', 'The server could not be reached; keeping the last known session']
  if (!next.stale && prev?.stale) return ['online', 'The server answers again']
  if (!was && is) return ['signed-in', `Signed in as ${who(is)}`]
  if (was && !is) return ['signed-out', 'Signed out']
  if (was && is && who(was) !== who(is)) return ['switched', `Now signed in as ${who(is)}`]
  if (was && is && was.expires !== is.expires) return ['extended', `Session extended until ${clock(Date.parse(is.expires))}`]
  return ['checked', `Checked with the server; next check at ${clock(next.due)}`]
}

export function createEventLog(list: HTMLOListElement | HTMLElement) {
  let last: SessionState | undefined
  const add = (kind: Kind, text: string) => {
    const item = document.createElement('li')
    item.className = `event ${kind}`
    item.dataset.kind = kind
    const time = document.createElement('time')
    time.textContent = clock(Date.now())
    const span = document.createElement('span')
    span.textContent = text
    item.append(time, span)
    list.prepend(item)
    while (list.children.length > 50) list.lastElementChild!.remove()
  }
  return {
    /** The state found when the tab opened: what the first event is compared with, unless one came first. */
    start(state: SessionState | undefined) {
      last ??= state
    },
    add(state: SessionState) {
      const [kind, text] = describe(last, state)
      last = state
      add(kind, text)
    },
    note: (text: string) => add('note', text),
  }
}
