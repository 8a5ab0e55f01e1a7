// examples/react-vite: latchkey/react in a Vite app. No JSX here so it builds without a plugin;
// with @vitejs/plugin-react write the same as JSX (see docs/guides/react.md).
import { createElement as h } from 'react'
import { createRoot } from 'react-dom/client'
import { createAuthClient } from 'latchkey'
import { defineElements } from 'latchkey/components'
import { useSession } from 'latchkey/react'

const client = createAuthClient({ basePath: '/auth', serviceWorker: '/latchkey-sw.js' })
defineElements(client) // <latchkey-signin> and the others, usable inside React's tree
window.client = client

function App() {
  const { data, status } = useSession(client)
  return h('main', null,
    h('p', { id: 'out' }, status + ':' + (data?.user?.email ?? '')),
    status === 'unauthenticated' && h('latchkey-signin'),
  )
}
createRoot(document.getElementById('root')).render(h(App))
