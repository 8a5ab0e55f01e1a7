/**
 * Just enough of Marionette, Firefox's classic-WebDriver protocol, for WebDriver's authenticator
 * extension (https://www.w3.org/TR/webauthn-3/#sctn-automation): Firefox serves its virtual
 * authenticators over Marionette only, not over WebDriver BiDi, and puppeteer-core has no command
 * for them. Firefox started with `--marionette` and the pref `marionette.port` = 0 listens on a
 * free port and writes it to the profile's MarionetteActivePort file. While WebDriver BiDi is on,
 * Marionette shares the BiDi session (puppeteer's), so no WebDriver:NewSession is sent here.
 *
 * The wire: each message is `<byte length>:<JSON>`; the server speaks first (its hello), a
 * command is `[0, id, name, parameters]` and its answer `[1, id, error, result]`.
 */
import { readFile } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { poll } from './index.js'

export interface VirtualAuthenticator {
  protocol: 'ctap1/u2f' | 'ctap2' | 'ctap2_1'
  transport: 'usb' | 'nfc' | 'ble' | 'smart-card' | 'hybrid' | 'internal'
  hasResidentKey?: boolean
  hasUserVerification?: boolean
  isUserConsenting?: boolean
  isUserVerified?: boolean
}

export interface Marionette {
  /** WebAuthn:AddVirtualAuthenticator: its id. Firefox keeps one set for the whole browser. */
  addVirtualAuthenticator(options: VirtualAuthenticator): Promise<string>
  removeVirtualAuthenticator(id: string): Promise<void>
  close(): void
}

export async function connectMarionette(profileDir: string, timeout = 10_000): Promise<Marionette> {
  let port = ''
  await poll(async () => (port = (await readFile(join(profileDir, 'MarionetteActivePort'), 'utf8').catch(() => '')).trim()) !== '', timeout, 'Marionette to listen (MarionetteActivePort)')
  const socket = connect(Number(port), '127.0.0.1')
  const answers: ((message: unknown) => void)[] = []
  let failed: Error | undefined
  const fail = (e: Error) => {
    failed = e
    for (const answer of answers.splice(0)) answer(e)
  }
  socket.on('error', fail)
  socket.on('close', () => fail(new Error('Marionette closed its connection')))
  let buffer = Buffer.alloc(0)
  socket.on('data', (data) => {
    buffer = Buffer.concat([buffer, data])
    for (;;) {
      const colon = buffer.indexOf(':')
      if (colon < 0) return
      const length = Number(buffer.subarray(0, colon).toString())
      if (buffer.length < colon + 1 + length) return
      const message = JSON.parse(buffer.subarray(colon + 1, colon + 1 + length).toString())
      buffer = buffer.subarray(colon + 1 + length)
      answers.shift()?.(message)
    }
  })
  const next = () => new Promise<unknown>((resolve, reject) => {
    if (failed) return reject(failed)
    answers.push((m) => (m instanceof Error ? reject(m) : resolve(m)))
  })
  const hello = (await next()) as { marionetteProtocol?: number }
  if (hello.marionetteProtocol !== 3) throw new Error(`Marionette speaks protocol ${hello.marionetteProtocol}, not 3`)

  let id = 0
  let queue: Promise<unknown> = Promise.resolve()
  /** One command at a time: answers come back in order. */
  const send = (name: string, parameters: Record<string, unknown>): Promise<any> => {
    const run = queue.then(async () => {
      const body = JSON.stringify([0, ++id, name, parameters])
      const answer = next()
      socket.write(`${Buffer.byteLength(body)}:${body}`)
      const [, , error, result] = (await answer) as [1, number, { error: string; message: string } | null, { value?: unknown } | null]
      if (error) throw new Error(`Marionette ${name}: ${error.error}: ${error.message}`)
      return result?.value
    })
    queue = run.catch(() => {})
    return run
  }
  return {
    addVirtualAuthenticator: (options) => send('WebAuthn:AddVirtualAuthenticator', { ...options }),
    removeVirtualAuthenticator: async (authenticatorId) => void (await send('WebAuthn:RemoveVirtualAuthenticator', { authenticatorId })),
    close: () => void socket.destroy(),
  }
}
