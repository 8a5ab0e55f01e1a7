/**
 * The demo's React page: the same session as the app, through `useSession` from latchkey/react
 * (no provider component), with `<latchkey-signin>` in React's tree and the notes API below it.
 */
import { createElement as h, useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { createAuthClient } from 'latchkey'
import { defineElements } from 'latchkey/components'
import { useSession } from 'latchkey/react'

const client = createAuthClient({ basePath: '/auth', serviceWorker: '/latchkey-sw.js' })
defineElements(client)
Object.assign(window, { latchkey: client })

function Notes({ signedIn }: { signedIn: boolean }) {
  const [notes, setNotes] = useState<string[] | null>(null)
  useEffect(() => {
    if (!signedIn) return setNotes(null)
    void fetch('/api/notes').then(async (res) => setNotes(res.ok ? ((await res.json()) as { notes: string[] }).notes : null))
  }, [signedIn])
  if (!notes) return h('p', { className: 'muted', id: 'react-notes' }, 'Sign in to see your notes.')
  if (!notes.length) return h('ul', { id: 'react-notes' }, h('li', { className: 'muted' }, 'No notes yet.'))
  return h('ul', { id: 'react-notes' }, ...notes.map((text, i) => h('li', { key: i }, text)))
}

function Page() {
  const { data, status } = useSession(client)
  return h('section', { className: 'card', 'aria-labelledby': 'react-title' },
    h('h2', { id: 'react-title' }, 'React, with latchkey/react'),
    h('p', { id: 'react-status' }, status === 'authenticated' ? `Signed in as ${data?.user.email}` : status === 'loading' ? 'Loading…' : 'Signed out'),
    status === 'unauthenticated' ? h('latchkey-signin') : h('latchkey-user'),
    h('h3', null, 'Your notes'),
    h(Notes, { signedIn: status === 'authenticated' }),
  )
}

createRoot(document.getElementById('root')!).render(h(Page))
