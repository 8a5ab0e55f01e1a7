/**
 * The elements' typings in the three frameworks' own starters: create-vite's react-ts, vue-ts and
 * svelte-ts templates, scaffolded as they are, with the packed tarball installed, checked with
 * each template's own checker and tsconfig (react-ts: `tsc -b`, and once more with skipLibCheck
 * off so latchkey's .d.ts are checked too; vue-ts: `vue-tsc -b`; svelte-ts: `svelte-check`).
 * Right use compiles; a wrong attribute value, a misspelt attribute and a wrong event detail are
 * errors where they are written.
 *
 * Against the packed tarball rather than the repo's dist: the entries (latchkey/jsx/*) are
 * resolved through the package's exports, as an app resolves them.
 */
import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { installPacked, type PackedProject } from '../support/packed.js'

const createVite = 'create-vite@9.3.0'
const exec = promisify(execFile)
// As test/support/packed.ts: npm's own variables would point a nested npm at this repo.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)))

/** Runs a command in `dir`; its output whatever the exit code. */
async function run(dir: string, command: string, ...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd: dir, env, maxBuffer: 16 << 20 })
    return { code: 0, output: stdout + stderr }
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string }
    if (typeof e.code !== 'number') throw error
    return { code: e.code, output: (e.stdout ?? '') + (e.stderr ?? '') }
  }
}

async function must(dir: string, command: string, ...args: string[]): Promise<void> {
  const { code, output } = await run(dir, command, ...args)
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${code}) in ${dir}:\n${output}`)
}

let app: PackedProject
let tarball: string

/** A template scaffolded by create-vite into `name`, its dependencies and latchkey installed. */
async function scaffold(name: string, template: string, files: Record<string, string>): Promise<string> {
  await must(app.dir, 'npm', 'exec', '--yes', '--', createVite, name, '--template', template, '--no-interactive')
  const dir = join(app.dir, name)
  await must(dir, 'npm', 'install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball)
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text)
  return dir
}

/** `file(line,col): error TSxxxx` lines of tsc-style output, as `file:line TSxxxx`. */
const tscErrors = (output: string) => [...output.matchAll(/^(\S+?)\((\d+),\d+\): error (TS\d+)/gm)].map(([, file, line, code]) => `${file}:${line} ${code}`)

beforeAll(async () => {
  app = await installPacked()
  const spec = JSON.parse(await readFile(join(app.dir, 'package.json'), 'utf8')).dependencies.latchkey as string
  tarball = join(app.dir, spec.replace(/^file:/, ''))
}, 300_000)
afterAll(() => app?.remove())

describe("create-vite's react-ts: tsc -b", () => {
  let dir: string
  beforeAll(async () => {
    dir = await scaffold('react-app', 'react-ts', {
      'src/Elements.tsx': `import 'latchkey/jsx/react'
import { useRef } from 'react'

export function Elements() {
  const accounts = useRef<HTMLElement>(null)
  return (
    <main>
      <latchkey-signin callback-url="/home" credentials-fields="email,password" redirect className="card" class="wide" style={{ maxWidth: 320 }}
        onlatchkey-error={(event) => console.warn(event.detail.code)} onlatchkey-passkey={(event) => console.log(event.detail.provider.id)}>
        <p slot="signed-in">Welcome back</p>
      </latchkey-signin>
      <latchkey-signin confirm onlatchkey-confirmed={() => console.log('fresh')} />
      <latchkey-user signout-label="Leave" redirect={false} />
      <latchkey-sessions onlatchkey-confirm-needed={() => console.log('confirm first')} />
      <latchkey-accounts ref={accounts} callback-url="/settings" />
    </main>
  )
}
`,
      'src/Mistakes.tsx': `import 'latchkey/jsx/react'

