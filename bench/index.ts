/**
 * `npm run bench`: every benchmark in one run, figures printed side by side.
 * Pass names to run some: `npm run bench -- session`. The several-minute soak runs only when
 * named: `DATABASE_URL=... npm run bench -- soak`; so does the cluster of three processes behind
 * haproxy, which starts its own PostgreSQL, replica and Redis (as root): `npm run bench -- cluster`.
 */
const all: Record<string, () => Promise<void>> = {
  // client-size prints as it loads.
  'client-size': () => import('./client-size.js').then(() => {}),
  'server-size': () => import('./server-size.js').then((m) => m.run()),
  tabs: () => import('./tabs.js').then((m) => m.run()),
  'client-cost': () => import('./client-cost.js').then((m) => m.run()),
  'device-bound': () => import('./device-bound.js').then((m) => m.run()),
  session: () => import('./session.js').then((m) => m.run()),
  adapters: () => import('./adapters.js').then((m) => m.run()),
  'server-speed': () => import('./server-speed.js').then((m) => m.run()),
  'password-hash': () => import('./password-hash.js').then((m) => m.run()),
  soak: () => import('./soak.js').then((m) => m.run()),
  cluster: () => import('./cluster.js').then((m) => m.run()),
}
const optIn = new Set(['soak', 'cluster'])

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'))
for (const [name, run] of Object.entries(all)) {
  if (wanted.length ? !wanted.includes(name) : optIn.has(name)) continue
  console.log(`\n=== ${name}`)
  await run()
}
