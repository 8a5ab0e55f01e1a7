/**
 * next-auth 5's page: `<SessionProvider>` with its defaults around components that call
 * `useSession()`, pointed at latchkey's server under /auth (the Auth.js wire). A navigation
 * within the app mounts a second view that calls `useSession()` too.
 */
import * as React from 'react'
import { createPortal } from 'react-dom'
import { createRoot } from 'react-dom/client'
import { SessionProvider, useSession } from 'next-auth-5/react'

const h = React.createElement

function Who() {
  const { data, status } = useSession()
  return status === 'loading' ? 'loading' : data?.user ? `signed in as ${data.user.email}` : 'signed out'
}

function View() {
  const { data } = useSession()
  return `${location.pathname}: ${data?.user?.email ?? 'nobody'}`
}

function App() {
  const [path, setPath] = React.useState(location.pathname)
  React.useEffect(() => {
    const on = () => setPath(location.pathname)
    addEventListener('popstate', on)
    return () => removeEventListener('popstate', on)
  }, [])
  return h(React.Fragment, null, h(Who), path.includes('/view-') ? createPortal(h(View, { key: path }), document.getElementById('view')!) : null)
}

createRoot(document.getElementById('who')!).render(h(SessionProvider, { basePath: '/auth', children: h(App) }))
;(window as unknown as { ready: boolean }).ready = true
