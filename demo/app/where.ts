/** The footer: what runs where, from the server's /demo.json. */
interface DemoInfo {
  idp: { issuer: string; users: { email: string; password: string }[] }
  database: string
  email: string
}

export async function renderWhere(root: HTMLElement) {
  const info = (await (await fetch('/demo.json')).json()) as DemoInfo
  const rows: [string, string, string?][] = [
    ['App', 'this page: Vite build, imports latchkey from npm', '/'],
    ['React page', 'the same session through latchkey/react', '/react.html'],
    ['Drop-in page', 'the same, with one <script> tag', '/drop-in.html'],
    ['Server', `${location.origin}/auth, database sessions on ${info.database}`, '/auth/providers'],
    ['Session worker', '/latchkey-sw.js at scope /', '/latchkey-sw.js'],
    ['Demo IdP', `${info.idp.issuer} (OpenID Connect)`, `${info.idp.issuer}/.well-known/openid-configuration`],
    ['Email', info.email, '/outbox'],
  ]
  const dl = document.createElement('dl')
  for (const [name, text, href] of rows) {
    const dt = document.createElement('dt')
    dt.textContent = name
    const dd = document.createElement('dd')
    if (href) {
      const a = document.createElement('a')
      a.href = href
      a.textContent = text
      dd.append(a)
    } else dd.textContent = text
    dl.append(dt, dd)
  }
  const title = document.createElement('h2')
  title.textContent = 'What runs where'
  root.replaceChildren(title, dl)
}