export const values = <latchkey-signin redirect="yes" />
export const names = <latchkey-signin callbackUrl="/home" />
export const details = <latchkey-signin onlatchkey-error={(event) => event.detail.message} />
export const unknown = <latchkey-user confirm />
`,
    })
  }, 300_000)

  test('right use compiles; each mistake is an error on its line', async () => {
    const { output } = await run(dir, 'npx', '--no', '--', 'tsc', '-b', '--pretty', 'false')
    expect(tscErrors(output)).toEqual(['src/Mistakes.tsx:3 TS2322', 'src/Mistakes.tsx:4 TS2322', 'src/Mistakes.tsx:5 TS2339', 'src/Mistakes.tsx:6 TS2322'])
    expect(output).toMatch(/Type 'string' is not assignable to type 'boolean/)
    expect(output).toMatch(/Property 'callbackUrl' does not exist/)
    expect(output).toMatch(/Property 'message' does not exist on type '\{ code: string; \}'/)
  }, 120_000)

  test("with skipLibCheck off, latchkey's own .d.ts compile too", async () => {
    await writeFile(join(dir, 'src/Mistakes.tsx'), 'export {}\n')
    const { output } = await run(dir, 'npx', '--no', '--', 'tsc', '-p', 'tsconfig.app.json', '--skipLibCheck', 'false', '--pretty', 'false')
    expect(output.split('\n').filter((line) => /latchkey/.test(line))).toEqual([])
    expect(tscErrors(output)).toEqual([])
  }, 120_000)
})

describe("create-vite's vue-ts: vue-tsc -b", () => {
  test('right use compiles; each mistake is an error on its line', async () => {
    const dir = await scaffold('vue-app', 'vue-ts', {
      'src/elements.ts': `import 'latchkey/jsx/vue'\n`,
      'src/components/Elements.vue': `<script setup lang="ts">
function failed(event: CustomEvent<{ code: string }>) {
  console.warn(event.detail.code)
}
</script>

<template>
  <latchkey-signin callback-url="/home" credentials-fields="email,password" redirect class="card" style="max-width: 20rem" @latchkey-error="failed">
    <p slot="signed-in">Welcome back</p>
  </latchkey-signin>
  <latchkey-signin confirm @latchkey-confirmed="() => console.log('fresh')" />
  <latchkey-user signout-label="Leave" :redirect="null" />
  <latchkey-sessions @latchkey-confirm-needed="() => console.log('confirm first')" />
  <latchkey-accounts callback-url="/settings" />
</template>
`,
      'src/components/Mistakes.vue': `<template>
  <latchkey-signin redirect="yes" />
  <latchkey-signin :confirm="false" />
  <latchkey-signin @latchkey-error="(event) => event.detail.message" />
</template>
`,
    })
    const { output } = await run(dir, 'npx', '--no', '--', 'vue-tsc', '-b', '--pretty', 'false')
    expect(tscErrors(output)).toEqual(['src/components/Mistakes.vue:2 TS2322', 'src/components/Mistakes.vue:3 TS2322', 'src/components/Mistakes.vue:4 TS2339'])
    expect(output).toMatch(/Type '"yes"' is not assignable to type 'true \| "" \| null \| undefined'/)
    expect(output).toMatch(/Type 'false' is not assignable/)
  }, 300_000)
})

describe("create-vite's svelte-ts: svelte-check", () => {
  test('right use compiles; each mistake is an error on its line', async () => {
    const dir = await scaffold('svelte-app', 'svelte-ts', {
      'src/elements.ts': `import 'latchkey/jsx/svelte'\n`,
      'src/lib/Elements.svelte': `<script lang="ts">
  function failed(event: CustomEvent<{ code: string }>) {
    console.warn(event.detail.code)
  }
</script>

<latchkey-signin callback-url="/home" credentials-fields="email,password" redirect class="card" style="max-width: 20rem" onlatchkey-error={failed}>
  <p slot="signed-in">Welcome back</p>
</latchkey-signin>
<latchkey-signin confirm onlatchkey-confirmed={() => console.log('fresh')}></latchkey-signin>
<latchkey-user signout-label="Leave" redirect={undefined}></latchkey-user>
<latchkey-sessions onlatchkey-confirm-needed={() => console.log('confirm first')}></latchkey-sessions>
<latchkey-accounts callback-url="/settings"></latchkey-accounts>
`,
      'src/lib/Mistakes.svelte': `<script lang="ts"></script>

<latchkey-signin redirect="yes"></latchkey-signin>
<latchkey-signin confirm={false}></latchkey-signin>
<latchkey-signin onlatchkey-error={(event) => event.detail.message}></latchkey-signin>
`,
    })
    const { output } = await run(dir, 'npx', '--no', '--', 'svelte-check', '--tsconfig', './tsconfig.app.json', '--output', 'machine')
    // Machine output: ERROR "<file>" <line>:<column> "<message as a JSON string>"
    const errors = [...output.matchAll(/ ERROR "([^"]+)" (\d+):\d+ ("(?:[^"\\]|\\.)*")/g)].map(([, file, line, message]) => `${file}:${line} ${JSON.parse(message!)}`)
    expect(errors).toEqual([
      `src/lib/Mistakes.svelte:3 Type '"yes"' is not assignable to type 'true | "" | null | undefined'.`,
      `src/lib/Mistakes.svelte:4 Type 'false' is not assignable to type 'true | "" | null | undefined'.`,
      `src/lib/Mistakes.svelte:5 Property 'message' does not exist on type '{ code: string; }'.`,
    ])
  }, 300_000)
})
