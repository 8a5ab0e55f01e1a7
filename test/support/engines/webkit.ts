/**
 * WebKit: Debian's WebKitWebDriver driving MiniBrowser (`--automation`) on its own Xvfb display,
 * spoken to in the W3C WebDriver HTTP protocol. One profile at a time (one WebDriver session,
 * one MiniBrowser with its own ephemeral storage); its tabs are the session's windows.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { clearFromPage, poll, type Engine, type Profile, type Tab } from './index.js'

export async function launchWebKit(driverPath: string, miniBrowser: string): Promise<Engine> {
  // -displayfd: Xvfb picks a free display and tells it, so parallel test files never collide.
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1280x800x24'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] })
  const display = await new Promise<string>((resolve, reject) => {
    xvfb.stdio[3]!.once('data', (d) => resolve(String(d).trim()))
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code})`)))
  })
  const env = { ...process.env, DISPLAY: `:${display}` }
  let driver: ChildProcess | undefined
  let base = ''
  const start = async () => {
    const port = await freePort()
    driver = spawn(driverPath, [`--port=${port}`], { env, stdio: 'ignore' })
    base = `http://127.0.0.1:${port}`
    await poll(() => fetch(`${base}/status`).then(() => true, () => false))
  }
  const stop = () => [driver, xvfb].forEach((p) => p && p.exitCode === null && p.kill())
  process.once('exit', stop)
  await start()
  const capabilities = { alwaysMatch: { 'webkitgtk:browserOptions': { binary: miniBrowser, args: ['--automation'] } } }
  return {
    name: 'webkit',
    async newProfile() {
      // Now and then, under load, WebKitWebDriver never answers a new session (seen in CI: no
      // answer in 30 s after the last profile closed). A new driver then gets one at once.
      const { sessionId } = await call(base, 'POST', '/session', { capabilities }, sessionDeadline).catch(async (e: Error) => {
        if (!e.message.includes('no answer')) throw e
        driver?.kill()
        await start()
        return call(base, 'POST', '/session', { capabilities })
      })
      return webDriverProfile(`${base}/session/${sessionId}`)
    },
    close: async () => stop(),
  }
}

/** A new session (MiniBrowser launched) takes about a second; past this the driver is stuck. */
const sessionDeadline = 15_000
/** A command's longest wait: a driver that stops answering fails the step it hung on, by name, not the test's timeout. */
const commandDeadline = 30_000

async function call(base: string, method: string, path: string, body?: unknown, deadline = commandDeadline): Promise<any> {
  const response = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(deadline),
  }).catch((e) => {
    throw new Error(`WebDriver ${method} ${path.replace(/^.*\/session\/[^/]+/, '')}: ${e?.name === 'TimeoutError' ? `no answer in ${deadline / 1000} s` : e}`)
  })
  const { value } = (await response.json()) as { value: any }
  if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${value?.error}: ${value?.message}`)
  return value
}

function webDriverProfile(session: string): Profile {
  let current: string | undefined
  let queue: Promise<unknown> = Promise.resolve()
  /** One command at a time, in the window it is meant for. */
  const inWindow = <T>(handle: string, command: () => Promise<T>): Promise<T> => {
    const next = queue.then(async () => {
      if (current !== handle) await call(session, 'POST', '/window', { handle })
      current = handle
      return command()
    })
    queue = next.catch(() => {})
    return next
  }
  let first = true
  return {
    async newTab(url) {
      // The session opens with one window: the first tab.
      const handle: string = first ? await call(session, 'GET', '/window') : (await call(session, 'POST', '/window/new', { type: 'tab' })).handle
      first = false
      const tab = webDriverTab(session, (command) => inWindow(handle, command))
      await tab.goto(url)
      return tab
    },
    close: () => call(session, 'DELETE', ''),
  }
}

function webDriverTab(session: string, run: <T>(command: () => Promise<T>) => Promise<T>): Tab {
  const evaluate: Tab['evaluate'] = async (fn, arg) => {
    // The W3C "execute async script": the last argument is the callback.
    const script = `const [arg, done] = arguments; Promise.resolve().then(() => (${fn})(arg)).then((value) => done({ value }), (e) => done({ error: String(e && e.stack || e) }))`
    const { value, error } = await run(() => call(session, 'POST', '/execute/async', { script, args: [arg ?? null] }))
    if (error) throw new Error(error)
    return value
  }
  return {
    errors: [],
    goto: (url) => run(() => call(session, 'POST', '/url', { url })),
    reload: () => run(() => call(session, 'POST', '/refresh', {})),
    back: () => run(() => call(session, 'POST', '/back', {})),
    clearSiteData: async () => void (await evaluate(clearFromPage)),
    evaluate,
    waitFor: (fn, arg, timeout) => poll(() => evaluate(fn, arg), timeout, `${fn} (${JSON.stringify(arg)})`),
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}
