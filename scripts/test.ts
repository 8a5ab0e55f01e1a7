/**
 * `npm test`: the typecheck, the import rules, then each test tier (vitest.config.ts's projects),
 * one after the other, and the time each took. A vitest run per tier, rather than one run, gives
 * each tier a wall time of its own and lets a tier fail without hiding the next one's results.
 * The typecheck and the import rules stop the run when they fail, as before.
 *
 *   npm test                     everything
 *   npm test -- test/server      every tier, only the files matching the filter
 *
 * With TIER_TIMES=<file>, the times are appended to that file too (.ci/run prints them).
 */
import { spawn } from 'node:child_process'
import { appendFileSync } from 'node:fs'
import { tierNames } from '../test/support/tiers.js'

const filters = process.argv.slice(2)

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' })
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

const steps: { name: string; command: string; args: string[]; gate?: boolean }[] = [
  { name: 'typecheck', command: 'npm', args: ['run', '--silent', 'typecheck'], gate: true },
  { name: 'layers', command: 'npm', args: ['run', '--silent', 'layers'], gate: true },
  ...tierNames.map((tier) => ({ name: tier, command: 'npx', args: ['vitest', 'run', '--project', tier, '--passWithNoTests', ...filters] })),
]

const times: { name: string; seconds: number; ok: boolean }[] = []
for (const step of steps) {
  console.log(`\n--- ${step.name}`)
  const started = performance.now()
  const ok = (await run(step.command, step.args)) === 0
  times.push({ name: step.name, seconds: (performance.now() - started) / 1000, ok })
  if (process.env.TIER_TIMES) appendFileSync(process.env.TIER_TIMES, `${step.name}\t${times.at(-1)!.seconds.toFixed(1)}\t${ok ? 'ok' : 'FAILED'}\n`)
  if (!ok && step.gate) break
}

console.log('\n--- npm test, by tier')
for (const { name, seconds, ok } of times) console.log(`${name.padEnd(10)} ${seconds.toFixed(1).padStart(7)} s  ${ok ? 'ok' : 'FAILED'}`)
const total = times.reduce((sum, { seconds }) => sum + seconds, 0)
console.log(`${'total'.padEnd(10)} ${total.toFixed(1).padStart(7)} s`)
process.exit(times.every(({ ok }) => ok) && times.length === steps.length ? 0 : 1)
